// settings.update_sale_terms: set the bank account for transfers whole, BIC included (settings.update_contact cannot
// carry the BIC without changing its result shape).
import { defineTool, UPDATE } from "../tool.ts";
import { getSaleTerms, saleTerms, setTransferAccount } from "./sale-terms.ts";

export default defineTool({
  name: "settings.update_sale_terms",
  description: "Set the bank account shoppers transfer to, whole with its BIC; null removes it. Returns {bankAccount}.",
  input: saleTerms,
  output: saleTerms,
  scope: "settings:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ bankAccount: { bankName: "Danske Bank", regNo: "0040", accountNo: "0440116243", iban: "DK5000400440116243", bic: "DABADKKK" } }],
  async handler(input, ctx) {
    await setTransferAccount(ctx, input.bankAccount);
    return getSaleTerms(ctx.db);
  },
});
