// settings.update_sale_terms: the bank account for transfers, whole with its BIC (settings.update_contact cannot carry
// the BIC without changing its result shape), and free-shipping thresholds of single delivery methods.
import { Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { getSection } from "./settings-document.ts";
import { sectionPatch } from "./schemas.ts";
import { getSaleTerms, saleTerms, setFreeShippingFrom, setReturnDays, setTransferAccount } from "./sale-terms.ts";

export default defineTool({
  name: "settings.update_sale_terms",
  description:
    "Set the bank account shoppers transfer to (whole, with BIC; null removes it), per-method free-shipping " +
    "thresholds (merged) and/or the return period. Returns {bankAccount, freeShippingFrom, returnDays}.",
  errors: [{ status: 422, code: "unknown_delivery_method", when: "a freeShippingFrom key that is no delivery method" }],
  input: sectionPatch(saleTerms),
  output: saleTerms,
  scope: "settings:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ bankAccount: { bankName: "Danske Bank", regNo: "0040", accountNo: "0440116243", iban: "DK5000400440116243", bic: "DABADKKK" } }, { freeShippingFrom: { "postnord-pakkeshop": 29900 } }, { returnDays: 14 }],
  async handler(input, ctx) {
    if (input.bankAccount !== undefined) await setTransferAccount(ctx, input.bankAccount);
    if (input.returnDays !== undefined) await setReturnDays(ctx, input.returnDays);
    if (input.freeShippingFrom) {
      const { methods } = await getSection(ctx.db, "shipping");
      const unknown = Object.keys(input.freeShippingFrom).filter((id) => !methods.some((method) => method.id === id));
      if (unknown.length) throw new Refused("unknown_delivery_method", `No delivery method ${unknown.join(", ")}; settings.get lists them under shipping.methods.`);
      await setFreeShippingFrom(ctx, input.freeShippingFrom);
    }
    return getSaleTerms(ctx.db);
  },
});
