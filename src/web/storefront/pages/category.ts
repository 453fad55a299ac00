// GET /categories/<slug>: one category's products (filters and pages as on /search); 404 for an unknown category.
import { NotFound } from "../../../core/errors.ts";
import categoriesGet from "../../../tools/categories/get.ts";
import { breadcrumbs, emptyState, pagination } from "../../components.ts";
import { html } from "../../html.ts";
import type { View } from "../../page.ts";
import { productGrid } from "../components.ts";
import type { StorefrontRequest } from "../site.ts";
import { filterForm, pageHref, parseSearch, searchResults } from "./search.ts";

const SLUG = /^[a-z0-9-]{2,200}$/;

export async function categoryPage(web: StorefrontRequest, slug: string): Promise<View> {
  if (!SLUG.test(slug)) throw new NotFound(`No category "${slug}".`);
  const category = await web.read(categoriesGet, { slug });
  const params = { ...parseSearch(web, ["brand", "minPrice", "maxPrice", "inStock", "page"]), category: category.slug };
  const [{ products, hasNext }, chrome] = await Promise.all([searchResults(web, params), web.chrome()]);
  const path = `/categories/${category.slug}`;
  return {
    title: category.name,
    description: category.description ?? undefined,
    canonical: params.page > 1 ? pageHref(path, params, params.page) : path,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: category.name }])}
<header class="listing-head">
<h1>${category.name}</h1>
${category.description ? html`<p class="lead">${category.description}</p>` : ""}
</header>
<div class="listing">
<aside class="listing-filters">${filterForm(path, params, null, chrome.currency)}</aside>
<div class="listing-results">
${products.length
  ? html`${productGrid(products, chrome.currency, 2)}${pagination(params.page, hasNext, (page) => pageHref(path, params, page))}`
  : emptyState("Ingen varer her lige nu", "Prøv uden filtre, eller se hele sortimentet.", { label: "Se alle produkter", href: "/search" })}
</div>
</div>`,
  };
}
