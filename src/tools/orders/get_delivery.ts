// orders.get_delivery: how an order is delivered: the method chosen at checkout, its price and the parcel shop.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { pickupPointOutput, type PickupPoint } from "../cart/delivery.ts";
import { oere } from "../products/schemas.ts";
import { defineTool, READ } from "../tool.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.get_delivery",
  description:
    "The delivery method chosen at checkout (null for orders placed without one) and the parcel shop of a pickup method. " +
    "404 unknown id. Returns {method, name, carrier, priceDkk, pickupPoint}.",
  input: z.strictObject({ orderId }),
  output: z.strictObject({
    method: z.string().nullable().describe("Method id, or null."),
    name: z.string().nullable().describe("Method name as the shopper saw it, or null."),
    carrier: z.string().nullable(),
    priceDkk: oere("Shipping paid (the order's shippingDkk)"),
    pickupPoint: pickupPointOutput.nullable().describe("The parcel shop, or null for home delivery."),
  }),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-01" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({
      where: { id: input.orderId },
      select: { deliveryMethodId: true, deliveryMethodName: true, deliveryCarrier: true, shippingDkk: true, pickupPoint: true },
    });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    return {
      method: order.deliveryMethodId,
      name: order.deliveryMethodName,
      carrier: order.deliveryCarrier,
      priceDkk: Number(order.shippingDkk),
      pickupPoint: (order.pickupPoint as PickupPoint | null) ?? null,
    };
  },
});
