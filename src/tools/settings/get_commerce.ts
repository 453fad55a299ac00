// settings.get_commerce: the shop's currency, VAT, checkout requirements, shipping rates and promotions.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { commerceSettings, getCommerceSettings } from "./commerce.ts";

export default defineTool({
  name: "settings.get_commerce",
  description:
    "The shop's money settings, amounts in the currency's minor units. Returns {currency, pricesIncludeVat, " +
    "checkoutNeeds, agentAccess, shippingRates (none: settings.get's flat shipping), promotions}.",
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
