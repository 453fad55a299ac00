// settings.get_commerce: the shop's currency, VAT, checkout requirements, shipping rates and promotions.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { commerceSettings, getCommerceSettings } from "./commerce.ts";

export default defineTool({
  name: "settings.get_commerce",
  description:
    "The shop's money settings. Returns {currency, pricesIncludeVat, checkoutNeeds, agentAccess, shippingRates, promotions}; amounts in minor units " +
    "of the currency; no rates: the flat shipping of settings.get applies.",
  input: z.strictObject({}),
  output: commerceSettings,
  scope: "settings:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    return getCommerceSettings(ctx.db);
  },
});
