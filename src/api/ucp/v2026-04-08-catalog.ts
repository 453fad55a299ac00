// UCP 2026-04-08 catalog capability (dev.ucp.shopping.catalog.search and .lookup): our zod reading of its request and
// response shapes, and the products of products.lookup as the version's products, variants and option signals.
// 2026-01-11 has no catalog; the checkout shapes of the version live in v2026-04-08.ts.
import { z } from "zod";
import type { lookedUpProduct } from "../../tools/products/lookup.ts";
import { MAX_LOOKUP_IDS } from "../../tools/products/lookup.ts";
import { VERSION, type Shop } from "./v2026-04-08.ts";

export const SEARCH = "dev.ucp.shopping.catalog.search";
export const LOOKUP = "dev.ucp.shopping.catalog.lookup";
/** Page sizes: the spec's default, and our bound (larger requests are clamped, as the spec allows). */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
export const MAX_IDS = MAX_LOOKUP_IDS;

// ---------- requests (unknown fields are allowed, as the spec's schemas allow them) ----------

const amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const context = z.looseObject({
  address_country: z.string().max(100).optional(),
  address_region: z.string().max(100).optional(),
  postal_code: z.string().max(20).optional(),
  intent: z.string().max(2000).optional(),
  language: z.string().max(35).optional(),
  currency: z.string().max(3).optional(),
  eligibility: z.array(z.string().max(200)).max(50).optional(),
});
export const filters = z.looseObject({
  categories: z.array(z.string().max(200)).max(20).optional(),
  price: z.looseObject({ min: amount.optional(), max: amount.optional() }).optional(),
});
const selectedOption = z.looseObject({ name: z.string().min(1).max(100), id: z.string().max(100).optional(), label: z.string().max(200) });
const common = { context: context.optional(), signals: z.looseObject({}).optional(), attribution: z.looseObject({}).optional(), filters: filters.optional() };

export const searchRequest = z.looseObject({
  query: z.string().max(200).optional().describe("Free-text search query."),
  ...common,
  pagination: z
    .looseObject({
      cursor: z.string().max(200).optional(),
      limit: z.number().int().min(1).optional().describe(`Page size (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`),
    })
    .optional(),
});
/** At most MAX_IDS ids (more is request_too_large, checked before this reading); ids longer than ours are simply not found. */
export const lookupRequest = z.looseObject({ ids: z.array(z.string().min(1).max(2000)).min(1).max(MAX_IDS), ...common });
/** The longest id a product or variant of this shop has (products.lookup takes no longer ones). */
export const MAX_ID_LENGTH = 100;
export const productRequest = z.looseObject({
  id: z.string().min(1).max(100),
  selected: z
    .array(selectedOption)
    .max(20)
    .refine((list) => new Set(list.map((entry) => entry.name.toLowerCase())).size === list.length, "each option name at most once")
    .optional(),
  preferences: z.array(z.string().max(100)).max(20).optional(),
  ...common,
});

export type Filters = z.infer<typeof filters>;
export type Selection = Array<{ name: string; label: string }>;

// ---------- responses ----------

const price = z.strictObject({ amount, currency: z.string().regex(/^[A-Z]{3}$/) });
const priceRange = z.strictObject({ min: price, max: price });
const description = z.strictObject({ plain: z.string().optional(), html: z.string().optional(), markdown: z.string().optional() }).refine((value) => Object.keys(value).length > 0, "at least one format");
const media = z.strictObject({ type: z.string(), url: z.url(), alt_text: z.string().optional(), width: z.number().int().min(1).optional(), height: z.number().int().min(1).optional() });
export const option = z.strictObject({ name: z.string(), label: z.string(), id: z.string().optional() });
export const variant = z.strictObject({
  id: z.string(),
  sku: z.string().optional(),
  title: z.string(),
  description,
  url: z.url().optional(),
  price,
  availability: z.strictObject({ available: z.boolean().optional(), status: z.string().optional() }).optional(),
  options: z.array(option).optional(),
});
export const product = z.strictObject({
  id: z.string(),
  handle: z.string().optional(),
  title: z.string(),
  description,
  url: z.url().optional(),
  categories: z.array(z.strictObject({ value: z.string(), taxonomy: z.string().optional() })).optional(),
  price_range: priceRange,
  media: z.array(media).optional(),
  options: z.array(z.strictObject({ name: z.string(), values: z.array(z.strictObject({ id: z.string().optional(), label: z.string() })).min(1) })).optional(),
  variants: z.array(variant).min(1),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const message = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("error"), code: z.string(), path: z.string().optional(), content: z.string(), severity: z.enum(["recoverable", "requires_buyer_input", "requires_buyer_review", "unrecoverable"]) }),
  z.strictObject({ type: z.literal("warning"), code: z.string(), path: z.string().optional(), content: z.string() }),
  z.strictObject({ type: z.literal("info"), code: z.string().optional(), path: z.string().optional(), content: z.string() }),
]);
const envelope = (capability: string) =>
  z.strictObject({ version: z.literal(VERSION), status: z.literal("success").optional(), capabilities: z.strictObject({ [capability]: z.array(z.strictObject({ version: z.literal(VERSION) })).min(1) }) });

/** A lookup answer's product: every variant says which request ids resolved to it. */
export const lookupAnswerProduct = product.extend({ variants: z.array(variant.extend({ inputs: z.array(z.strictObject({ id: z.string(), match: z.string().optional() })).min(1) })).min(1) });
/** A get_product answer's product: the effective selections and option signals. */
export const detailAnswerProduct = product.extend({
  selected: z.array(option).optional(),
  options: z.array(z.strictObject({ name: z.string(), values: z.array(z.strictObject({ id: z.string().optional(), label: z.string(), available: z.boolean().optional(), exists: z.boolean().optional() })).min(1) })).optional(),
});

/** Our reading of the search response (catalog_search.json search_response). */
export const searchResponse = z.strictObject({
  ucp: envelope(SEARCH),
  products: z.array(product),
  pagination: z.strictObject({ cursor: z.string().optional(), has_next_page: z.boolean(), total_count: z.number().int().min(0).optional() }).refine((page) => !page.has_next_page || page.cursor !== undefined, "a cursor when has_next_page").optional(),
  messages: z.array(message).optional(),
});

/** Our reading of the lookup response: every variant says which request ids resolved to it. */
export const lookupResponse = z.strictObject({
  ucp: envelope(LOOKUP),
  products: z.array(lookupAnswerProduct),
  messages: z.array(message).optional(),
});

/** Our reading of the get_product response: one detail product with effective selections and option signals. */
export const productResponse = z.strictObject({
  ucp: envelope(LOOKUP),
  product: detailAnswerProduct,
  messages: z.array(message).optional(),
});

/** Our reading of the error response of a catalog operation (get_product of an unknown id): the lookup capability, no resource. */
export const catalogErrorResponse = z.strictObject({
  ucp: envelope(LOOKUP).extend({ status: z.literal("error") }),
  messages: z.array(message).min(1),
});

// ---------- the shop's products as catalog products ----------

type Item = z.output<typeof lookedUpProduct>;
type Message = z.infer<typeof message>;

/** One purchasable unit: a variant, or a product without variants as its own only variant. */
export interface Unit {
  id: string;
  sku?: string;
  title: string;
  options: Selection;
  price: number;
  stock: number;
}

export function units(item: Item): Unit[] {
  if (!item.variants.length) return [{ id: item.id, title: item.name, options: [], price: item.priceDkk, stock: item.stock }];
  return item.variants.map((entry) => {
    const options = Object.entries(entry.attributes).map(([name, label]) => ({ name, label }));
    return { id: entry.id, sku: entry.sku, title: options.map((pair) => pair.label).join(" / ") || entry.sku, options, price: entry.priceDkk ?? item.priceDkk, stock: entry.stock };
  });
}

/** Whether a price passes the price filter (a filter in another currency than the shop's is not applied at all). */
export function inPriceRange(amount: number, filter: Filters["price"]): boolean {
  return (filter?.min === undefined || amount >= filter.min) && (filter?.max === undefined || amount <= filter.max);
}

/** Whether the product is in one of the categories (by the category's name, as responses give it, or its slug). */
export function inCategories(item: Item, categories: readonly string[] | undefined): boolean {
  if (!categories?.length) return true;
  const wanted = new Set(categories.map(fold));
  return wanted.has(fold(item.category.name)) || wanted.has(fold(item.category.slug));
}

/** The variant shown first: the first in stock, else the first. */
export function featured(list: readonly Unit[]): Unit | undefined {
  return list.find((unit) => unit.stock > 0) ?? list[0];
}

const fold = (text: string) => text.trim().toLowerCase();
const same = (a: { name: string; label: string }, b: { name: string; label: string }) => fold(a.name) === fold(b.name) && fold(a.label) === fold(b.label);

/** Whether a unit has every one of the selections. */
export function matches(unit: Unit, selection: Selection): boolean {
  return selection.every((wanted) => unit.options.some((own) => same(own, wanted)));
}

/** Option axes in the order the variants first name them, each value once. */
function axes(list: readonly Unit[]): Array<{ name: string; labels: string[] }> {
  const found: Array<{ name: string; labels: string[] }> = [];
  for (const unit of list) {
    for (const { name, label } of unit.options) {
      let axis = found.find((entry) => entry.name === name);
      if (!axis) found.push((axis = { name, labels: [] }));
      if (!axis.labels.includes(label)) axis.labels.push(label);
    }
  }
  return found;
}

const absolute = (shop: Shop, url: string) => (/^https?:\/\//.test(url) ? url : `${shop.baseUrl}${url.startsWith("/") ? "" : "/"}${url}`);
const productUrl = (shop: Shop, item: Item) => `${shop.baseUrl}/products/${encodeURIComponent(item.slug)}`;

function renderUnit(unit: Unit, item: Item, currency: string, shop: Shop) {
  return {
    id: unit.id,
    ...(unit.sku ? { sku: unit.sku } : {}),
    title: unit.title,
    description: { plain: unit.options.length ? `${item.name} (${unit.title})` : item.name },
    url: productUrl(shop, item),
    price: { amount: unit.price, currency },
    availability: unit.stock > 0 ? { available: true, status: "in_stock" } : { available: false, status: "out_of_stock" },
    ...(unit.options.length ? { options: unit.options } : {}),
  };
}

/** A product with the given variants (the price range spans all of its variants). */
function renderProduct<V>(item: Item, variants: V[], currency: string, shop: Shop) {
  const all = units(item);
  const prices = all.map((unit) => unit.price);
  const found = axes(all);
  const metadata = Object.fromEntries(Object.entries({ brand: item.brand, frame_color: item.frameColor, lens_color: item.lensColor }).filter(([, value]) => value !== null));
  return {
    id: item.id,
    handle: item.slug,
    title: item.name,
    description: { plain: item.description },
    url: productUrl(shop, item),
    categories: [{ value: item.category.name, taxonomy: "merchant" }],
    price_range: { min: { amount: Math.min(...prices), currency }, max: { amount: Math.max(...prices), currency } },
    ...(item.images.length ? { media: item.images.map((url) => ({ type: "image", url: absolute(shop, url), alt_text: item.name })) } : {}),
    ...(found.length ? { options: found.map((axis) => ({ name: axis.name, values: axis.labels.map((label) => ({ label })) })) } : {}),
    variants,
    ...(Object.keys(metadata).length ? { metadata } : {}),
  };
}

/** Variants a search shows per product at most (featured first); options still list every value. */
export const SEARCH_VARIANTS = 10;

/** A search result: the product with its variants within the price filter, featured first; null when none is. */
export function searchProduct(item: Item, currency: string, shop: Shop, price: Filters["price"]) {
  const kept = units(item).filter((unit) => inPriceRange(unit.price, price));
  const first = featured(kept);
  if (!first) return null;
  const ordered = [first, ...kept.filter((unit) => unit !== first)].slice(0, SEARCH_VARIANTS);
  return renderProduct(item, ordered.map((unit) => renderUnit(unit, item, currency, shop)), currency, shop);
}

/**
 * A lookup result: the variants the asked ids resolved to, each with its `inputs` (a variant id: exact; the product's
 * id: its featured variant), within the filters; null when none is.
 */
export function lookupProduct(item: Item, asked: readonly string[], currency: string, shop: Shop, filter: Filters | undefined) {
  if (!inCategories(item, filter?.categories)) return null;
  const kept = units(item).filter((unit) => inPriceRange(unit.price, filter?.price));
  const first = featured(kept);
  const inputs = new Map<Unit, Array<{ id: string; match: string }>>();
  for (const id of asked) {
    const unit = id === item.id ? first : kept.find((candidate) => candidate.id === id);
    if (unit) inputs.set(unit, [...(inputs.get(unit) ?? []), { id, match: id === item.id && item.variants.length ? "featured" : "exact" }]);
  }
  if (!inputs.size) return null;
  const ordered = kept.filter((unit) => inputs.has(unit)).sort((a, b) => Number(b === first) - Number(a === first));
  return renderProduct(item, ordered.map((unit) => ({ ...renderUnit(unit, item, currency, shop), inputs: inputs.get(unit)! })), currency, shop);
}

/**
 * get_product: the product with the featured variant first and the others matching the effective selections, which are
 * the asked variant's options, else the request's `selected` relaxed from the end of `preferences` until a variant
 * matches, else the featured variant's; option values carry availability signals relative to them. Null when the id
 * resolves to no variant within the filters.
 */
export function detailProduct(item: Item, id: string, currency: string, shop: Shop, filter: Filters | undefined, selected: Selection = [], preferences: readonly string[] = []) {
  if (!inCategories(item, filter?.categories)) return null;
  const kept = units(item).filter((unit) => inPriceRange(unit.price, filter?.price));
  let first: Unit | undefined;
  let effective: Selection;
  if (id !== item.id) {
    first = kept.find((unit) => unit.id === id);
    effective = first?.options ?? [];
  } else {
    effective = relax(kept, selected, preferences);
    first = featured(kept.filter((unit) => matches(unit, effective)));
    if (!selected.length) effective = first?.options ?? [];
  }
  if (!first) return null;
  const matching = kept.filter((unit) => unit !== first && matches(unit, effective));
  const found = axes(units(item));
  const signal = (name: string, label: string) => {
    const trial = [...effective.filter((entry) => fold(entry.name) !== fold(name)), { name, label }];
    const hits = kept.filter((unit) => matches(unit, trial));
    return { label, available: hits.some((unit) => unit.stock > 0), exists: hits.length > 0 };
  };
  const base = renderProduct(item, [first, ...matching].map((unit) => renderUnit(unit, item, currency, shop)), currency, shop);
  if (!found.length) return base;
  const named = (entry: { name: string; label: string }) => {
    const axis = found.find((candidate) => fold(candidate.name) === fold(entry.name));
    const label = axis?.labels.find((candidate) => fold(candidate) === fold(entry.label));
    return axis && label !== undefined ? [{ name: axis.name, label }] : [];
  };
  return {
    ...base,
    options: found.map((axis) => ({ name: axis.name, values: axis.labels.map((label) => signal(axis.name, label)) })),
    selected: effective.flatMap(named),
  };
}

/** The selections kept: dropped from the end of the priority order (preferences, then the rest as sent) until a unit matches. */
function relax(list: readonly Unit[], selected: Selection, preferences: readonly string[]): Selection {
  const rank = (name: string, sent: number) => {
    const preferred = preferences.findIndex((candidate) => fold(candidate) === fold(name));
    return preferred === -1 ? preferences.length + sent : preferred;
  };
  const kept = selected
    .map((entry, sent) => ({ entry, rank: rank(entry.name, sent) }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ entry }) => entry);
  while (kept.length && !list.some((unit) => matches(unit, kept))) kept.pop();
  return kept;
}

/** The response envelope of a catalog operation. */
export function envelopeOf(capability: string, status: "success" | "error" = "success") {
  return { version: VERSION, status, capabilities: { [capability]: [{ version: VERSION }] } };
}

export function notFoundInfo(id: string): Message {
  return { type: "info", code: "not_found", content: id };
}

/** get_product of an id that resolves to nothing: an application outcome (200), the lookup capability's error. */
export function productNotFound(id: string) {
  return { ucp: envelopeOf(LOOKUP, "error"), messages: [{ type: "error" as const, code: "not_found", content: `Product not found: ${id}`, severity: "unrecoverable" as const }] };
}

// ---------- cursors ----------

/** An opaque cursor for the next page: the offset into the search's order. */
export function cursorOf(offset: number): string {
  return Buffer.from(`o:${offset}`).toString("base64url");
}

/** The offset a cursor names, or null when it is not one of ours. */
export function offsetOf(cursor: string): number | null {
  const match = /^o:(\d{1,6})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match ? Number(match[1]) : null;
}
