// UCP 2026-08-25 catalog capability (dev.ucp.shopping.catalog.search and .lookup): our zod reading of the version's
// catalog requests and responses. What changed since 2026-04-08: the shared types moved to common/types (the same
// shapes), responses may carry `policies` (the shop's return, privacy and terms) and `actions`, and variants name
// their option values `options` (as the 2026-04-08 cut already does). Products are shaped by the 2026-04-08 catalog
// module (the same product, variant and option signals); only the envelope and the additions are this version's.
import { z } from "zod";
import * as v0408 from "./v2026-04-08-catalog.ts";
import { description, envelope, envelopeOf, errorResponse, media, message, policy, price, priceRange, VERSION } from "./v2026-08-25-common.ts";
import { policies, type Shop } from "./v2026-08-25.ts";

export { VERSION };
export const { SEARCH, LOOKUP } = v0408;

// ---------- requests: the same fields as 2026-04-08 (context and signals now common types, read the same) ----------

export const searchRequest = v0408.searchRequest;
export const lookupRequest = v0408.lookupRequest;
export const productRequest = v0408.productRequest;

// ---------- responses ----------

const option = z.strictObject({ name: z.string(), label: z.string(), id: z.string().optional() });
const variant = z.strictObject({
  id: z.string(),
  sku: z.string().optional(),
  title: z.string(),
  description,
  url: z.url().optional(),
  price,
  availability: z.strictObject({ available: z.boolean().optional(), status: z.string().optional() }).optional(),
  /** The option values that define the variant (2026-08-25: `options`, never `selected_options`). */
  options: z.array(option).optional(),
});
const product = z.strictObject({
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
const additions = { messages: z.array(message).optional(), policies: z.array(policy).optional() };

/** Our reading of the 2026-08-25 search response. */
export const searchResponse = z.strictObject({
  ucp: envelope(SEARCH),
  products: z.array(product),
  pagination: z.strictObject({ cursor: z.string().optional(), has_next_page: z.boolean(), total_count: z.number().int().min(0).optional() }).refine((page) => !page.has_next_page || page.cursor !== undefined, "a cursor when has_next_page").optional(),
  ...additions,
});

/** Our reading of the 2026-08-25 lookup response: every variant says which request ids resolved to it. */
export const lookupResponse = z.strictObject({
  ucp: envelope(LOOKUP),
  products: z.array(product.extend({ variants: z.array(variant.extend({ inputs: z.array(z.strictObject({ id: z.string(), match: z.string().optional() })).min(1) })).min(1) })),
  ...additions,
});

/** Our reading of the 2026-08-25 get_product response. */
export const productResponse = z.strictObject({
  ucp: envelope(LOOKUP),
  product: product.extend({
    selected: z.array(option).optional(),
    options: z.array(z.strictObject({ name: z.string(), values: z.array(z.strictObject({ id: z.string().optional(), label: z.string(), available: z.boolean().optional(), exists: z.boolean().optional() })).min(1) })).optional(),
  }),
  ...additions,
});

/** Our reading of a catalog operation's error response at this version. */
export const catalogErrorResponse = errorResponse(LOOKUP);

// ---------- answers ----------

/** A catalog answer of `capability`: this version's envelope, the body, and the shop's policies when it has them. */
export function answer(capability: string, body: Record<string, unknown>, shop: Shop): Record<string, unknown> {
  const shown = policies(shop);
  return { ucp: envelopeOf([capability]), ...body, ...(shown.length ? { policies: shown } : {}) };
}

/** get_product of an id that resolves to nothing: an application outcome (200), the lookup capability's error. */
export function productNotFound(id: string) {
  return { ucp: envelopeOf([LOOKUP], "error"), messages: [{ type: "error" as const, code: "not_found", content: `Product not found: ${id}`, severity: "unrecoverable" as const }] };
}
