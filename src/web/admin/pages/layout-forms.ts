// A form per layout section type (hero, text, image, product_grid, cta, faq) for the content-page editor: each
// section is edited, moved or removed through its own small form, and a section of any type is added through its
// type's form. The server builds the whole layout and sets it with pages.set_layout; no JavaScript is needed.
// columns sections are moved and removed here, their contents edited in the JSON below.
import { Invalid } from "../../../core/errors.ts";
import type { Layout, Section } from "../../../tools/pages/layout-sections.ts";
import { walk } from "../../../tools/pages/layout-sections.ts";
import setLayout from "../../../tools/pages/set_layout.ts";
import { field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import { formOpen, select, submit, textarea } from "../components.ts";
import { blocks, blocksText, integer, optional } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

export const SECTION_TYPES = ["hero", "text", "image", "product_grid", "cta", "faq"] as const;
export type FormSectionType = (typeof SECTION_TYPES)[number];

const SECTION_NAMES: Record<Section["type"], string> = {
  hero: "Topbanner (hero)",
  text: "Tekst",
  image: "Billede",
  product_grid: "Produktgitter",
  cta: "Knap (call to action)",
  faq: "Spørgsmål og svar",
  columns: "Kolonner",
};

export const SECTION_OPS = ["add", "save", "up", "down", "remove"] as const;
export type SectionOp = (typeof SECTION_OPS)[number];

/** Any props object, read loosely (the tool validates the section as a whole). */
type Props = Record<string, unknown>;
const str = (props: Props, name: string): string => {
  const value = props[name];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
};

/** The fields of one section type, filled from `props`; `key` keeps element ids unique on the page. */
function typeFields(type: FormSectionType, props: Props, key: string): Html {
  const text = (name: string, label: string, options: { required?: boolean; type?: "url"; maxlength?: number; hint?: string } = {}) =>
    input({ name, id: `f-${key}-${name}`, label, value: str(props, name), ...options });
  const area = (name: string, label: string, value: string, options: { required?: boolean; rows?: number; hint?: string } = {}) =>
    textarea({ name, id: `f-${key}-${name}`, label, value, ...options });
  switch (type) {
    case "hero":
      return html`${text("heading", "Overskrift", { required: true, maxlength: 200 })}
${text("subheading", "Undertekst", { maxlength: 500 })}
${text("imageUrl", "Billede (adresse)", { type: "url" })}
<div class="form-pair">${text("ctaLabel", "Knaptekst", { maxlength: 80, hint: "Udfyld begge eller ingen." })}${text("ctaUrl", "Knappens adresse", { type: "url" })}</div>`;
    case "text":
      return html`${text("heading", "Overskrift", { maxlength: 200 })}
${area("body", "Tekst", str(props, "body"), { required: true, rows: 6, hint: "En tom linje starter et nyt afsnit." })}`;
    case "image":
      return html`${text("url", "Billede (adresse)", { required: true, type: "url" })}
${text("alt", "Beskrivelse (alt-tekst)", { maxlength: 300, hint: "Tom for et rent pyntebillede." })}
${text("caption", "Billedtekst", { maxlength: 300 })}`;
    case "product_grid": {
      const slugs = Array.isArray(props.productSlugs) ? (props.productSlugs as unknown[]).map(String).join("\n") : "";
      return html`${text("title", "Titel", { maxlength: 200 })}
${area("productSlugs", "Produkter (slugs)", slugs, { rows: 3, hint: "Én pr. linje, i den viste rækkefølge. Eller angiv en kategori i stedet." })}
<div class="form-pair">${text("categorySlug", "Kategori (slug)", { hint: "De første i kategorien, fremhævede først." })}
${input({ name: "limit", id: `f-${key}-limit`, label: "Højst antal", type: "number", min: 1, max: 24, value: str(props, "limit") })}</div>`;
    }
    case "cta":
      return html`<div class="form-pair">${text("label", "Knaptekst", { required: true, maxlength: 80 })}${text("url", "Knappens adresse", { required: true, type: "url" })}</div>
${text("text", "Tekst før knappen", { maxlength: 500 })}
${select({ name: "style", id: `f-${key}-style`, label: "Udseende", value: str(props, "style") || "primary", choices: [["primary", "Primær"], ["secondary", "Sekundær"]] })}`;
    case "faq": {
      const items = Array.isArray(props.items) ? (props.items as Array<{ q?: unknown; a?: unknown }>).map((item) => ({ head: String(item.q ?? ""), text: String(item.a ?? "") })) : [];
      return html`${text("title", "Titel", { maxlength: 200 })}
${area("items", "Spørgsmål og svar", blocksText(items), { required: true, rows: 6, hint: "Spørgsmålet på første linje, svaret under; tom linje mellem hvert." })}`;
    }
  }
}

/** The section of `type` the posted fields describe (empty optional fields left out). */
function sectionFromForm(type: FormSectionType, id: string, read: (name: string) => string): Section {
  const opt = (name: string) => optional(read(name));
  const props = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  switch (type) {
    case "hero":
      return { id, type, props: props({ heading: read("heading").trim(), subheading: opt("subheading"), imageUrl: opt("imageUrl"), ctaLabel: opt("ctaLabel"), ctaUrl: opt("ctaUrl") }) as never };
    case "text":
      return { id, type, props: props({ heading: opt("heading"), body: read("body").trim() }) as never };
    case "image":
      return { id, type, props: props({ url: read("url").trim(), alt: read("alt").trim(), caption: opt("caption") }) as never };
    case "product_grid": {
      const slugs = read("productSlugs").split(/[\s,]+/).filter(Boolean);
      return { id, type, props: props({ title: opt("title"), productSlugs: slugs.length ? slugs : undefined, categorySlug: opt("categorySlug"), limit: integer(read("limit"), "limit") }) as never };
    }
    case "cta":
      return { id, type, props: props({ label: read("label").trim(), url: read("url").trim(), text: opt("text"), style: read("style") === "secondary" ? "secondary" : "primary" }) as never };
    case "faq":
      return { id, type, props: props({ title: opt("title"), items: blocks(read("items"), "items").map((item) => ({ q: item.head, a: item.text })) }) as never };
  }
}

/** A fresh section id: the type and the smallest number no section of the layout uses yet. */
function freshId(layout: Layout | null, type: string): string {
  const used = new Set(walk(layout?.sections ?? []).map((section) => section.id));
  let n = 1;
  while (used.has(`${type}-${n}`)) n++;
  return `${type}-${n}`;
}

/** The layout after one section operation (`index` counts the top-level sections). 400 for an index out of range. */
export function applySectionOp(layout: Layout | null, op: SectionOp, index: number, type: FormSectionType | undefined, read: (name: string) => string): Layout | null {
  const sections = [...(layout?.sections ?? [])];
  if (op === "add") {
    if (!type) throw new Invalid("type: unknown section type", [{ path: "type", message: "Vælg en sektionstype" }]);
    return { sections: [...sections, sectionFromForm(type, freshId(layout, type), read)] };
  }
  const current = sections[index];
  if (!current) throw new Invalid("index: no such section", [{ path: "index", message: "Sektionen findes ikke længere; genindlæs siden" }]);
  if (op === "remove") {
    sections.splice(index, 1);
    return sections.length ? { sections } : null;
  }
  if (op === "up" || op === "down") {
    const to = op === "up" ? index - 1 : index + 1;
    if (to < 0 || to >= sections.length) return { sections };
    [sections[index], sections[to]] = [sections[to]!, current];
    return { sections };
  }
  if (current.type === "columns") throw new Invalid("index: columns are edited as JSON", [{ path: "index", message: "Kolonner rettes i JSON-feltet" }]);
  sections[index] = sectionFromForm(current.type, current.id, read);
  return { sections };
}

function hidden(fields: Record<string, string>): Html {
  return html`${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

/** The section list: one form per section (save, move, remove), then one form per type to add a section. */
export function sectionForms(web: AdminRequest, slug: string, layout: Layout | null): Html {
  const sections = layout?.sections ?? [];
  const disabled = web.may(setLayout) ? "" : html` disabled`;
  const button = (op: SectionOp, label: string, off = false) =>
    html`<button type="submit" class="button button-secondary button-small" name="op" value="${op}" formnovalidate${off ? " disabled" : disabled}>${label}</button>`;
  const items = sections.map((section, index) => {
    const key = `s${index}`;
    const body = section.type === "columns" ? html`<p class="hint">${section.props.columns.length} kolonner; indholdet rettes i JSON-feltet nedenfor.</p>` : typeFields(section.type, section.props as Props, key);
    return html`<li class="layout-section"><fieldset><legend>${index + 1}. ${SECTION_NAMES[section.type]} <code class="hint">${section.id}</code></legend>
${formOpen(web, "/admin/pages/section")}
${hidden({ slug, index: String(index) })}
${body}
<div class="form-actions">${section.type === "columns" ? "" : html`<button type="submit" class="button button-small" name="op" value="save"${disabled}>Gem sektion</button>`}
${button("up", "Flyt op", index === 0)} ${button("down", "Flyt ned", index === sections.length - 1)} ${button("remove", "Fjern")}</div>
</form></fieldset></li>`;
  });
  const adders = SECTION_TYPES.map(
    (type) => html`<details class="layout-add"><summary>Tilføj ${SECTION_NAMES[type].toLowerCase()}</summary>
${formOpen(web, "/admin/pages/section")}
${hidden({ slug, op: "add", type, index: String(sections.length) })}
${typeFields(type, {}, `new-${type}`)}
${submit(web, setLayout, "Tilføj sektion")}
</form></details>`,
  );
  return html`${sections.length ? html`<ol class="layout-sections">${items}</ol>` : html`<p class="hint">Ingen sektioner endnu: siden viser teksten.</p>`}
<h3>Tilføj sektion</h3>
${adders}`;
}
