// The one vocabulary of order statuses: the statuses (SPEC.md "Order status"), the legal transitions between them
// (DESIGN.md table), their groups and the next actions each offers. Data only: tools and pages import it, never list
// statuses again.
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

const group = (...statuses: OrderStatus[]): ReadonlySet<string> => new Set(statuses);

/** Waiting for the money: a gift card may pay it, and earlier payments covering an edited total make it paid. */
export const UNPAID = group("pending_payment", "pending");

/** The money is received and the order goes on (orders.get_payment's `paid`). */
export const PAID = group("paid", "processing", "shipped", "delivered", "completed");

/** The parcel has not left: the address and items may still change, and the order is cancelled rather than returned. */
export const UNSHIPPED = group("pending_payment", "pending", "flagged_review", "paid", "processing");

/** The goods have left the shop: they may come back as a return. */
export const SHIPPED = group("shipped", "delivered", "completed");

/** What a shopper or staff may do with an order; the tools check it again, with what else they need to know. */
const ORDER_ACTIONS = ["pay", "cancel", "change_address", "change_items", "return", "refund"] as const;

export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** Statuses from which one of `to` may follow. */
const reaching = (...to: OrderStatus[]) => group(...ORDER_STATUSES.filter((from) => ORDER_TRANSITIONS[from].some((next) => to.includes(next))));

const OFFERED: Record<OrderAction, ReadonlySet<string>> = {
  /** The shopper is asked to pay through the order's payment page. */
  pay: group("pending_payment"),
  cancel: reaching("cancelled"),
  change_address: UNSHIPPED,
  change_items: UNSHIPPED,
  /** returns.request also takes a partly refunded order whose history shows it shipped. */
  return: SHIPPED,
  refund: reaching("refunded", "partial_refund"),
};

/** The actions an order in `status` offers (none for an unknown status). */
export function nextActions(status: string): ReadonlySet<OrderAction> {
  return new Set(ORDER_ACTIONS.filter((action) => OFFERED[action].has(status)));
}
