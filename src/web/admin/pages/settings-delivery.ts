// Indstillinger → Leveringsmåder: a form per delivery method (name, carrier, home or parcel shop, price, free from,
// delivery estimate) and one for a new method, on top of settings.update_shipping (the methods list, saved whole) and
// settings.update_sale_terms (a method's own free-shipping threshold); the parcel shops as one line each.
import { Invalid } from "../../../core/errors.ts";
import settingsGet from "../../../tools/settings/get.ts";
import getSaleTerms from "../../../tools/settings/get_sale_terms.ts";
import updateSaleTerms from "../../../tools/settings/update_sale_terms.ts";
import updateShipping from "../../../tools/settings/update_shipping.ts";
import type { Settings } from "../../../tools/settings/schemas.ts";
import { field as input } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
import { actionButton, formOpen, krInput, select, submit, textarea, unit } from "../components.ts";
import { integer, kroner } from "../forms.ts";
import { slugFromName } from "../slug.ts";
import type { AdminRequest } from "../site.ts";

type Shipping = Settings["shipping"];
type Method = Shipping["methods"][number];
type Point = Shipping["pickupPoints"][number];

const KINDS: Array<[Method["kind"], string]> = [["home", "Hjemmelevering"], ["pickup", "Pakkeshop"]];

function bad(path: string, message: string): Invalid {
  return new Invalid(`${path}: ${message}`, [{ path, message }]);
}

function methodForm(web: AdminRequest, method: Method | undefined, index: number, own: Record<string, number | null>, shipping: Shipping, currency: string): Html {
  const id = (name: string) => `m${index}-${name}`;
  const ownFree = method ? own[method.id] ?? undefined : undefined;
  return html`<div class="card delivery-method" id="method-${method?.id ?? "new"}">
<h3>${method ? html`${method.name}${index === 0 ? html` <span class="tag">Standard</span>` : ""}` : "Ny leveringsmåde"}</h3>
${formOpen(web, "/admin/settings/method")}
<input type="hidden" name="original" value="${method?.id ?? ""}">
${input({ id: id("name"), name: "name", label: "Navn", value: method?.name ?? "", required: true, maxlength: 100, hint: "Det, kunden ser i kassen." })}
<div class="form-pair">
${input({ id: id("carrier"), name: "carrier", label: "Fragtfirma", value: method?.carrier ?? "", required: true, maxlength: 100 })}
${select({ id: id("kind"), name: "kind", label: "Levering", value: method?.kind ?? "home", choices: KINDS })}
</div>
<div class="form-pair">
${input({ id: id("price"), name: "price", label: `Pris i ${unit(currency)}`, value: method?.priceDkk === undefined ? "" : krInput(method.priceDkk), inputmode: "decimal", hint: `Tom: fragten under Fragt (${formatMoney(shipping.flatRateDkk, currency)}).` })}
${input({ id: id("freeFrom"), name: "freeFrom", label: `Fri fragt fra ${unit(currency)}`, value: ownFree === undefined ? "" : krInput(ownFree), inputmode: "decimal", hint: `Tom: butikkens grænse (${formatMoney(shipping.freeShippingThresholdDkk, currency)}).` })}
</div>
<div class="form-pair">
${input({ id: id("minDays"), name: "minDays", label: "Levering tidligst (hverdage)", value: method ? String(method.minDays) : "1", inputmode: "numeric", required: true })}
${input({ id: id("maxDays"), name: "maxDays", label: "Levering senest (hverdage)", value: method ? String(method.maxDays) : "3", inputmode: "numeric", required: true })}
</div>
${submit(web, updateShipping, method ? "Gem leveringsmåde" : "Tilføj leveringsmåde")}
</form>
${method ? html`<div class="delivery-actions">
${index > 0 ? actionButton(web, updateShipping, { action: "/admin/settings/method-first", label: "Gør til standard", fields: { id: method.id }, look: "secondary", small: true }) : ""}
${actionButton(web, updateShipping, { action: "/admin/settings/method-delete", label: "Slet", fields: { id: method.id }, look: "danger", small: true, confirm: `Slet ${method.name}?` })}
</div>` : ""}
</div>`;
}

/** "PostNord | Netto Nansensgade | Nansensgade 19 | 1366 København K" per parcel shop. */
function pointsText(points: Point[]): string {
  return points.map((point) => `${point.carrier} | ${point.name} | ${point.address} | ${point.zip} ${point.city}`).join("\n");
}

/** Reads the parcel shop lines; a shop keeps its id while carrier, name and postal code stay, so open choices still match. */
export function readPoints(text: string, before: Point[]): Point[] {
  const ids = new Map(before.map((point) => [`${point.carrier}|${point.name}|${point.zip}`, point.id]));
  const used = new Set<string>();
  return text.split(/\r?\n/).filter((line) => line.trim()).map((line, index) => {
    const parts = line.split("|").map((part) => part.trim());
    const place = /^(\d{4})\s+(.+)$/.exec(parts[3] ?? "");
    if (parts.length !== 4 || parts.some((part) => !part)) throw bad("pickupPoints", `Linje ${index + 1} skal have formen "Fragtfirma | Navn | Adresse | Postnr. By"`);
    if (!place) throw bad("pickupPoints", `Linje ${index + 1}: skriv postnummer (4 cifre) og by, fx "8000 Aarhus C"`);
    const [carrier, name, address] = parts as [string, string, string];
    let id = ids.get(`${carrier}|${name}|${place[1]}`) ?? slugFromName(`${carrier}-${name}-${place[1]}`).slice(0, 50).replace(/-+$/, "");
    for (let n = 2; used.has(id); n++) id = `${id.slice(0, 46)}-${n}`;
    used.add(id);
    return { id, carrier, name, address, zip: place[1]!, city: place[2]! };
  });
}

export async function deliverySection(web: AdminRequest): Promise<Html> {
  const [{ shipping }, { freeShippingFrom }, currency] = await Promise.all([web.call(settingsGet, {}), web.call(getSaleTerms, {}), web.currency()]);
  const pickupWithout = shipping.methods.filter((method) => method.kind === "pickup" && !shipping.pickupPoints.some((point) => point.carrier === method.carrier));
  return html`<section class="card" id="methods"><h2>Leveringsmåder</h2>
<p class="hint">Kunden vælger mellem dem i kassen; den første er standard. Leveringstid i hverdage.</p>
<div class="columns columns-2">${[...shipping.methods.map((method, index) => methodForm(web, method, index, freeShippingFrom, shipping, currency)), methodForm(web, undefined, shipping.methods.length, freeShippingFrom, shipping, currency)]}</div>
</section>
<section class="card" id="pickup-points"><h2>Pakkeshops</h2>
${pickupWithout.length ? html`<p class="notice notice-error">${pickupWithout.map((method) => method.name).join(", ")}: ingen pakkeshops hos ${pickupWithout.map((method) => method.carrier).join(", ")}, så kunderne kan ikke vælge den.</p>` : ""}
${formOpen(web, "/admin/settings/pickup-points")}
${textarea({ name: "pickupPoints", label: "Pakkeshops, kunderne kan vælge", value: pointsText(shipping.pickupPoints), rows: 10, mono: true, hint: "Én pr. linje: Fragtfirma | Navn | Adresse | Postnr. By. Fragtfirmaet skal stå som ved leveringsmåden." })}
${submit(web, updateShipping, "Gem pakkeshops")}
</form></section>`;
}

function readMethod(web: AdminRequest, id: string): Method {
  const kind = web.field("kind") === "pickup" ? "pickup" : "home";
  const priceDkk = kroner(web.field("price"), "price");
  const method = {
    id,
    name: web.field("name").trim(),
    carrier: web.field("carrier").trim(),
    kind,
    minDays: integer(web.field("minDays"), "minDays") ?? 0,
    maxDays: integer(web.field("maxDays"), "maxDays") ?? 0,
  } as const;
  return priceDkk === undefined ? method : { ...method, priceDkk };
}

export async function saveMethod(web: AdminRequest): Promise<string> {
  const { shipping } = await web.call(settingsGet, {});
  const original = web.field("original");
  const at = shipping.methods.findIndex((method) => method.id === original);
  if (original && at < 0) throw bad("original", "Leveringsmåden findes ikke længere. Genindlæs siden.");
  let id = original;
  if (!id) {
    const base = slugFromName(`${web.field("carrier")} ${web.field("name")}`).slice(0, 46).replace(/-+$/, "") || "levering";
    id = base.length < 2 ? `${base}-1` : base;
    for (let n = 2; shipping.methods.some((method) => method.id === id); n++) id = `${base}-${n}`;
  }
  const method = readMethod(web, id);
  const freeFrom = kroner(web.field("freeFrom"), "freeFrom");
  const methods = at < 0 ? [...shipping.methods, method] : shipping.methods.map((old, index) => (index === at ? method : old));
  await web.call(updateShipping, { methods });
  await web.call(updateSaleTerms, { freeShippingFrom: { [id]: freeFrom ?? null } });
  return at < 0 ? `${method.name} er tilføjet.` : `${method.name} er gemt.`;
}

export async function deleteMethod(web: AdminRequest): Promise<string> {
  const { shipping } = await web.call(settingsGet, {});
  const gone = shipping.methods.find((method) => method.id === web.field("id"));
  if (!gone) throw bad("id", "Leveringsmåden findes ikke længere.");
  await web.call(updateShipping, { methods: shipping.methods.filter((method) => method !== gone) });
  return `${gone.name} er slettet.`;
}

export async function firstMethod(web: AdminRequest): Promise<string> {
  const { shipping } = await web.call(settingsGet, {});
  const chosen = shipping.methods.find((method) => method.id === web.field("id"));
  if (!chosen) throw bad("id", "Leveringsmåden findes ikke længere.");
  await web.call(updateShipping, { methods: [chosen, ...shipping.methods.filter((method) => method !== chosen)] });
  return `${chosen.name} er nu standard.`;
}

export async function savePoints(web: AdminRequest): Promise<string> {
  const { shipping } = await web.call(settingsGet, {});
  const pickupPoints = readPoints(web.field("pickupPoints"), shipping.pickupPoints);
  await web.call(updateShipping, { pickupPoints });
  return `Pakkeshops er gemt (${pickupPoints.length}).`;
}
