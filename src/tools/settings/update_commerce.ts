// settings.update_commerce: the shop's currency, whether prices include VAT, what a checkout session needs, and which
// agents may buy through the agent doors (agentAccess, "off" for none).
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { agentAccess, checkoutNeeds, commerceSettings, currencyCode, getCommerce, storeRow } from "./commerce.ts";

export default defineTool({
  name: "settings.update_commerce",
  description:
    "Change the shop's currency, VAT inclusion, checkout requirements or agent access; omitted fields stay. Returns " +
    "{currency, pricesIncludeVat, checkoutNeeds, agentAccess}.",
  errors: [{ status: 422, code: "currency_locked", when: "once an order exists (prices are plain minor units)" }],
  input: z
    .strictObject({
      currency: currencyCode.optional(),
      pricesIncludeVat: z.boolean().optional().describe("Catalogue prices include 25 % VAT (Danish shops: true)."),
      checkoutNeeds: checkoutNeeds.optional(),
      agentAccess: agentAccess.optional(),
    })
    .refine((patch) => Object.keys(patch).length > 0, { message: "Give at least one field to change" }),
  output: commerceSettings.pick({ currency: true, pricesIncludeVat: true, checkoutNeeds: true, agentAccess: true }),
  scope: "settings:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ checkoutNeeds: "full_address" }, { currency: "DKK", pricesIncludeVat: true }, { agentAccess: "open" }],
  async handler(patch, ctx) {
    const current = await getCommerce(ctx.db);
    if (patch.currency !== undefined && patch.currency !== current.currency && (await ctx.db.order.count()) > 0) {
      throw new Refused("currency_locked", `The shop has orders in ${current.currency}; its currency cannot change (prices are stored as plain minor units).`);
    }
    const row = await ctx.db.setting.findUnique({ where: { section: "commerce" } });
    const stored = row?.value && typeof row.value === "object" && !Array.isArray(row.value) ? row.value : {};
    await storeRow(ctx, "commerce", { ...stored, ...patch });
    return getCommerce(ctx.db);
  },
});
