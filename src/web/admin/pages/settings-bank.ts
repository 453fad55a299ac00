// Indstillinger → Kontakt → Bankkonto: the account shoppers transfer to (settings.update_sale_terms), shown on the
// payment page and in the payment e-mail. Spaces are dropped and IBAN and BIC read in capitals, as banks print them
// ("DK50 0040 0440 1162 43"); all fields empty removes the account.
import getSaleTerms from "../../../tools/settings/get_sale_terms.ts";
import updateSaleTerms from "../../../tools/settings/update_sale_terms.ts";
import { field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import { formOpen, submit } from "../components.ts";
import type { AdminRequest } from "../site.ts";

export async function bankForm(web: AdminRequest): Promise<Html> {
  const { bankAccount: bank } = await web.call(getSaleTerms, {});
  return html`<h3 id="bank">Bankkonto til bankoverførsel</h3>
<p class="hint">Kunder, der betaler med bankoverførsel, får kontoen på betalingssiden og i betalingsmailen.${bank ? "" : " Uden konto bedes de kontakte jer."}</p>
${formOpen(web, "/admin/settings/bank")}
${input({ name: "bankName", label: "Bank", value: bank?.bankName ?? "", maxlength: 100 })}
<div class="form-pair">
${input({ name: "regNo", label: "Reg.nr.", value: bank?.regNo ?? "", inputmode: "numeric", placeholder: "1234", hint: "4 cifre." })}
${input({ name: "accountNo", label: "Kontonr.", value: bank?.accountNo ?? "", inputmode: "numeric", hint: "4-10 cifre." })}
</div>
${input({ name: "iban", label: "IBAN", value: bank?.iban ?? "", placeholder: "DK50 0040 0440 1162 43", hint: "Til overførsler fra udlandet." })}
${input({ name: "bic", label: "BIC (SWIFT)", value: bank?.bic ?? "", placeholder: "DABADKKK", maxlength: 11 })}
${submit(web, updateSaleTerms, "Gem bankkonto")}
</form>`;
}

export async function saveBank(web: AdminRequest): Promise<string> {
  const read = (name: string) => web.field(name).replace(/\s+/g, "");
  const fields = { bankName: web.field("bankName").trim(), regNo: read("regNo"), accountNo: read("accountNo"), iban: read("iban").toUpperCase() };
  const bic = read("bic").toUpperCase() || null;
  if (!Object.values(fields).some(Boolean) && !bic) {
    await web.call(updateSaleTerms, { bankAccount: null });
    return "Bankkontoen er fjernet. Kunder bedes nu kontakte jer for at betale.";
  }
  await web.call(updateSaleTerms, { bankAccount: { ...fields, bic } });
  return "Bankkontoen er gemt.";
}
