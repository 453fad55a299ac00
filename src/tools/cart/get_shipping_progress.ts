// cart.get_shipping_progress: what the session cart's shipping costs and how much more buys free shipping.
import { z } from "zod";
import { priceLines } from "../orders/pricing.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { CartStore } from "./cart-store.ts";

export default defineTool({
  name: "cart.get_shipping_progress",
  description: "How far the shopper's cart is from free shipping. Returns {shippingDkk, freeShippingThresholdDkk, leftForFreeShippingDkk}.",
  input: z.strictObject({}),
  output: z.strictObject({
    shippingDkk: oere("Shipping the cart costs now (0 for an empty cart or above the threshold)"),
    freeShippingThresholdDkk: oere("Goods total after discount from which shipping is free"),
    leftForFreeShippingDkk: oere("How much more to buy for free shipping; 0 when shipping is free already or the cart is empty"),
  }),
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    const { state } = await CartStore.open(ctx, false);
    const pricing = await priceLines(ctx.db, state.lines, state.discountCode, ctx.now());
    return { shippingDkk: pricing.shippingDkk, freeShippingThresholdDkk: pricing.freeShippingThresholdDkk, leftForFreeShippingDkk: pricing.freeShippingLeftDkk };
  },
});
