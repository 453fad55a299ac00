// checkout.get_order: the order a caller's checkout session became, with its shipping progress, for the agent that bought it.
import { z } from "zod";
import type { Db } from "../../core/db.ts";
import { NotFound } from "../../core/errors.ts";
import type { CheckoutSession } from "../../generated/prisma/client.ts";
import { defineTool, READ } from "../tool.ts";
import { adjustment, fulfillmentEvent, storedList } from "../orders/fulfillment-events.ts";
import { sessionView } from "./schemas.ts";
import { ownerOf, storedView } from "./sessions.ts";

export const orderView = z.strictObject({
  id: z.string(),
  status: z.string().describe("The order's status (pending_payment, paid, shipped …)."),
  canceled: z.boolean().describe("True once the order was cancelled or fully refunded."),
  shippedAt: z.string().nullable().describe("When the order was handed to the carrier, or null."),
  deliveredAt: z.string().nullable().describe("When the order was delivered, or null."),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  checkout: sessionView.describe("The completed checkout session the order was placed from."),
  fulfillmentEvents: z.array(fulfillmentEvent).describe("Fulfilment events recorded on the order (orders.record_events)."),
  adjustments: z.array(adjustment).describe("Adjustments recorded on the order (refunds, returns …)."),
});
export type OrderView = z.infer<typeof orderView>;

export default defineTool({
  name: "checkout.get_order",
  description:
    "The order one of your checkout sessions became. Returns {id, status, canceled, shippedAt, deliveredAt, carrier, " +
    "tracking*, checkout, fulfillmentEvents, adjustments}.",
  errors: [{ status: 404, when: "unknown or another's session, or no order yet" }],
  input: z.strictObject({ orderId: z.string().min(1).max(100).describe("The session's orderId.") }),
  output: orderView,
  scope: "checkout:agent",
  anonymous: true,
  audited: false,
  annotations: READ,
  examples: [{ orderId: "c000000000000000000000000" }],
  async handler({ orderId }, ctx) {
    const session = await ctx.db.checkoutSession.findUnique({ where: { orderId } });
    if (!session || session.owner !== ownerOf(ctx)) throw new NotFound(`There is no order "${orderId}" from your checkout sessions.`);
    return orderViewOf(ctx.db, session, ctx.now());
  },
});

/** The order a completed session became, as this tool shows it (and as UCP order events carry it). */
export async function orderViewOf(db: Db, session: CheckoutSession, now: Date): Promise<OrderView> {
  const orderId = session.orderId!;
  const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  const [shipped, delivered] = await Promise.all(
    (["shipped", "delivered"] as const).map((toStatus) => db.orderStatusChange.findFirst({ where: { orderId, toStatus }, orderBy: { createdAt: "asc" } })),
  );
  return {
    id: order.id,
    status: order.status,
    canceled: order.status === "cancelled" || order.status === "refunded",
    shippedAt: shipped?.createdAt.toISOString() ?? null,
    deliveredAt: delivered?.createdAt.toISOString() ?? null,
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    trackingUrl: order.trackingUrl,
    checkout: storedView(session, now),
    fulfillmentEvents: storedList(order.fulfillmentEvents, fulfillmentEvent),
    adjustments: storedList(order.adjustments, adjustment),
  };
}
