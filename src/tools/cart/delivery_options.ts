// cart.delivery_options: the delivery methods a shopper can choose at checkout, priced for the session cart.
import { z } from "zod";
import { priceLines } from "../orders/pricing.ts";
import { oere } from "../shared/amounts.ts";
import { getSection } from "../settings/settings-document.ts";
import { defineTool, READ } from "../tool.ts";
import { getFreeShippingFrom } from "../settings/sale-terms.ts";
import { freeFrom, listPrice, pickupPointOutput, pickupPointsOf, type DeliveryMethod } from "./delivery.ts";
import { CartStore } from "./cart-store.ts";

export default defineTool({
  name: "cart.delivery_options",
  description:
    "Delivery methods for cart.checkout (first = default) priced for the cart; pickup ones list the parcel shops " +
    "nearest the zip. Returns [{id, carrier, kind, name, priceDkk, minDays, maxDays, pickupPoints}].",
  input: z.strictObject({
    zip: z.string().regex(/^\d{4}$/, "Danish postal codes are 4 digits").optional().describe("Default: the cart's address."),
  }),
  output: z.array(
    z.strictObject({
      id: z.string().describe("deliveryMethodId for cart.checkout."),
      carrier: z.string(),
      kind: z.enum(["home", "pickup"]),
      name: z.string().describe("Danish name for shoppers."),
      priceDkk: oere("What it costs this cart, incl. VAT"),
      minDays: z.number().int(),
      maxDays: z.number().int().describe("Business days to delivery."),
      pickupPoints: z.array(pickupPointOutput).describe("Parcel shops (pickupPointId), nearest first; [] for home delivery."),
    }),
  ),
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { zip: "8000" }],
  async handler(input, ctx) {
    const { state } = await CartStore.open(ctx, false);
    const [shipping, pricing, own] = await Promise.all([getSection(ctx.db, "shipping"), priceLines(ctx.db, state.lines, state.discountCode, ctx.now()), getFreeShippingFrom(ctx.db)]);
    const free = (method: DeliveryMethod) => pricing.lines.length > 0 && pricing.subtotalDkk - pricing.discountDkk >= freeFrom(shipping, method, own);
    const zip = input.zip ?? state.shipping?.zip ?? null;
    return shipping.methods.map((method) => ({
      id: method.id,
      carrier: method.carrier,
      kind: method.kind,
      name: method.name,
      priceDkk: free(method) ? 0 : listPrice(shipping, method),
      minDays: method.minDays,
      maxDays: method.maxDays,
      pickupPoints: method.kind === "pickup" ? pickupPointsOf(shipping, method.carrier, zip) : [],
    }));
  },
});
