// GET /search?q=&category=&brand=&minPrice=&maxPrice=&inStock=&featured=&page=: products.search as a form (prices in
// whole kroner), 24 per page, with an empty state. Malformed parameters answer the 400 page.
import { z } from "zod";
import { Invalid } from "../../../core/errors.ts";
import { fieldErrors } from "../../../tools/executor.ts";
import categoriesList from "../../../tools/categories/list.ts";
import productsSearch from "../../../tools/products/search.ts";
import { breadcrumbs, emptyState, pagination } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { View } from "../../page.ts";
import { productGrid } from "../components.ts";
import type { StorefrontRequest } from "../site.ts";

const PAGE_SIZE = 24;
const MAX_PAGE = Math.floor(10_000 / PAGE_SIZE) + 1;

const kroner = z.string().trim().regex(/^\d{1,9}$/, "Skriv et helt antal kroner").transform(Number);
const flag = z.enum(["1", "on", "true"]).transform(() => true);

const searchParams = z.object({
  q: z.string().trim().max(200).default(""),
  category: z.string().trim().max(200).regex(/^[a-z0-9-]*$/).default(""),
  brand: z.string().trim().max(100).default(""),
  minPrice: kroner.or(z.literal("")).optional(),
  maxPrice: kroner.or(z.literal("")).optional(),
  inStock: flag.optional(),
  featured: flag.optional(),
  page: z.string().regex(/^\d{1,4}$/).transform(Number).pipe(z.number().int().min(1).max(MAX_PAGE)).default(1),
});

export type SearchParams = z.output<typeof searchParams>;

/** The query string as typed search parameters (the first value of a repeated one); 400 when malformed. */
export function parseSearch(web: StorefrontRequest, keys = Object.keys(searchParams.shape)): SearchParams {
  const raw = Object.fromEntries(keys.map((key) => [key, web.query(key) || undefined]).filter(([, value]) => value !== undefined));
  const parsed = searchParams.safeParse(raw);
  if (!parsed.success) throw new Invalid("Søgningen indeholder en ugyldig værdi.", fieldErrors(parsed.error));
  return parsed.data;
}

/** One page of products for these parameters (one extra is fetched to know whether a next page exists). */
export async function searchResults(web: StorefrontRequest, params: SearchParams) {
  const found = await web.read(productsSearch, {
    q: params.q || undefined,
    categorySlug: params.category || undefined,
    brand: params.brand || undefined,
    minPriceOere: typeof params.minPrice === "number" ? params.minPrice * 100 : undefined,
    maxPriceOere: typeof params.maxPrice === "number" ? params.maxPrice * 100 : undefined,
    inStock: params.inStock,
    featured: params.featured,
    limit: PAGE_SIZE + 1,
    offset: (params.page - 1) * PAGE_SIZE,
  });
  return { products: found.slice(0, PAGE_SIZE), hasNext: found.length > PAGE_SIZE };
}

/** The address of the same search on another page. */
export function pageHref(path: string, params: SearchParams, page: number): string {
  const query = new URLSearchParams();
  if (params.q) query.set("q", params.q);
  if (params.category && path === "/search") query.set("category", params.category);
  if (params.brand) query.set("brand", params.brand);
  if (typeof params.minPrice === "number") query.set("minPrice", String(params.minPrice));
  if (typeof params.maxPrice === "number") query.set("maxPrice", String(params.maxPrice));
  if (params.inStock) query.set("inStock", "1");
  if (params.featured) query.set("featured", "1");
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The filter form; on a category page the category is fixed by the address. */
/**
 * The filters, folded behind "Filtrér" unless one is in use, so that on a phone the products come first; the
 * storefront script unfolds them on a wide screen, where they sit beside the products.
 */
export function filterForm(action: string, params: SearchParams, categories: Array<{ slug: string; name: string }> | null, currency: string): Html {
  const active = Boolean((action === "/search" && params.q) || (categories && params.category) || params.brand || typeof params.minPrice === "number" || typeof params.maxPrice === "number" || params.inStock);
  return html`<details class="filter-panel" data-filters${active ? " open" : ""}><summary class="button button-secondary button-block">Filtrér</summary>
<form class="filters" action="${action}" method="get" aria-label="Filtrer produkter">
${action === "/search" ? html`<div class="field"><label for="f-q">Søgeord</label><input id="f-q" name="q" type="search" value="${params.q}" maxlength="200"></div>` : ""}
${categories ? html`<div class="field"><label for="f-category">Kategori</label><select id="f-category" name="category"><option value="">Alle kategorier</option>${categories.map((category) => html`<option value="${category.slug}"${category.slug === params.category ? " selected" : ""}>${category.name}</option>`)}</select></div>` : ""}
<div class="field"><label for="f-brand">Mærke</label><input id="f-brand" name="brand" type="text" value="${params.brand}" maxlength="100" placeholder="Fx Ray-Ban"></div>
<fieldset class="price-range"><legend>Pris i ${currency === "DKK" ? "kr." : currency}</legend>
<div class="field"><label for="f-min">Fra</label><input id="f-min" name="minPrice" type="number" inputmode="numeric" min="0" step="1" value="${params.minPrice ?? ""}"></div>
<div class="field"><label for="f-max">Til</label><input id="f-max" name="maxPrice" type="number" inputmode="numeric" min="0" step="1" value="${params.maxPrice ?? ""}"></div>
</fieldset>
<div class="check"><input id="f-stock" name="inStock" type="checkbox" value="1"${params.inStock ? " checked" : ""}><label for="f-stock">Kun varer på lager</label></div>
${params.featured ? html`<input type="hidden" name="featured" value="1">` : ""}
<button class="button button-block" type="submit">Vis produkter</button>
</form></details>`;
}

export async function searchPage(web: StorefrontRequest): Promise<View> {
  const params = parseSearch(web);
  const [{ products, hasNext }, categories, chrome] = await Promise.all([searchResults(web, params), web.read(categoriesList, { includeEmpty: false }), web.chrome()]);
  const heading = params.q ? `Søgeresultater for “${params.q}”` : params.featured ? "Udvalgte favoritter" : "Alle produkter";
  const results = products.length
    ? html`<p class="result-count" role="status">${params.page > 1 ? `Side ${params.page}` : products.length === PAGE_SIZE && hasNext ? `Mere end ${PAGE_SIZE} varer` : `${products.length} ${products.length === 1 ? "vare" : "varer"}`}</p>
${productGrid(products, chrome.currency, 2)}
${pagination(params.page, hasNext, (page) => pageHref("/search", params, page))}`
    : emptyState("Ingen varer passer til søgningen", "Prøv et andet ord, færre filtre eller se hele sortimentet.", { label: "Se alle produkter", href: "/search" });
  return {
    title: params.q ? `Søg: ${params.q}` : heading,
    noindex: Boolean(params.q || params.brand || params.minPrice || params.maxPrice || params.page > 1),
    canonical: "/search",
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Søg" }])}
<h1>${heading}</h1>
<div class="listing">
<aside class="listing-filters">${filterForm("/search", params, categories, chrome.currency)}</aside>
<div class="listing-results">${results}</div>
</div>`,
  };
}
