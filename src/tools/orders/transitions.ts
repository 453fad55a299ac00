// Order statuses (SPEC.md "Order status") and the legal transitions between them (DESIGN.md table).
import { z } from "zod";

export const ORDER_STATUSES = [
  "pending_payment",
  "pending",
  "paid",
  "flagged_review",
  "shipped",
  "cancelled",
  "refunded",
  "partial_refund",
  "disputed",
  "processing",
  "delivered",
  "completed",
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const orderStatus = z.enum(ORDER_STATUSES).describe("Order status.");

export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending_payment: ["pending", "paid", "flagged_review", "cancelled"],
  pending: ["paid", "processing", "flagged_review", "cancelled"],
  flagged_review: ["pending", "paid", "processing", "cancelled"],
  paid: ["processing", "shipped", "flagged_review", "refunded", "partial_refund", "disputed", "cancelled"],
  processing: ["shipped", "refunded", "partial_refund", "cancelled"],
  shipped: ["delivered", "refunded", "partial_refund", "disputed"],
  delivered: ["completed", "refunded", "partial_refund", "disputed"],
  completed: ["refunded", "partial_refund", "disputed"],
  partial_refund: ["refunded", "partial_refund", "shipped", "delivered", "completed", "disputed"],
  disputed: ["paid", "completed", "refunded"],
  cancelled: [],
  refunded: [],
};

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** True when an order may move from `from` to `to` (unknown statuses never may). */
export function canTransition(from: string, to: string): boolean {
  if (!isOrderStatus(from) || !isOrderStatus(to)) return false;
  return ORDER_TRANSITIONS[from].includes(to);
}
