// /admin/pages: the content pages (/info/<slug>) with title, body and status, and the section layout: a form per
// section (layout-forms.ts) and the whole layout as JSON, with the validation errors shown next to it (pages.*).
import type { z } from "zod";
import { NotFound, toToolError } from "../../../core/errors.ts";
import pagesDelete from "../../../tools/pages/delete.ts";
import pagesGet from "../../../tools/pages/get.ts";
import pagesGetLayout from "../../../tools/pages/get_layout.ts";
import pagesList from "../../../tools/pages/list.ts";
import setLayout from "../../../tools/pages/set_layout.ts";
import pagesUpsert from "../../../tools/pages/upsert.ts";
import { breadcrumbs, emptyState, field as input } from "../../components.ts";
import { count, html, type Html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, formOpen, pageHead, select, submit, table, textarea } from "../components.ts";
import { when } from "../forms.ts";
import { fieldMessage, problemText } from "../problems.ts";
import type { AdminRequest } from "../site.ts";
import { applySectionOp, SECTION_OPS, SECTION_TYPES, sectionForms, type FormSectionType, type SectionOp } from "./layout-forms.ts";

const SLUG = /^[a-z0-9-]{2,200}$/;
const LAYOUT_EXAMPLE = JSON.stringify(
  {
    sections: [
      { id: "intro", type: "hero", props: { heading: "Velkommen", subheading: "Briller med nordisk lys" } },
      { id: "om", type: "text", props: { heading: "Om os", body: "Vi har solgt briller siden 1998." } },
      { id: "udvalg", type: "product_grid", props: { title: "Udvalgte solbriller", categorySlug: "solbriller", limit: 4 } },
    ],
  },
  null,
  2,
);
const STATUS: Array<[string, string]> = [["published", "Udgivet"], ["draft", "Kladde"]];

function statusTag(status: string): Html {
  return status === "published" ? html`<span class="tag tag-ok">Udgivet</span>` : html`<span class="tag">Kladde</span>`;
}

function pageForm(web: AdminRequest, values: { slug: string; title: string; body: string; status: string }, creating: boolean): Html {
  return html`${formOpen(web, "/admin/pages/upsert")}
${creating
  ? input({ name: "slug", label: "Adresse (slug)", required: true, pattern: "[a-z0-9\\-]{2,}", hint: "Siden vises på /info/<slug>." })
  : html`<input type="hidden" name="slug" value="${values.slug}"><input type="hidden" name="existing" value="1">`}
${input({ name: "title", label: "Titel", value: values.title, required: true, maxlength: 200 })}
${textarea({ name: "body", label: "Tekst", value: values.body, rows: creating ? 6 : 14, required: true, hint: "Linjer der starter med \"## \" bliver overskrifter; en tom linje starter et nyt afsnit." })}
${select({ name: "status", label: "Status", value: values.status, choices: STATUS })}
${submit(web, pagesUpsert, creating ? "Opret side" : "Gem side")}
</form>`;
}

export async function contentPagesPage(web: AdminRequest): Promise<View> {
  const pages = await web.call(pagesList, {});
  const rows = pages.map((page) => [html`<a href="/admin/pages/${page.slug}">${page.title}</a><br><code class="hint">/info/${page.slug}</code>`, statusTag(page.status), when(page.updatedAt)]);
  return {
    title: "Sider",
    main: html`${pageHead("Sider", { lead: "Indholdssider som Om os, Levering og Kontakt." })}
${rows.length ? table("Sider", ["Side", "Status", "Ændret"], rows) : emptyState("Ingen sider", "Opret den første herunder.")}
<section class="card narrow"><h2>Ny side</h2>${pageForm(web, { slug: "", title: "", body: "", status: "draft" }, true)}</section>`,
  };
}

export interface LayoutState {
  text: string;
  errors: string[];
}

export async function contentPage(web: AdminRequest, slug: string, layoutState?: LayoutState): Promise<View> {
  if (!SLUG.test(slug)) throw new NotFound(`No page "${slug}".`);
  const [page, layout] = await Promise.all([web.call(pagesGet, { slug }), web.call(pagesGetLayout, { slug })]);
  const layoutText = layoutState?.text ?? (layout.layout ? JSON.stringify(layout.layout, null, 2) : "");
  return {
    status: layoutState ? 400 : 200,
    title: page.title,
    main: html`${breadcrumbs([{ label: "Sider", href: "/admin/pages" }, { label: page.title }])}
${pageHead(page.title, { lead: html`${statusTag(page.status)} · <a href="/info/${page.slug}">/info/${page.slug}</a> · ændret ${when(page.updatedAt)}` })}
<div class="columns columns-2">
<section class="card"><h2>Indhold</h2>${pageForm(web, page, false)}</section>
<section class="card" id="layout"><h2>Sektioner (layout)</h2>
<p class="hint">Når et layout er sat, viser siden det i stedet for teksten. Tom: siden viser teksten.</p>
${layoutState?.errors.length ? html`<div class="notice notice-error" role="alert"><p>Layoutet blev ikke gemt:</p><ul class="error-list">${layoutState.errors.map((error) => html`<li><code>${error}</code></li>`)}</ul></div>` : ""}
${sectionForms(web, page.slug, layout.layout)}
<h3>Hele layoutet som JSON</h3>
<p class="hint">Sektioner: hero, text, image, product_grid, cta, faq og columns (kolonner rettes kun her).</p>
${formOpen(web, "/admin/pages/layout")}
<input type="hidden" name="slug" value="${page.slug}">
${textarea({ name: "layout", label: "Layout som JSON", value: layoutText, rows: 18, mono: true, error: layoutState?.errors.length ? "Ret fejlene ovenfor." : undefined })}
${submit(web, setLayout, "Gem layout")}
</form>
<details><summary>Eksempel</summary><pre class="code-sample">${LAYOUT_EXAMPLE}</pre></details>
</section>
</div>
<section class="card narrow danger-zone"><h2>Slet side</h2>
${actionButton(web, pagesDelete, { action: "/admin/pages/delete", label: "Slet siden", fields: { slug: page.slug }, look: "danger", confirm: `Slet siden ${page.title}?` })}
</section>`,
  };
}

/** One section operation from its form (add, save, move, remove): the whole layout is built here and set. */
async function saveSection(web: AdminRequest, slug: string): Promise<Outcome> {
  const op = web.field("op") as SectionOp;
  const type = web.field("type") as FormSectionType;
  const index = Number.parseInt(web.field("index"), 10);
  if (!SECTION_OPS.includes(op) || !Number.isSafeInteger(index)) throw new NotFound(`No section action ${op}.`);
  let layout: z.input<typeof setLayout.input>["layout"] = null;
  try {
    const { layout: current } = await web.call(pagesGetLayout, { slug });
    layout = applySectionOp(current, op, index, SECTION_TYPES.includes(type) ? type : undefined, (name) => web.field(name));
    const result = await web.call(setLayout, { slug, layout });
    const done = { add: "Sektionen er tilføjet", save: "Sektionen er gemt", up: "Sektionen er flyttet op", down: "Sektionen er flyttet ned", remove: "Sektionen er fjernet" }[op];
    return web.done(`/admin/pages/${slug}#layout`, result.hasLayout ? `${done} (${count(result.sectionCount, "sektion", "sektioner")}).` : `${done}; siden viser teksten.`);
  } catch (error) {
    const mapped = toToolError(error);
    if (mapped.status !== 400) return web.refused(`/admin/pages/${slug}`, error);
    const errors = (mapped.errors ?? []).map((item) => `${item.path.replace(/^layout\.?/, "") || "layout"}: ${fieldMessage(item.message)}`);
    return contentPage(web, slug, { text: layout ? JSON.stringify(layout, null, 2) : "", errors: errors.length ? errors : [problemText(mapped)] });
  }
}

/** Sets the layout; invalid JSON or a layout the tool refuses comes back to the editor with every error listed. */
async function saveLayout(web: AdminRequest, slug: string): Promise<Outcome> {
  const text = web.field("layout").trim();
  let layout: unknown = null;
  if (text) {
    try {
      layout = JSON.parse(text);
    } catch (error) {
      const at = /position (\d+)/.exec((error as Error).message)?.[1];
      return contentPage(web, slug, { text, errors: [`Ugyldig JSON${at ? ` ved tegn ${at}` : ""}: tjek kommaer, anførselstegn og klammer.`] });
    }
  }
  try {
    const result = await web.call(setLayout, { slug, layout: layout as z.input<typeof setLayout.input>["layout"] });
    return web.done(`/admin/pages/${slug}`, result.hasLayout ? `Layoutet er gemt (${count(result.sectionCount, "sektion", "sektioner")}).` : "Layoutet er fjernet; siden viser teksten.");
  } catch (error) {
    const mapped = toToolError(error);
    if (mapped.status !== 400) return web.refused(`/admin/pages/${slug}`, error);
    const errors = (mapped.errors ?? []).map((item) => `${item.path.replace(/^layout\.?/, "") || "layout"}: ${fieldMessage(item.message)}`);
    return contentPage(web, slug, { text, errors: errors.length ? errors : [problemText(mapped)] });
  }
}

export async function contentPageAction(web: AdminRequest, name: string): Promise<Outcome> {
  const slug = web.field("slug").trim();
  if (name === "layout" && SLUG.test(slug)) return saveLayout(web, slug);
  if (name === "section" && SLUG.test(slug)) return saveSection(web, slug);
  if (name === "upsert") {
    const back = web.field("existing") && SLUG.test(slug) ? `/admin/pages/${slug}` : "/admin/pages";
    const status = web.field("status") === "draft" ? "draft" : "published";
    try {
      const saved = await web.call(pagesUpsert, { slug, title: web.field("title").trim(), body: web.field("body"), status });
      return web.done(`/admin/pages/${saved.slug}`, `Siden ${saved.title} er gemt (${saved.status === "published" ? "udgivet" : "kladde"}).`);
    } catch (error) {
      return web.refused(back, error);
    }
  }
  if (name === "delete") {
    try {
      await web.call(pagesDelete, { slug, confirm: true });
    } catch (error) {
      return web.refused(`/admin/pages/${slug}`, error);
    }
    return web.done("/admin/pages", "Siden er slettet.");
  }
  throw new NotFound(`No page action ${name}.`);
}
