// The product page's "Produktsikkerhed" card (GPSR art. 19): maker, EU responsible person and warnings in Danish,
// read with products.get_safety and saved with products.set_safety.
import { Invalid, NotFound } from "../../../core/errors.ts";
import getProduct from "../../../tools/products/get.ts";
import getSafety from "../../../tools/products/get_safety.ts";
import setSafety from "../../../tools/products/set_safety.ts";
import { field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import { formOpen, submit, textarea } from "../components.ts";
import type { AdminRequest } from "../site.ts";

type Party = { name: string; address: string; contact: string };
const EMPTY: Party = { name: "", address: "", contact: "" };

function partyFields(prefix: string, who: Party, required: boolean): Html {
  return html`${input({ name: `${prefix}Name`, label: "Navn", value: who.name, required, maxlength: 200 })}
${input({ name: `${prefix}Address`, label: "Postadresse", value: who.address, required, maxlength: 500 })}
${input({ name: `${prefix}Contact`, label: "E-mail eller webadresse", value: who.contact, required, maxlength: 254 })}`;
}

export async function safetySection(web: AdminRequest, slug: string, productId: string, draft: boolean): Promise<Html> {
  const safety = await web.call(getSafety, { productId, ...(draft ? { drafts: true } : {}) }).catch((error: unknown) => {
    if (error instanceof NotFound) return null;
    throw error;
  });
  return html`<section class="card" id="safety"><h2>Produktsikkerhed</h2>
<p class="hint">EU's produktsikkerhedsforordning (GPSR): hvem har fremstillet produktet, og hvem er ansvarlig i EU, hvis producenten er uden for EU. Vises på produktsiden under "Produktsikkerhed".</p>
${formOpen(web, `/admin/products/${slug}/safety`)}
<fieldset><legend>Producent</legend>${partyFields("maker", safety?.manufacturer ?? EMPTY, true)}</fieldset>
<fieldset><legend>Ansvarlig person i EU <span class="optional">(valgfri)</span></legend>${partyFields("eu", safety?.euResponsible ?? EMPTY, false)}</fieldset>
${textarea({ name: "warnings", label: "Advarsler (på dansk)", value: safety?.warnings ?? "", rows: 3, maxlength: 2000 })}
${submit(web, setSafety, "Gem produktsikkerhed", "secondary")}
</form></section>`;
}

/** POST /admin/products/<slug>/safety: the card's fields to products.set_safety (the EU person only when filled in). */
export async function saveSafety(web: AdminRequest, slug: string, drafts: { drafts?: true }): Promise<string> {
  const product = await web.call(getProduct, { slug, ...drafts });
  const party = (prefix: string): Party => ({ name: web.field(`${prefix}Name`).trim(), address: web.field(`${prefix}Address`).trim(), contact: web.field(`${prefix}Contact`).trim() });
  const eu = party("eu");
  const euGiven = Object.values(eu).some(Boolean);
  if (euGiven && !Object.values(eu).every(Boolean)) {
    throw new Invalid("Udfyld navn, adresse og kontakt for den ansvarlige person i EU, eller lad alle tre stå tomme.", [{ path: "euResponsible", message: "Mangler" }]);
  }
  await web.call(setSafety, { productId: product.id, manufacturer: party("maker"), ...(euGiven && { euResponsible: eu }), warnings: web.field("warnings").trim() });
  return "Produktsikkerheden er gemt.";
}
