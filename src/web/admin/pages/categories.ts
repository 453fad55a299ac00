// /admin/categories: the categories with their product counts, a form for a new one, and per category edit and
// delete (categories.upsert / categories.delete, which refuses while products remain).
import { NotFound } from "../../../core/errors.ts";
import categoriesDelete from "../../../tools/categories/delete.ts";
import categoriesGet from "../../../tools/categories/get.ts";
import categoriesList from "../../../tools/categories/list.ts";
import categoriesUpsert from "../../../tools/categories/upsert.ts";
import { breadcrumbs, field as input } from "../../components.ts";
import { count, html, type Html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import { actionButton, formOpen, pageHead, submit, table, textarea } from "../components.ts";
import { optional } from "../forms.ts";
import type { AdminRequest } from "../site.ts";

const SLUG = /^[a-z0-9-]{2,200}$/;

function categoryForm(web: AdminRequest, values: { slug: string; name: string; description: string }, creating: boolean): Html {
  return html`${formOpen(web, "/admin/categories")}
${creating
  ? input({ name: "slug", label: "Adresse (slug)", value: values.slug, required: true, pattern: "[a-z0-9\\-]{2,}", hint: "Små bogstaver, tal og bindestreg." })
  : html`<input type="hidden" name="slug" value="${values.slug}"><input type="hidden" name="existing" value="1">`}
${input({ name: "name", label: "Navn", value: values.name, required: true, maxlength: 200 })}
${textarea({ name: "description", label: "Beskrivelse", value: values.description, rows: 3, maxlength: 2000 })}
${submit(web, categoriesUpsert, creating ? "Opret kategori" : "Gem kategori")}
</form>`;
}

export async function categoriesPage(web: AdminRequest): Promise<View> {
  const categories = await web.call(categoriesList, { includeEmpty: true });
  const rows = categories.map((category) => [
    html`<a href="/admin/categories/${category.slug}">${category.name}</a><br><code class="hint">${category.slug}</code>`,
    category.description ?? "",
    html`<a href="/admin/products?category=${category.slug}">${category.productCount}</a>`,
  ]);
  return {
    title: "Kategorier",
    main: html`${pageHead("Kategorier", { lead: "Produkterne er ordnet i kategorier; butikkens menu viser dem, der har produkter." })}
${table("Kategorier", ["Kategori", "Beskrivelse", "Produkter"], rows, [2])}
<section class="card narrow"><h2>Ny kategori</h2>${categoryForm(web, { slug: "", name: "", description: "" }, true)}</section>`,
  };
}

export async function categoryPage(web: AdminRequest, slug: string): Promise<View> {
  if (!SLUG.test(slug)) throw new NotFound(`No category "${slug}".`);
  const category = await web.call(categoriesGet, { slug });
  return {
    title: category.name,
    main: html`${breadcrumbs([{ label: "Kategorier", href: "/admin/categories" }, { label: category.name }])}
${pageHead(category.name, { lead: html`${count(category.productCount, "produkt", "produkter")} · <a href="/categories/${category.slug}">Se i butikken ↗</a>` })}
<section class="card narrow">${categoryForm(web, { slug: category.slug, name: category.name, description: category.description ?? "" }, false)}</section>
<section class="card narrow danger-zone"><h2>Slet kategori</h2>
<p class="hint">En kategori kan kun slettes, når den ikke har produkter.</p>
${actionButton(web, categoriesDelete, { action: `/admin/categories/${category.slug}/delete`, label: "Slet kategori", look: "danger", confirm: `Slet kategorien ${category.name}?` })}
</section>`,
  };
}

export async function upsertCategoryAction(web: AdminRequest): Promise<Outcome> {
  const slug = web.field("slug").trim();
  const back = web.field("existing") && SLUG.test(slug) ? `/admin/categories/${slug}` : "/admin/categories";
  try {
    const saved = await web.call(categoriesUpsert, { slug, name: web.field("name").trim(), description: optional(web.field("description")) });
    return web.done(`/admin/categories/${saved.slug}`, `Kategorien ${saved.name} er gemt.`);
  } catch (error) {
    return web.refused(back, error);
  }
}

export async function deleteCategoryAction(web: AdminRequest, slug: string): Promise<Outcome> {
  if (!SLUG.test(slug)) throw new NotFound(`No category "${slug}".`);
  try {
    await web.call(categoriesDelete, { slug, confirm: true });
  } catch (error) {
    return web.refused(`/admin/categories/${slug}`, error);
  }
  return web.done("/admin/categories", "Kategorien er slettet.");
}
