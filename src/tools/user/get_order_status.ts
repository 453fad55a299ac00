// user.get_order_status: status, delivery method and tracking of one of the session's own orders (placed in it, or its
// signed-in customer's).
import { z } from "zod";
import { iso } from "../../core/json.ts";
import { deliveryOf, orderDelivery } from "../cart/delivery.ts";
import { orderId } from "../orders/schemas.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { notOwnOrder, ownOrders } from "./own-customer.ts";

export default defineTool({
  name: "user.get_order_status",
  description:
    "Where is my order? One placed in this session, or one of the signed-in shopper's. Returns {orderId, status, " +
    "delivery, carrier, tracking*, estDelivery*, updatedAt}.",
  errors: [
    { status: 422, code: "no_customer", when: "not signed in, and not an order of this session" },
    { status: 404, when: "unknown, or another's order" },
  ],
  input: z.strictObject({ orderId }),
  output: z.strictObject({
    orderId: z.string(),
    status: z.string(),
    delivery: orderDelivery,
    carrier: z.string().nullable().describe("The carrier it was shipped with."),
    trackingNumber: z.string().nullable(),
    trackingUrl: z.string().nullable(),
    estDeliveryFrom: isoDateTime.nullable(),
    estDeliveryTo: isoDateTime.nullable(),
    updatedAt: isoDateTime.describe("When the order last changed."),
  }),
  scope: "customer:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ orderId: "demo-order-22" }],
  async handler(input, ctx) {
    const mine = ownOrders(ctx.caller.session);
    const order = mine ? await ctx.db.order.findFirst({ where: { id: input.orderId, ...mine } }) : null;
    if (!order) throw notOwnOrder(ctx.caller.session, input.orderId);
    return {
      orderId: order.id,
      status: order.status,
      delivery: deliveryOf(order),
      carrier: order.carrier,
      trackingNumber: order.trackingNumber,
      trackingUrl: order.trackingUrl,
      estDeliveryFrom: iso(order.estDeliveryFrom),
      estDeliveryTo: iso(order.estDeliveryTo),
      updatedAt: order.updatedAt.toISOString(),
    };
  },
});
