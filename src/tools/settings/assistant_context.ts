// settings.assistant_context (internal): the commerce facts the assistants' instructions state (currency, VAT in prices,
// what checkout asks, agent access), read by the assistants through the executor rather than from the database;
// settings.get_commerce is the staff view, with shipping rates and promotions on top.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { agentAccess, checkoutNeeds, currencyCode, getCommerce } from "./commerce.ts";

export default defineTool({
  name: "settings.assistant_context",
  description: "The commerce facts an assistant's instructions state. Returns {currency, pricesIncludeVat, checkoutNeeds, agentAccess}.",
  input: z.strictObject({}),
  output: z.strictObject({ currency: currencyCode, pricesIncludeVat: z.boolean(), checkoutNeeds, agentAccess }),
  scope: "settings:read",
  anonymous: false,
  audited: false,
  internal: true,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    return getCommerce(ctx.db);
  },
});
