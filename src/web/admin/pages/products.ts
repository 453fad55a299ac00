// GET /admin/products: the catalogue with search, category filter and pages (products.search), and the way to a new product.
import categoriesList from "../../../tools/categories/list.ts";
import createProduct from "../../../tools/products/create.ts";
import productsSearch from "../../../tools/products/search.ts";
import updateProduct from "../../../tools/products/update.ts";
import { emptyState, field as input, pagination } from "../../components.ts";
import { html } from "../../html.ts";
import type { View } from "../../page.ts";
import { money, pageHead, select, table } from "../components.ts";
import type { AdminRequest } from "../site.ts";

const PAGE_SIZE = 25;
/** Drafts shown above the first page (they are few: products being prepared). */
const MAX_DRAFTS = 100;

export async function productsPage(web: AdminRequest): Promise<View> {
  const q = web.query("q").slice(0, 200);
  const category = web.query("category");
  const page = Math.min(400, Math.max(1, Number.parseInt(web.query("page"), 10) || 1));
  const filters = { q: q || undefined, categorySlug: category || undefined };
  const [products, categories, drafts, currency] = await Promise.all([
    web.call(productsSearch, { ...filters, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE }),
    web.call(categoriesList, { includeEmpty: true }),
    // Drafts are not in the shop's catalogue: editors see them first, on the first page.
    page === 1 && web.may(updateProduct) ? web.call(productsSearch, { ...filters, limit: MAX_DRAFTS, drafts: true }) : [],
    web.currency(),
  ]);
  const shown = [...drafts.map((product) => ({ product, draft: true })), ...products.slice(0, PAGE_SIZE).map((product) => ({ product, draft: false }))];
  const rows = shown.map(({ product, draft }) => [
    html`<span class="thumb" aria-hidden="true">${product.firstImage ? html`<img src="${product.firstImage}" alt="" loading="lazy">` : ""}</span>`,
    html`<a href="/admin/products/${product.slug}">${product.name}</a>${draft ? html` <span class="tag tag-warn">Kladde</span>` : ""}${product.featured ? html` <span class="tag tag-info">Fremhævet</span>` : ""}<br><span class="hint">${product.brand ?? ""}</span>`,
    product.categoryName,
    money(product.priceDkk, currency),
    html`<span class="${product.stock === 0 ? "tag tag-bad" : product.stock <= 5 ? "tag tag-warn" : ""}">${product.stock}</span>`,
  ]);
  const href = (n: number) => {
    const params = new URLSearchParams({ ...(q && { q }), ...(category && { category }), ...(n > 1 && { page: String(n) }) });
    return `/admin/products${params.size ? `?${params}` : ""}`;
  };
  const newButton = web.may(createProduct) ? html`<a class="button" href="/admin/products/new">Nyt produkt</a>` : html``;
  return {
    title: "Produkter",
    main: html`${pageHead("Produkter", { lead: "Sortimentet, som kunderne ser det, og kladder, de ikke ser endnu (slettede produkter genskabes fra ændringsloggen).", actions: newButton })}
<form method="get" action="/admin/products" class="filters" role="search">
${input({ name: "q", label: "Søg", type: "search", value: q, placeholder: "Navn, mærke, farve …" })}
${select({ name: "category", label: "Kategori", value: category, choices: [["", "Alle"], ...categories.map((c): [string, string] => [c.slug, `${c.name} (${c.productCount})`])] })}
<div class="filter-actions"><button class="button" type="submit">Søg</button> <a class="button button-secondary" href="/admin/products">Nulstil</a></div>
</form>
${shown.length ? table("Produkter", ["", "Produkt", "Kategori", "Pris", "Lager"], rows, [3, 4]) : emptyState("Ingen produkter", q ? `Intet matcher "${q}".` : "Der er ingen produkter endnu.")}
${pagination(page, products.length > PAGE_SIZE, href)}`,
  };
}
