// /admin/settings: branding, shipping (rates and carriers), contact details, currency and VAT, shipping rates per
// country, the policy texts and the feature flags, each saved by its own settings.* tool.
import { Invalid, NotFound } from "../../../core/errors.ts";
import settingsGet from "../../../tools/settings/get.ts";
import listFeatures from "../../../tools/settings/list_features.ts";
import setFeature from "../../../tools/settings/set_feature.ts";
import updateBranding from "../../../tools/settings/update_branding.ts";
import updateContact from "../../../tools/settings/update_contact.ts";
import updatePolicies from "../../../tools/settings/update_policies.ts";
import updateShipping from "../../../tools/settings/update_shipping.ts";
import { field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, formOpen, krInput, pageHead, submit, textarea, unit } from "../components.ts";
import { kroner, when } from "../forms.ts";
import { bankForm, saveBank } from "./settings-bank.ts";
import { returnDaysForm, saveReturnDays } from "./settings-returns.ts";
import { deleteMethod, deliverySection, firstMethod, saveMethod, savePoints } from "./settings-delivery.ts";
import { commerceSections, saveCommerce, saveShippingRates } from "./settings-commerce.ts";
import type { AdminRequest } from "../site.ts";

/** "PostNord: 1-3" per line ↔ carriers with business-day estimates. */
function carriersText(carriers: Array<{ name: string; minDays: number; maxDays: number }>): string {
  return carriers.map((carrier) => `${carrier.name}: ${carrier.minDays}-${carrier.maxDays}`).join("\n");
}

function readCarriers(text: string): Array<{ name: string; minDays: number; maxDays: number }> {
  return text.split(/\r?\n/).filter((line) => line.trim()).map((line, index) => {
    const match = /^(.+?):\s*(\d+)\s*-\s*(\d+)\s*$/.exec(line.trim());
    if (!match) throw new Invalid(`carriers: Linje ${index + 1} skal have formen "Navn: 1-3"`, [{ path: "carriers", message: `Linje ${index + 1} skal have formen "Navn: 1-3"` }]);
    return { name: match[1]!.trim(), minDays: Number(match[2]), maxDays: Number(match[3]) };
  });
}

/** The feature flags in Danish (the tools keep their English descriptions for the API); an unknown flag shows its own. */
const FEATURE_TEXTS: Record<string, { name: string; hint: string }> = {
  storefront_chat: { name: "Chat i butikken", hint: "En assistent i butikken, der hjælper kunderne og lægger varer i kurven." },
  admin_assistant: { name: "Assistent i admin", hint: "En assistent, medarbejderne kan skrive med her i admin." },
  newsletter: { name: "Nyhedsbrev", hint: "Tilmelding til nyhedsbrev i butikken og kampagner herfra." },
  product_reviews: { name: "Anmeldelser", hint: "Kundeanmeldelser på produktsiderne." },
};

function featureName(key: string, description: string): string {
  return FEATURE_TEXTS[key]?.name ?? description;
}

async function features(web: AdminRequest): Promise<Html> {
  if (!web.may(listFeatures)) return html`<p class="hint">Funktioner kræver adgangen ${listFeatures.scope}.</p>`;
  const flags = await web.call(listFeatures, {});
  return html`<ul class="toggle-list">${flags.map((flag) => html`<li>
<div><p><strong>${featureName(flag.key, flag.description)}</strong></p><p class="hint">${FEATURE_TEXTS[flag.key]?.hint ?? ""} Ændret ${when(flag.updatedAt)}.</p></div>
<span class="toggle-state">${flag.enabled ? html`<span class="tag tag-ok">Til</span>` : html`<span class="tag">Fra</span>`}
${actionButton(web, setFeature, { action: "/admin/settings/feature", label: flag.enabled ? "Slå fra" : "Slå til", fields: { key: flag.key, enabled: flag.enabled ? "false" : "true" }, look: "secondary", small: true })}</span>
</li>`)}</ul>`;
}

export async function settingsPage(web: AdminRequest): Promise<View> {
  const [settings, flags, { commerce, rates }, currency, bank, delivery, returnDays] = await Promise.all([
    web.call(settingsGet, {}), features(web), commerceSections(web), web.currency(), bankForm(web), deliverySection(web), returnDaysForm(web),
  ]);
  const { branding, shipping, contact, policies } = settings;
  return {
    title: "Indstillinger",
    main: html`${pageHead("Indstillinger")}
<div class="columns columns-2">
<section class="card" id="branding"><h2>Butikkens udseende</h2>
${formOpen(web, "/admin/settings/branding")}
${input({ name: "shopName", label: "Butikkens navn", value: branding.shopName, required: true, maxlength: 100 })}
${input({ name: "tagline", label: "Slogan", value: branding.tagline, maxlength: 200 })}
${input({ name: "logoUrl", label: "Logo (adresse)", type: "url", value: branding.logoUrl ?? "", placeholder: "https://…" })}
<div class="form-pair">
${input({ name: "primaryColor", label: "Hovedfarve", value: branding.primaryColor, pattern: "#[0-9a-fA-F]{6}", required: true })}
${input({ name: "accentColor", label: "Accentfarve", value: branding.accentColor, pattern: "#[0-9a-fA-F]{6}", required: true })}
</div>
${submit(web, updateBranding, "Gem udseende")}
</form></section>
<section class="card" id="shipping"><h2>Fragt</h2>
${formOpen(web, "/admin/settings/shipping")}
<div class="form-pair">
${input({ name: "flatRate", label: `Fragt i ${unit(currency)}`, value: krInput(shipping.flatRateDkk), inputmode: "decimal", required: true })}
${input({ name: "freeShippingThreshold", label: `Fri fragt fra ${unit(currency)}`, value: krInput(shipping.freeShippingThresholdDkk), inputmode: "decimal", required: true, hint: "0: altid fri fragt." })}
</div>
${textarea({ name: "carriers", label: "Fragtfirmaer", value: carriersText(shipping.carriers), rows: 3, mono: true, hint: "Ét pr. linje med leveringstid i hverdage: PostNord: 1-3" })}
${submit(web, updateShipping, "Gem fragt")}
</form></section>
<section class="card" id="contact"><h2>Kontakt</h2>
${formOpen(web, "/admin/settings/contact")}
${input({ name: "email", label: "E-mail", type: "email", value: contact.email, required: true })}
${input({ name: "phone", label: "Telefon", type: "tel", value: contact.phone, required: true })}
${textarea({ name: "address", label: "Adresse", value: contact.address, rows: 2, required: true, maxlength: 300 })}
${input({ name: "cvr", label: "CVR-nummer", value: contact.cvr, pattern: "\\d{8}", required: true, inputmode: "numeric" })}
${submit(web, updateContact, "Gem kontakt")}
</form>
${bank}</section>
${commerce}
<section class="card" id="features"><h2>Funktioner</h2>${flags}<p class="hint">Køb via AI-agenter slås til og fra under <a href="#commerce">Valuta og moms</a>.</p></section>
</div>
${delivery}
${rates}
<section class="card" id="policies"><h2>Vilkår og politikker</h2>
${returnDays}
${formOpen(web, "/admin/settings/policies")}
<div class="columns columns-2">
${textarea({ name: "returns", label: "Returret", value: policies.returns, rows: 8, required: true })}
${textarea({ name: "shipping", label: "Levering", value: policies.shipping, rows: 8, required: true })}
${textarea({ name: "privacy", label: "Privatliv", value: policies.privacy, rows: 8, required: true })}
${textarea({ name: "terms", label: "Handelsbetingelser", value: policies.terms, rows: 8, required: true })}
</div>
${submit(web, updatePolicies, "Gem tekster")}
</form></section>`,
  };
}

const ACTIONS: Record<string, (web: AdminRequest) => Promise<string>> = {
  async branding(web) {
    await web.call(updateBranding, {
      shopName: web.field("shopName").trim(),
      tagline: web.field("tagline").trim(),
      logoUrl: web.field("logoUrl").trim() || null,
      primaryColor: web.field("primaryColor").trim(),
      accentColor: web.field("accentColor").trim(),
    });
    return "Udseendet er gemt.";
  },
  async shipping(web) {
    await web.call(updateShipping, {
      flatRateDkk: kroner(web.field("flatRate"), "flatRate") ?? 0,
      freeShippingThresholdDkk: kroner(web.field("freeShippingThreshold"), "freeShippingThreshold") ?? 0,
      carriers: readCarriers(web.field("carriers")),
    });
    return "Fragten er gemt.";
  },
  async contact(web) {
    await web.call(updateContact, { email: web.field("email").trim(), phone: web.field("phone").trim(), address: web.field("address").trim(), cvr: web.field("cvr").trim() });
    return "Kontaktoplysningerne er gemt.";
  },
  async policies(web) {
    await web.call(updatePolicies, { returns: web.field("returns"), shipping: web.field("shipping"), privacy: web.field("privacy"), terms: web.field("terms") });
    return "Teksterne er gemt.";
  },
  bank: saveBank,
  method: saveMethod,
  "method-delete": deleteMethod,
  "method-first": firstMethod,
  "pickup-points": savePoints,
  "return-days": saveReturnDays,
  commerce: saveCommerce,
  rates: saveShippingRates,
  async feature(web) {
    const result = await web.call(setFeature, { key: web.field("key"), enabled: web.field("enabled") === "true" });
    return `${featureName(result.key, result.key)} er nu ${result.enabled ? "slået til" : "slået fra"}.`;
  },
};

/** Where an action's outcome is shown, when its card is not named after it. */
const ANCHORS: Record<string, string> = { feature: "features", method: "methods", "method-delete": "methods", "method-first": "methods" };

export async function settingsAction(web: AdminRequest, name: string): Promise<Outcome> {
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action) throw new NotFound(`No settings action ${name}.`);
  return web.act(`/admin/settings#${ANCHORS[name] ?? name}`, () => action(web));
}
