// Indstillinger → Vilkår og politikker → Returfrist: the one number of days from delivery that the return tools, the
// order page's return form, the shipped e-mail and returns.policy follow (settings.update_sale_terms returnDays).
import getSaleTerms from "../../../tools/settings/get_sale_terms.ts";
import updateSaleTerms from "../../../tools/settings/update_sale_terms.ts";
import { field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import { formOpen, submit } from "../components.ts";
import { integer } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

export async function returnDaysForm(web: AdminRequest): Promise<Html> {
  const { returnDays } = await web.call(getSaleTerms, {});
  return html`${formOpen(web, "/admin/settings/return-days", html` id="return-days" class="return-days"`)}
${input({ name: "returnDays", label: "Returfrist i dage fra levering", value: String(returnDays), inputmode: "numeric", required: true, hint: "Mindst 14 (fortrydelsesretten). Returreglerne, ordresiden og mailen om afsendelse følger tallet; ret selv teksterne herunder, så de siger det samme." })}
${submit(web, updateSaleTerms, "Gem returfrist")}
</form>`;
}

export async function saveReturnDays(web: AdminRequest): Promise<string> {
  const days = integer(web.field("returnDays"), "returnDays") ?? 0;
  const { returnDays } = await web.call(updateSaleTerms, { returnDays: days });
  return `Returfristen er nu ${returnDays} dage fra levering. Husk at rette teksterne om returret, så de siger det samme.`;
}
