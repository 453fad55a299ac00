// orders.get_delivery: how an order is to reach the shopper (the method chosen at checkout, the parcel shop), for staff packing it.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { deliveryOf, orderDelivery } from "../cart/delivery.ts";
import { defineTool, READ } from "../tool.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.get_delivery",
  description:
    "How an order ships: the delivery method chosen at checkout and its parcel shop (null: none chosen). Returns " +
    "{orderId, delivery, shipping{Country,Region}}.",
  input: z.strictObject({ orderId }),
  output: z.strictObject({
    orderId: z.string(),
    delivery: orderDelivery,
    shippingCountry: z.string().describe("ISO 3166-1 alpha-2."),
    shippingRegion: z.string().nullable().describe("State or province; null where none."),
  }),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-01" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    return { orderId: order.id, delivery: deliveryOf(order), shippingCountry: order.shippingCountry, shippingRegion: order.shippingRegion };
  },
});
