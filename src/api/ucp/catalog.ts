// The catalog operations of UCP 2026-04-08 and 2026-08-25 (search, batch lookup, product detail), shared by the REST and
// MCP bindings: products.search finds and orders, products.lookup gives the products with variants and the shop's
// currency, both through the executor; the version's catalog module reads the request and shapes the answer (products
// by the 2026-04-08 module, the envelope and additions by the version's). Anonymous reads, budgeted like the whole door.
import listCategories from "../../tools/categories/list.ts";
import getSafety from "../../tools/products/get_safety.ts";
import lookupProducts from "../../tools/products/lookup.ts";
import searchProducts from "../../tools/products/search.ts";
import { invoke, parse, type Answer, type UcpCall } from "./operations.ts";
import { UcpError } from "./errors.ts";
import * as catalog from "./v2026-04-08-catalog.ts";
import * as catalog0825 from "./v2026-08-25-catalog.ts";
import { VERSION } from "./v2026-04-08.ts";
import type { Shop } from "./v2026-08-25.ts";

/** A version's catalog wire: its readings of the three requests and its answers. */
interface CatalogWire {
  version: string;
  searchRequest: typeof catalog.searchRequest;
  lookupRequest: typeof catalog.lookupRequest;
  productRequest: typeof catalog.productRequest;
  answer(capability: string, body: Record<string, unknown>, shop: Shop): Record<string, unknown>;
  productNotFound(id: string): unknown;
}

const WIRES: Record<string, CatalogWire> = {
  [VERSION]: {
    version: VERSION,
    searchRequest: catalog.searchRequest,
    lookupRequest: catalog.lookupRequest,
    productRequest: catalog.productRequest,
    answer: (capability, body) => ({ ucp: catalog.envelopeOf(capability), ...body }),
    productNotFound: catalog.productNotFound,
  },
  [catalog0825.VERSION]: {
    version: catalog0825.VERSION,
    searchRequest: catalog0825.searchRequest,
    lookupRequest: catalog0825.lookupRequest,
    productRequest: catalog0825.productRequest,
    answer: catalog0825.answer,
    productNotFound: catalog0825.productNotFound,
  },
};

/** products.search pages no further than this offset. */
const MAX_OFFSET = 10_000;

type Warning = { type: "warning"; code: string; content: string };

export const catalogOperations = {
  async search(call: UcpCall, body: unknown): Promise<Answer> {
    const wire = wireOf(call);
    const request = parse(wire.searchRequest, body, wire.version);
    const query = request.query?.trim() || undefined;
    const { categories, price } = request.filters ?? {};
    if (!query && !categories?.length && !price) throw new UcpError(400, "invalid_request", "A search needs a query or filters (categories, price).");
    const cursor = request.pagination?.cursor;
    const offset = cursor === undefined ? 0 : catalog.offsetOf(cursor);
    if (offset === null || offset > MAX_OFFSET) throw new UcpError(400, "invalid_request", "pagination.cursor is not a cursor of this catalog.");
    const limit = Math.min(request.pagination?.limit ?? catalog.DEFAULT_LIMIT, catalog.MAX_LIMIT);

    const messages: Warning[] = [];
    const priceFilter = price && request.context?.currency ? await priceIn(call, request.context.currency, price, messages) : price;
    const answer = (products: unknown[], next: number | null) => ({
      status: 200,
      body: wire.answer(
        catalog.SEARCH,
        {
          products,
          pagination: next === null ? { has_next_page: false } : { cursor: catalog.cursorOf(next), has_next_page: true },
          ...(messages.length ? { messages } : {}),
        },
        call.shop,
      ),
    });

    let categorySlug: string | undefined;
    if (categories?.length) {
      const slugs = await categorySlugs(call, categories);
      if (!slugs.length) return answer([], null);
      if (slugs.length > 1) throw new UcpError(400, "invalid_request", "filters.categories: this catalog searches one category at a time.");
      categorySlug = slugs[0];
    }
    const found = await invoke(call, searchProducts, {
      ...(query ? { q: query } : {}),
      ...(categorySlug ? { categorySlug } : {}),
      ...(priceFilter?.min !== undefined ? { minPriceOere: priceFilter.min } : {}),
      ...(priceFilter?.max !== undefined ? { maxPriceOere: priceFilter.max } : {}),
      limit: limit + 1,
      offset,
    });
    const page = found.slice(0, limit);
    const next = found.length > limit && offset + limit <= MAX_OFFSET ? offset + limit : null;
    if (!page.length) return answer([], next);
    const looked = await invoke(call, lookupProducts, { ids: page.map((entry) => entry.id) });
    const products = looked.products.flatMap((item) => catalog.searchProduct(item, looked.currency, call.shop, priceFilter) ?? []);
    return answer(products, next);
  },

  async lookup(call: UcpCall, body: unknown): Promise<Answer> {
    const wire = wireOf(call);
    const ids = (body as { ids?: unknown } | null)?.ids;
    if (Array.isArray(ids) && ids.length > catalog.MAX_IDS) throw new UcpError(400, "request_too_large", `A lookup takes at most ${catalog.MAX_IDS} ids.`);
    const request = parse(wire.lookupRequest, body, wire.version);
    const asked = [...new Set(request.ids)];
    const ours = asked.filter((id) => id.length <= catalog.MAX_ID_LENGTH);
    const looked = ours.length ? await invoke(call, lookupProducts, { ids: ours }) : null;
    const warnings: Warning[] = [];
    const filter = looked ? applicable(request.filters, request.context?.currency, looked.currency, warnings) : undefined;
    const products = looked?.products.flatMap((item) => catalog.lookupProduct(item, asked, looked.currency, call.shop, filter) ?? []) ?? [];
    const missing = asked.filter((id) => id.length > catalog.MAX_ID_LENGTH || looked?.notFound.includes(id));
    const messages = [...warnings, ...missing.map(catalog.notFoundInfo)];
    return { status: 200, body: wire.answer(catalog.LOOKUP, { products, ...(messages.length ? { messages } : {}) }, call.shop) };
  },

  async product(call: UcpCall, body: unknown): Promise<Answer> {
    const wire = wireOf(call);
    const request = parse(wire.productRequest, body, wire.version);
    const looked = await invoke(call, lookupProducts, { ids: [request.id] });
    const item = looked.products[0];
    const messages: Warning[] = [];
    const filter = applicable(request.filters, request.context?.currency, looked.currency, messages);
    const selected = (request.selected ?? []).map(({ name, label }) => ({ name, label }));
    const product = item && catalog.detailProduct(item, request.id, looked.currency, call.shop, filter, selected, request.preferences);
    if (!product) return { status: 200, body: wire.productNotFound(request.id) };
    const safety = await productSafety(call, item.id);
    const detailed = safety ? { ...product, metadata: { ...product.metadata, product_safety: safety } } : product;
    return { status: 200, body: wire.answer(catalog.LOOKUP, { product: detailed, ...(messages.length ? { messages } : {}) }, call.shop) };
  },
};

/**
 * The product's safety information (GPSR art. 19) for the product detail: UCP's product has no field for it, so it goes
 * in `metadata` ("business-defined custom data"), in the protocol's snake_case; search and lookup leave it out.
 */
async function productSafety(call: UcpCall, productId: string) {
  const safety = await invoke(call, getSafety, { productId });
  if (!safety) return null;
  return {
    manufacturer: safety.manufacturer,
    ...(safety.euResponsible ? { eu_responsible_person: safety.euResponsible } : {}),
    ...(safety.warnings ? { warnings: safety.warnings } : {}),
  };
}

/** The catalog wire of the call's version; 2026-01-11 defines no catalog: its agents are told which versions have one. */
function wireOf(call: UcpCall): CatalogWire {
  const wire = WIRES[call.adapter.version];
  if (!wire) throw new UcpError(422, "version_unsupported", `The catalog capability needs UCP ${Object.keys(WIRES).join(" or ")}; this request negotiated ${call.adapter.version}.`);
  return wire;
}

/** The filters as applied: a price filter in another currency than the shop's is left out, with a warning saying so. */
function applicable(filters: catalog.Filters | undefined, asked: string | undefined, currency: string, messages: Warning[]): catalog.Filters | undefined {
  if (!filters?.price || !asked || asked.toUpperCase() === currency) return filters;
  messages.push(ignoredPrice(asked, currency));
  return { ...filters, price: undefined };
}

function ignoredPrice(asked: string, currency: string): Warning {
  return { type: "warning", code: "price_filter_ignored", content: `Prices are in ${currency}; the price filter in ${asked.slice(0, 3)} was not applied.` };
}

/** A search's price filter when the agent named its currency: kept if it is the shop's, else dropped with a warning. */
async function priceIn(call: UcpCall, asked: string, price: NonNullable<catalog.Filters["price"]>, messages: Warning[]) {
  const [any] = await invoke(call, searchProducts, { limit: 1 });
  if (!any) return price;
  const { currency } = await invoke(call, lookupProducts, { ids: [any.id] });
  if (asked.toUpperCase() === currency) return price;
  messages.push(ignoredPrice(asked, currency));
  return undefined;
}

/** The slugs of the categories named (by name or slug, any case), each once. */
async function categorySlugs(call: UcpCall, names: readonly string[]): Promise<string[]> {
  const all = await invoke(call, listCategories, {});
  const wanted = new Set(names.map((name) => name.trim().toLowerCase()));
  return all.filter((category) => wanted.has(category.name.toLowerCase()) || wanted.has(category.slug.toLowerCase())).map((category) => category.slug);
}
