// The money sections of /admin/settings: currency, VAT and what a checkout needs (settings.update_commerce), and the
// shipping rates per country and free-shipping promotions of agent checkouts (settings.update_shipping_rates), the
// latter as two small tables of inputs with a few empty rows to add to.
import type { z } from "zod";
import getCommerce from "../../../tools/settings/get_commerce.ts";
import updateCommerce from "../../../tools/settings/update_commerce.ts";
import updateShippingRates from "../../../tools/settings/update_shipping_rates.ts";
import { field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import { checkbox, formOpen, krInput, select, submit } from "../components.ts";
import { kroner } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

/** Empty rows under the stored ones: room for new rates and promotions without a script. */
const SPARE_RATES = 3;
const SPARE_PROMOTIONS = 2;

type Commerce = z.output<typeof getCommerce.output>;
type Rate = Commerce["shippingRates"][number];
type Promotion = Commerce["promotions"][number];

/** Which AI agents may buy (settings' agentAccess, the shop's one switch for agent checkouts), as the owner reads it. */
const AGENT_ACCESS: Array<[Commerce["agentAccess"], string]> = [
  ["open", "Til: alle agenter (identificeret ved deres profil)"],
  ["signed", "Til: agenter uden API-nøgle skal signere deres kald"],
  ["key", "Til: kun agenter med en API-nøgle"],
  ["off", "Fra: ingen AI-agent kan købe"],
];

/** What a row of each table is called in its inputs' labels ("Fragtpris 2: Land"). */
const ROW_NAMES: Record<string, string> = { rate: "Fragtpris", promo: "Fri fragt" };

/** An input in a table cell, named `<prefix>.<row>.<column>` and labelled for screen readers by its row and column. */
function cell(prefix: string, index: number, column: string, label: string, value: string, extra: Html = html``): Html {
  return html`<td><input name="${prefix}.${index}.${column}" value="${value}" aria-label="${ROW_NAMES[prefix]} ${index + 1}: ${label}"${extra}></td>`;
}

function rateRow(rate: Rate | undefined, index: number): Html {
  return html`<tr>
${cell("rate", index, "id", "Id", rate?.id ?? "", html` maxlength="100"`)}
${cell("rate", index, "country", "Land", rate?.country ?? "", html` maxlength="7"`)}
${cell("rate", index, "serviceLevel", "Niveau", rate?.serviceLevel ?? "", html` maxlength="50"`)}
${cell("rate", index, "title", "Navn", rate?.title ?? "", html` maxlength="200"`)}
${cell("rate", index, "amount", "Pris", rate ? krInput(rate.amount) : "", html` inputmode="decimal"`)}
</tr>`;
}

function promotionRow(promotion: Promotion | undefined, index: number): Html {
  return html`<tr>
${cell("promo", index, "id", "Id", promotion?.id ?? "", html` maxlength="100"`)}
${cell("promo", index, "minSubtotal", "Fra beløb", promotion?.minSubtotal === null || promotion === undefined ? "" : krInput(promotion.minSubtotal), html` inputmode="decimal"`)}
${cell("promo", index, "productIds", "Produkter", promotion?.productIds?.join(", ") ?? "")}
${cell("promo", index, "description", "Beskrivelse", promotion?.description ?? "", html` maxlength="500"`)}
</tr>`;
}

function editTable(caption: string, head: string[], rows: Html[]): Html {
  return html`<div class="table-wrap"><table class="edit-table">
<caption class="visually-hidden">${caption}</caption>
<thead><tr>${head.map((label) => html`<th>${label}</th>`)}</tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}

/** The two money sections of the settings page: currency and VAT (a column), rates and promotions (full width). */
export async function commerceSections(web: AdminRequest): Promise<{ commerce: Html; rates: Html }> {
  const commerce = await web.call(getCommerce, {});
  const rates = [...commerce.shippingRates, ...Array<undefined>(SPARE_RATES).fill(undefined)];
  const promotions = [...commerce.promotions, ...Array<undefined>(SPARE_PROMOTIONS).fill(undefined)];
  return {
    commerce: html`<section class="card" id="commerce"><h2>Valuta og moms</h2>
${formOpen(web, "/admin/settings/commerce")}
${input({ name: "currency", label: "Valuta", value: commerce.currency, required: true, pattern: "[A-Z]{3}", maxlength: 3, hint: "ISO 4217-kode, fx DKK, EUR eller USD. Kan ikke ændres, når butikken har ordrer." })}
${checkbox({ name: "pricesIncludeVat", label: "Priserne er inkl. 25 % moms", checked: commerce.pricesIncludeVat, hint: "Uden moms viser butikken, kurven og mails ingen momslinje." })}
${select({ name: "checkoutNeeds", label: "Kassen for AI-agenter kræver", value: commerce.checkoutNeeds, choices: [["full_address", "E-mail og fuld adresse"], ["country", "Kun land og leveringsmåde"]] })}
${select({ name: "agentAccess", label: "Køb via AI-agenter", value: commerce.agentAccess, choices: AGENT_ACCESS, hint: "Gælder UCP og ACP (også over MCP). Fra: agenter kan stadig se varerne, men ikke købe." })}
${submit(web, updateCommerce, "Gem valuta og moms")}
</form></section>`,
    rates: html`<section class="card" id="rates"><h2>Fragtpriser pr. land</h2>
<p class="hint">Til køb via AI-agenter: pr. niveau gælder landets egen pris, ellers prisen for «default». Uden priser gælder fragten ovenfor. Priser i ${commerce.currency}; en tom række slettes.</p>
${formOpen(web, "/admin/settings/rates")}
${editTable("Fragtpriser", ["Id", "Land", "Niveau", "Navn", "Pris"], rates.map(rateRow))}
<h3>Fri fragt</h3>
<p class="hint">Gør niveauet «standard» gratis fra et beløb eller for bestemte produkter (produkt-id'er adskilt med komma).</p>
${editTable("Fri fragt", ["Id", "Fra beløb", "Produkter", "Beskrivelse"], promotions.map(promotionRow))}
${submit(web, updateShippingRates, "Gem fragtpriser")}
</form></section>`,
  };
}

export async function saveCommerce(web: AdminRequest): Promise<string> {
  await web.call(updateCommerce, {
    currency: web.field("currency").trim().toUpperCase(),
    pricesIncludeVat: web.field("pricesIncludeVat") === "on",
    checkoutNeeds: web.field("checkoutNeeds") === "country" ? "country" : "full_address",
    agentAccess: AGENT_ACCESS.find(([value]) => value === web.field("agentAccess"))?.[0] ?? "open",
  });
  return "Valuta og moms er gemt.";
}

/** Rows a table posts at most: what the tool takes, and the empty rows under them. */
const MAX_ROWS = 250;

/** The filled rows of one table (`<prefix>.<n>.<column>`), in order; a row whose every cell is empty is left out. */
function filledRows(web: AdminRequest, prefix: string, columns: string[]): Array<Record<string, string>> {
  const rows: Array<Record<string, string>> = [];
  for (let index = 0; index < MAX_ROWS; index++) {
    const row = Object.fromEntries(columns.map((column) => [column, web.field(`${prefix}.${index}.${column}`).trim()]));
    if (Object.values(row).some(Boolean)) rows.push(row);
  }
  return rows;
}

export async function saveShippingRates(web: AdminRequest): Promise<string> {
  const shippingRates = filledRows(web, "rate", ["id", "country", "serviceLevel", "title", "amount"]).map((row, index) => ({
    id: row.id!,
    country: row.country === "default" ? "default" : row.country!.toUpperCase(),
    serviceLevel: row.serviceLevel!,
    title: row.title!,
    amount: kroner(row.amount!, `shippingRates.${index}.amount`) ?? 0,
  }));
  const promotions = filledRows(web, "promo", ["id", "minSubtotal", "productIds", "description"]).map((row, index) => {
    const productIds = row.productIds!.split(",").map((id) => id.trim()).filter(Boolean);
    return {
      id: row.id!,
      type: "free_shipping" as const,
      minSubtotal: kroner(row.minSubtotal!, `promotions.${index}.minSubtotal`) ?? null,
      productIds: productIds.length ? productIds : null,
      description: row.description!,
    };
  });
  await web.call(updateShippingRates, { shippingRates, promotions });
  return "Fragtpriserne er gemt.";
}
