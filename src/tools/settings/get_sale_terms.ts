// settings.get_sale_terms: the bank account shoppers transfer to (BIC included) and per-method free-shipping thresholds.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { getSaleTerms, saleTerms } from "./sale-terms.ts";

export default defineTool({
  name: "settings.get_sale_terms",
  description: "The bank account for transfers (with BIC), per-method free-shipping thresholds, the return period. Returns {bankAccount, freeShippingFrom, returnDays}.",
  input: z.strictObject({}),
  output: saleTerms,
  scope: "settings:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    return getSaleTerms(ctx.db);
  },
});
