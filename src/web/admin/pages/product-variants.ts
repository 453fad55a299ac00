// The variant editor of the admin product page: a table of the variants, a form per variant (options as name/value
// pairs, price override in kroner, stock), one to add a variant, and delete; plain forms, no script needed.
import { Invalid } from "../../../core/errors.ts";
import deleteVariant from "../../../tools/products/delete_variant.ts";
import listVariants from "../../../tools/products/list_variants.ts";
import upsertVariant from "../../../tools/products/upsert_variant.ts";
import { field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import { actionButton, formOpen, money, submit, table, unit } from "../components.ts";
import type { AdminRequest } from "../site.ts";

/** The most option pairs one variant form offers (existing ones plus empty rows up to this). */
const MAX_OPTIONS = 6;
const EMPTY_ROWS = 2;

interface Variant {
  sku: string;
  attributes: Record<string, string>;
  priceDkk: number | null;
  stock: number;
}

/** The option pairs of a posted variant form (opt<i>name / opt<i>value) as the tool's attribute map. */
export function optionsFromForm(read: (name: string) => string): Record<string, string> {
  const options: Record<string, string> = {};
  for (let index = 0; index < MAX_OPTIONS; index++) {
    const name = read(`opt${index}name`).trim();
    const value = read(`opt${index}value`).trim();
    if (!name && !value) continue;
    if (!name || !value) throw new Invalid("Udfyld både egenskab og værdi, eller lad begge stå tomme.", [{ path: "egenskaber", message: `Række ${index + 1} mangler ${name ? "en værdi" : "et navn"}` }]);
    if (Object.hasOwn(options, name)) throw new Invalid(`Egenskaben "${name}" står der to gange.`, [{ path: "egenskaber", message: "Hver egenskab kun én gang" }]);
    options[name] = value;
  }
  return options;
}

function priceText(oere: number | null): string {
  return oere === null ? "" : (oere / 100).toFixed(2).replace(".", ",");
}

function variantForm(web: AdminRequest, slug: string, variant: Variant | undefined, prefix: string, currency: string): Html {
  const pairs = Object.entries(variant?.attributes ?? {});
  const rows = Math.min(MAX_OPTIONS, Math.max(pairs.length + EMPTY_ROWS, EMPTY_ROWS));
  const optionRows = Array.from({ length: rows }, (_, index) => {
    const [name, value] = pairs[index] ?? ["", ""];
    return html`<div class="form-pair option-pair">
${input({ name: `opt${index}name`, id: `${prefix}-opt${index}-name`, label: "Egenskab", value: name, maxlength: 100, placeholder: index === 0 ? "Størrelse" : "Farve" })}
${input({ name: `opt${index}value`, id: `${prefix}-opt${index}-value`, label: "Værdi", value: value, maxlength: 100, placeholder: index === 0 ? "M" : "Sort" })}
</div>`;
  });
  return html`${formOpen(web, `/admin/products/${slug}/variants`, html` class="variant-form"`)}
${variant
  ? html`<input type="hidden" name="sku" value="${variant.sku}"><input type="hidden" name="mode" value="edit">`
  : html`${input({ name: "sku", id: `${prefix}-sku`, label: "SKU", required: true, maxlength: 100, hint: "Varenummeret, unikt for produktet." })}<input type="hidden" name="mode" value="new">`}
<fieldset><legend>Egenskaber</legend>${optionRows}</fieldset>
<div class="form-pair">
${input({ name: "price", id: `${prefix}-price`, label: `Egen pris i ${unit(currency)}`, value: priceText(variant?.priceDkk ?? null), inputmode: "decimal", hint: "Tom: produktets pris." })}
${input({ name: "stock", id: `${prefix}-stock`, label: "Lager", type: "number", min: 0, value: String(variant?.stock ?? 0), required: true })}
</div>
${submit(web, upsertVariant, variant ? "Gem variant" : "Tilføj variant", "secondary")}
</form>`;
}

/** The variants card, and the variants' stock in all (null without variants: then the product's own stock is sold). */
export async function variantsSection(web: AdminRequest, slug: string, draft: { drafts?: true } = {}): Promise<{ html: Html; stock: number | null }> {
  const [variants, currency] = await Promise.all([web.call(listVariants, { slug, ...draft }), web.currency()]);
  const rows = variants.map((variant) => [
    html`<code>${variant.sku}</code>`,
    Object.entries(variant.attributes).map(([name, value]) => html`<span class="tag">${name}: ${value}</span> `),
    variant.priceDkk === null ? html`<span class="hint">Produktets pris</span>` : money(variant.priceDkk, currency),
    variant.stock,
    actionButton(web, deleteVariant, { action: `/admin/products/${slug}/variants/delete`, label: "Slet", fields: { sku: variant.sku }, look: "secondary", small: true, confirm: `Slet varianten ${variant.sku}?` }),
  ]);
  const editors = variants.map((variant, index) => html`<details class="variant-editor"><summary>Ret <code>${variant.sku}</code></summary>
${variantForm(web, slug, variant, `v${index}`, currency)}</details>`);
  const stock = variants.length ? variants.reduce((sum, variant) => sum + variant.stock, 0) : null;
  return { stock, html: html`<section class="card" id="variants"><h2>Varianter</h2>
${rows.length ? table("Varianter", ["SKU", "Egenskaber", "Pris", "Lager", ""], rows, [2, 3]) : html`<p class="hint">Ingen varianter: produktet sælges, som det er.</p>`}
${editors}
<details class="variant-editor"${rows.length ? "" : " open"}><summary>Tilføj en variant</summary>
${variantForm(web, slug, undefined, "vnew", currency)}</details>
</section>` };
}
