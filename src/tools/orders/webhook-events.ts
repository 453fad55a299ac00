// The order events integrators' webhooks receive (order.created/paid/shipped/cancelled/refunded/updated) and their data: the
// integrators' subscriber of the order-event hub (events.ts).
import type { Order } from "../../generated/prisma/client.ts";
import { emitEvent } from "../webhooks/endpoints.ts";
import type { EventType } from "../webhooks/schemas.ts";
import type { OrderLine, OrderSubscriber } from "./events.ts";
import type { OrderStatus } from "./transitions.ts";

/** The event a move to this status reports (a partial refund is a refund too). */
const STATUS_EVENTS: Partial<Record<OrderStatus, EventType>> = {
  paid: "order.paid",
  shipped: "order.shipped",
  cancelled: "order.cancelled",
  refunded: "order.refunded",
  partial_refund: "order.refunded",
};

/** An order as webhook data: amounts in øre, the lines, tracking once shipped. */
function orderEventData(order: Order, lines: readonly OrderLine[], previousStatus: string | null) {
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

/** Reports a new order, an item edit with what it changed, and a status change integrators subscribe to. */
export const integratorWebhooks: OrderSubscriber = async (scope, change) => {
  if (change.type === "created") await emitEvent(scope, "order.created", orderEventData(change.order, change.lines, null));
  if (change.type === "items_changed") {
    await emitEvent(scope, "order.updated", {
      ...orderEventData(change.order, change.lines, null),
      previousTotalDkk: Number(change.previousTotalDkk),
      changes: change.changes.map((c) => ({ ...c, unitPriceDkk: Number(c.unitPriceDkk) })),
    });
  }
  if (change.type !== "status_changed") return;
  const type = STATUS_EVENTS[change.to];
  if (type) await emitEvent(scope, type, orderEventData(change.order, change.lines, change.from));
};
