// The order events integrators' webhooks receive (order.created/paid/shipped/cancelled/refunded) and their data.
import type { Order } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { emitEvent } from "../webhooks/service.ts";
import type { EventType } from "../webhooks/schemas.ts";
import type { OrderStatus } from "./transitions.ts";

export interface EventLine {
  productId: string;
  productName: string;
  variantSku: string | null;
  quantity: number;
  unitPriceDkk: number | bigint;
}

/** The event a move to this status reports (a partial refund is a refund too). */
const STATUS_EVENTS: Partial<Record<OrderStatus, EventType>> = {
  paid: "order.paid",
  shipped: "order.shipped",
  cancelled: "order.cancelled",
  refunded: "order.refunded",
  partial_refund: "order.refunded",
};

/** An order as webhook data: amounts in øre, the lines, tracking once shipped. */
export function orderEventData(order: Order, lines: readonly EventLine[], previousStatus: string | null) {
  return {
    id: order.id,
    status: order.status,
    previousStatus,
    email: order.email,
    currency: order.currency,
    subtotalDkk: Number(order.subtotalDkk),
    shippingDkk: Number(order.shippingDkk),
    discountDkk: Number(order.discountDkk),
    totalDkk: Number(order.totalDkk),
    refundedDkk: Number(order.refundedDkk),
    channel: order.channel,
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    trackingUrl: order.trackingUrl,
    createdAt: order.createdAt.toISOString(),
    lines: lines.map((line) => ({ productId: line.productId, name: line.productName, sku: line.variantSku, quantity: line.quantity, unitPriceDkk: Number(line.unitPriceDkk) })),
  };
}

export function emitOrderCreated(ctx: ToolContext, order: Order, lines: readonly EventLine[]): Promise<void> {
  return emitEvent(ctx, "order.created", orderEventData(order, lines, null));
}

/** Reports a status change when its new status is one integrators subscribe to. */
export async function emitStatusChange(ctx: ToolContext, after: Order, lines: readonly EventLine[], previousStatus: string): Promise<void> {
  const type = STATUS_EVENTS[after.status as OrderStatus];
  if (type) await emitEvent(ctx, type, orderEventData(after, lines, previousStatus));
}
