// The product form shared by "new product" and "edit product": every write field as text, read back into a tool
// input, and tool errors shown next to the field they name.
import type { FieldError } from "../../../core/errors.ts";
import { field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import { checkbox, select, textarea, unit } from "../components.ts";
import { blocks, blocksText, integer, keyValues, keyValuesText, kroner, optional } from "../forms.ts";
import { fieldMessage } from "../problems.ts";

export interface ProductValues {
  name: string;
  slug: string;
  description: string;
  price: string;
  stock: string;
  brand: string;
  frameColor: string;
  lensColor: string;
  category: string;
  featured: boolean;
  /** May be withdrawn from (returns.policy); only the edit form shows it. */
  returnable: boolean;
  giftCard: boolean;
  /** Saved but not shown in the shop. */
  draft: boolean;
  answerSummary: string;
  attributes: string;
  comparisonFacts: string;
  faq: string;
  useCases: string;
}

export const EMPTY_PRODUCT: ProductValues = {
  name: "", slug: "", description: "", price: "", stock: "0", brand: "", frameColor: "", lensColor: "", category: "", featured: false, returnable: true, giftCard: false, draft: false,
  answerSummary: "", attributes: "", comparisonFacts: "", faq: "", useCases: "",
};

const TEXT_FIELDS = ["name", "slug", "description", "price", "stock", "brand", "frameColor", "lensColor", "category", "answerSummary", "attributes", "comparisonFacts", "faq", "useCases"] as const;

export function valuesFromForm(read: (name: string) => string): ProductValues {
  const values = { ...EMPTY_PRODUCT, featured: read("featured") === "on", returnable: read("returnable") === "on", giftCard: read("giftCard") === "on", draft: read("draft") === "on" };
  for (const name of TEXT_FIELDS) values[name] = read(name);
  return values;
}

export function valuesFromProduct(
  product: { name: string; slug: string; description: string; priceDkk: number; stock: number; brand: string | null; frameColor: string | null; lensColor: string | null; featured: boolean; category: { slug: string } },
  answers: { answerSummary: string | null; giftCard: boolean; attributes: Record<string, string>; comparisonFacts: Record<string, string>; faq: Array<{ q: string; a: string }>; useCases: Array<{ title: string; description: string }> },
  returnable: boolean,
  draft = false,
): ProductValues {
  return {
    name: product.name,
    slug: product.slug,
    description: product.description,
    price: (product.priceDkk / 100).toFixed(2).replace(".", ","),
    stock: String(product.stock),
    brand: product.brand ?? "",
    frameColor: product.frameColor ?? "",
    lensColor: product.lensColor ?? "",
    category: product.category.slug,
    featured: product.featured,
    returnable,
    giftCard: answers.giftCard,
    draft,
    answerSummary: answers.answerSummary ?? "",
    attributes: keyValuesText(answers.attributes),
    comparisonFacts: keyValuesText(answers.comparisonFacts),
    faq: blocksText(answers.faq.map((item) => ({ head: item.q, text: item.a }))),
    useCases: blocksText(answers.useCases.map((item) => ({ head: item.title, text: item.description }))),
  };
}

/**
 * The write fields of the form. Optional texts left empty are left out (the shop keeps no empty colour or brand);
 * the maps and lists are always sent, so emptying them clears them.
 */
export function writeFields(values: ProductValues) {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    priceDkk: kroner(values.price, "price") ?? 0,
    brand: optional(values.brand),
    frameColor: optional(values.frameColor),
    lensColor: optional(values.lensColor),
    categorySlug: optional(values.category),
    featured: values.featured,
    giftCard: values.giftCard,
    draft: values.draft,
    answerSummary: values.answerSummary.trim(),
    attributes: keyValues(values.attributes, "attributes"),
    comparisonFacts: keyValues(values.comparisonFacts, "comparisonFacts"),
    faq: blocks(values.faq, "faq").map((item) => ({ q: item.head, a: item.text })),
    useCases: blocks(values.useCases, "useCases").map((item) => ({ title: item.head, description: item.text })),
  };
}

export function stockField(values: ProductValues): number {
  return integer(values.stock, "stock") ?? 0;
}

/** Tool paths ("patch.priceDkk", "faq.0.q") → the form field they belong to. */
export function formErrors(errors: FieldError[] | undefined): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const error of errors ?? []) {
    const top = error.path.replace(/^patch\./, "").split(".")[0] ?? "";
    const name = top === "priceDkk" ? "price" : top === "categorySlug" || top === "categoryId" ? "category" : top;
    byField[name] ??= fieldMessage(error.message);
  }
  return byField;
}

export function productFormFields(values: ProductValues, errors: Record<string, string>, categories: Array<{ slug: string; name: string }>, creating: boolean, money: { currency: string; pricesIncludeVat: boolean }): Html {
  return html`<fieldset><legend>Grundoplysninger</legend>
${input({ name: "name", label: "Navn", value: values.name, required: true, error: errors.name, ...(creating ? { data: { "slug-source": "f-slug" } } : {}) })}
${creating
  ? input({ name: "slug", label: "Adresse (slug)", value: values.slug, pattern: "[a-z0-9\\-]{2,}", hint: "Små bogstaver, tal og bindestreg; kan ikke ændres senere. Tom: laves ud fra navnet.", error: errors.slug })
  : html`<p class="hint">Adresse: <code>/products/${values.slug}</code> (kan ikke ændres)</p>`}
${textarea({ name: "description", label: "Beskrivelse", value: values.description, rows: 6, required: true, error: errors.description })}
<div class="form-pair">
${input({ name: "price", label: `Pris i ${unit(money.currency)}${money.pricesIncludeVat ? " inkl. moms" : ""}`, value: values.price, required: true, inputmode: "decimal", error: errors.price })}
${creating ? input({ name: "stock", label: "Antal på lager", type: "number", min: 0, value: values.stock, required: true, error: errors.stock }) : ""}
</div>
${select({ name: "category", label: "Kategori", value: values.category, choices: categories.map((c): [string, string] => [c.slug, c.name]) })}
${errors.category ? html`<p class="field-error">${errors.category}</p>` : ""}
${checkbox({ name: "draft", label: "Kladde (vises ikke i butikken)", checked: values.draft, hint: "Gemmes, men kunder og AI-agenter ser det ikke, før fluebenet fjernes." })}
${checkbox({ name: "featured", label: "Fremhæv i butikken", checked: values.featured })}
${creating ? "" : checkbox({ name: "returnable", label: "Kan returneres", checked: values.returnable, hint: "Fjern fluebenet for varer lavet efter kundens mål, fx glas med styrke: de har ingen fortrydelsesret. Reklamation gælder stadig." })}
${checkbox({ name: "giftCard", label: "Gavekort", hint: "Hver købt enhed bliver et gavekort på varens pris, der e-mailes til køberen, når ordren er betalt.", checked: values.giftCard })}
</fieldset>
<fieldset><legend>Detaljer</legend>
<div class="form-pair">
${input({ name: "brand", label: "Mærke", value: values.brand, error: errors.brand })}
${input({ name: "frameColor", label: "Stelfarve", value: values.frameColor, error: errors.frameColor })}
${input({ name: "lensColor", label: "Glasfarve", value: values.lensColor, error: errors.lensColor })}
</div>
${textarea({ name: "attributes", label: "Egenskaber", value: values.attributes, rows: 3, mono: true, hint: "Én pr. linje: navn: værdi", error: errors.attributes })}
</fieldset>
<fieldset><legend>Svar til kunder og AI-agenter</legend>
${textarea({ name: "answerSummary", label: "Kort svar", value: values.answerSummary, rows: 2, maxlength: 500, error: errors.answerSummary })}
${textarea({ name: "faq", label: "Spørgsmål og svar", value: values.faq, rows: 5, hint: "Spørgsmålet på første linje, svaret under; tom linje mellem hvert.", error: errors.faq })}
${textarea({ name: "useCases", label: "Anvendelser", value: values.useCases, rows: 4, hint: "Titel på første linje, beskrivelse under; tom linje mellem hver.", error: errors.useCases })}
${textarea({ name: "comparisonFacts", label: "Fakta til sammenligning", value: values.comparisonFacts, rows: 3, mono: true, hint: "Én pr. linje: navn: værdi, fx vægt: 22 g", error: errors.comparisonFacts })}
</fieldset>`;
}
