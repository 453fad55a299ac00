// settings.update_shipping_rates: replaces the shop's shipping rates and free-shipping promotions as a whole.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { getPromotions, getShippingRates, promotion, shippingRate, storeRow } from "./commerce.ts";

const unique = <T>(key: (item: T) => string, message: string) => (items: T[], check: z.RefinementCtx) => {
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (seen.has(key(item))) check.addIssue({ code: "custom", message, path: [index] });
    seen.add(key(item));
  }
};

const country = z.string().regex(/^([A-Z]{2}|default)$/, "Use an ISO 3166-1 alpha-2 code in capitals, or \"default\"");
const rate = shippingRate.extend({ country: country.describe(shippingRate.shape.country.description ?? "") }).strict();
const promo = promotion
  .strict()
  .refine((p) => p.minSubtotal !== null || (p.productIds?.length ?? 0) > 0, { message: "Give minSubtotal or productIds" });

export default defineTool({
  name: "settings.update_shipping_rates",
  description:
    "Replace the shipping rates (per country and service level, minor units) and free-shipping promotions, each list " +
    "whole; no rates: the flat shipping applies. Returns {shippingRates, promotions}.",
  errors: [{ status: 422, code: "unknown_product" }],
  input: z.strictObject({
    shippingRates: z
      .array(rate)
      .max(200)
      .superRefine(unique((r) => r.id, "Rate ids must be unique"))
      .superRefine(unique((r) => `${r.country} ${r.serviceLevel}`, "One rate per country and service level"))
      .describe("Agent checkouts offer, per service level, the country's rate, else the default."),
    promotions: z.array(promo).max(50).superRefine(unique((p) => p.id, "Promotion ids must be unique")).describe("Each makes the standard level free."),
  }),
  output: z.strictObject({ shippingRates: z.array(shippingRate), promotions: z.array(promotion) }),
  scope: "settings:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [
    {
      shippingRates: [
        { id: "dk-standard", country: "DK", serviceLevel: "standard", title: "PostNord", amount: 4900 },
        { id: "world-standard", country: "default", serviceLevel: "standard", title: "International", amount: 14900 },
      ],
      promotions: [{ id: "free-499", type: "free_shipping", minSubtotal: 49900, productIds: null, description: "Fri fragt over 499 kr." }],
    },
    { shippingRates: [], promotions: [] },
  ],
  async handler(input, ctx) {
    const named = [...new Set(input.promotions.flatMap((p) => p.productIds ?? []))];
    const found = await ctx.db.product.findMany({ where: { id: { in: named }, deletedAt: null }, select: { id: true } });
    const unknown = named.filter((id) => !found.some((product) => product.id === id));
    if (unknown.length) throw new Refused("unknown_product", `No product with id ${unknown.map((id) => `"${id}"`).join(", ")}.`);
    await storeRow(ctx, "shipping_rates", input.shippingRates);
    await storeRow(ctx, "promotions", input.promotions);
    return { shippingRates: await getShippingRates(ctx.db), promotions: await getPromotions(ctx.db) };
  },
});
