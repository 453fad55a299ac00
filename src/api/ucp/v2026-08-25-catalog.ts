// UCP 2026-08-25 catalog capability (dev.ucp.shopping.catalog.search and .lookup): our zod reading of the version's
// catalog requests and responses. What changed since 2026-04-08: the shared types moved to common/types (the same
// shapes), responses may carry `policies` (the shop's return, privacy and terms) and `actions`, and variants name
// their option values `options` (as the 2026-04-08 cut already does). Products are shaped by the 2026-04-08 catalog
// module (the same product, variant and option signals); only the envelope and the additions are this version's.
import { z } from "zod";
import * as v0408 from "./v2026-04-08-catalog.ts";
import { envelope, envelopeOf, errorResponse, message, policy, VERSION } from "./v2026-08-25-common.ts";
import { policies, type Shop } from "./v2026-08-25.ts";

export { VERSION };
export const { SEARCH, LOOKUP } = v0408;

// ---------- requests: the same fields as 2026-04-08 (context and signals now common types, read the same) ----------

export const searchRequest = v0408.searchRequest;
export const lookupRequest = v0408.lookupRequest;
export const productRequest = v0408.productRequest;

// ---------- responses ----------

const additions = { messages: z.array(message).optional(), policies: z.array(policy).optional() };

/** Our reading of the 2026-08-25 search response. */
export const searchResponse = z.strictObject({
  ucp: envelope(SEARCH),
  products: z.array(v0408.product),
  pagination: z.strictObject({ cursor: z.string().optional(), has_next_page: z.boolean(), total_count: z.number().int().min(0).optional() }).refine((page) => !page.has_next_page || page.cursor !== undefined, "a cursor when has_next_page").optional(),
  ...additions,
});

/** Our reading of the 2026-08-25 lookup response: every variant says which request ids resolved to it. */
export const lookupResponse = z.strictObject({
  ucp: envelope(LOOKUP),
  products: z.array(v0408.lookupAnswerProduct),
  ...additions,
});

/** Our reading of the 2026-08-25 get_product response. */
export const productResponse = z.strictObject({
  ucp: envelope(LOOKUP),
  product: v0408.detailAnswerProduct,
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
