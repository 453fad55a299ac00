// orders.delivery_options (internal): what orders.change_delivery can move an unshipped order to, priced for it.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { pickupPointOutput } from "../cart/delivery.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { deliveryOptions } from "./delivery-change.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.delivery_options",
  description: "Delivery methods an order can change to (orders.change_delivery), priced for it. Returns [{id, kind, name, priceDkk, pickupPoints}].",
  errors: [{ status: 404, when: "unknown order" }],
  input: z.strictObject({ orderId }),
  output: z.array(
    z.strictObject({
      id: z.string(),
      carrier: z.string(),
      kind: z.enum(["home", "pickup"]),
      name: z.string(),
      priceDkk: oere("Shipping for this order; its own method keeps its price"),
      minDays: z.number().int(),
      maxDays: z.number().int(),
      pickupPoints: z.array(pickupPointOutput),
    }),
  ),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  internal: true,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-16" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    return deliveryOptions(ctx.db, order);
  },
});
