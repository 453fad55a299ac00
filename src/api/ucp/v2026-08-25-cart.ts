// UCP 2026-08-25 cart capability (dev.ucp.shopping.cart): our zod reading of the version's cart requests and response,
// and a checkout session as a 2026-08-25 cart. What changed since 2026-04-08: `cart.id` is left out of update bodies
// (the id is the path's or the tool's `id`), line items carry ids of their own (li_…) distinct from their items' ids,
// the buyer's consent is per purpose, carts may carry `policies` and `actions`, and the shared types moved to
// common/types. Carts are checkout sessions a cart call made; the checkout shapes of the version live in v2026-08-25.ts.
import { z } from "zod";
import type { SessionView } from "../../tools/checkout/schemas.ts";
import type { SessionFields } from "./v2026-04-08.ts";
import * as checkoutShapes from "./v2026-08-25.ts";
import { amount, envelope, envelopeOf, errorResponse, link, message, policy, totals, VERSION } from "./v2026-08-25-common.ts";

export { VERSION };
export const CART = "dev.ucp.shopping.cart";
const CHECKOUT = "dev.ucp.shopping.checkout";

// ---------- requests (unknown fields allowed; context, signals and attribution are hints we do not keep) ----------

const { line_items: lineItems, buyer } = checkoutShapes.createRequest.shape;
/** A cart create or update body: line items (full replacement), an optional buyer; no id (the path or tool names it). */
export const cartRequest = z.looseObject({
  line_items: lineItems,
  buyer,
  context: z.looseObject({}).optional(),
  signals: z.looseObject({}).optional(),
  attribution: z.looseObject({}).optional(),
});

/** A create_checkout that converts a cart: the cart's contents win, so only the checkout's own fields are read. */
export const conversionRequest = checkoutShapes.createRequest.extend({
  cart_id: z.string().min(1).max(200).describe("A cart to convert: its line items and buyer are used."),
  line_items: z.array(z.unknown()).max(50).optional(),
  buyer: z.unknown().optional(),
});

/** checkout.create / checkout.update fields from a cart: its lines and buyer. */
export function cartInput(body: z.infer<typeof cartRequest>): Pick<SessionFields, "lines" | "buyer"> {
  const { lines, buyer: who } = checkoutShapes.toolInput({ line_items: body.line_items, ...(body.buyer ? { buyer: body.buyer } : {}) });
  return { lines, ...(who ? { buyer: who } : {}) };
}

/** checkout.update fields from a conversion: fulfilment and discount codes (lines and buyer are the cart's). */
export function conversionInput(body: z.infer<typeof conversionRequest>): Omit<SessionFields, "lines"> {
  const { cart_id: _cart, buyer: _buyer, line_items: _lines, ...rest } = body;
  const { lines: _cartLines, ...input } = checkoutShapes.toolInput({ ...rest, line_items: [] });
  return input;
}

// ---------- responses ----------

const consent = z.record(z.string(), z.strictObject({ granted: z.boolean(), source: z.enum(["business", "platform"]), description: z.string() }));

/** Our reading of the 2026-08-25 cart response (cart.json). */
export const cartResponse = z.strictObject({
  ucp: envelope(CART),
  id: z.string(),
  line_items: z.array(
    z
      .strictObject({ id: z.string(), item: z.strictObject({ id: z.string(), title: z.string(), price: amount }), quantity: z.number().int().min(1), totals: z.array(z.strictObject({ type: z.string(), display_text: z.string().optional(), amount: z.number().int() })) })
      .refine((line) => line.id !== line.item.id, "a line's id is its own, not its item's"),
  ),
  buyer: z.strictObject({ first_name: z.string().optional(), last_name: z.string().optional(), email: z.string().optional(), phone_number: z.string().optional(), consent: consent.optional() }).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  totals,
  messages: z.array(message).optional(),
  links: z.array(link).optional(),
  policies: z.array(policy).optional(),
  continue_url: z.url().optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});

/** Our reading of a cart operation's error response at this version (no cart). */
export const cartErrorResponse = errorResponse(CART);

/**
 * A checkout session as a 2026-08-25 cart: what the checkout shows of lines, buyer and totals (estimates), the shop's
 * policies, and only the messages about lines (what a checkout still needs is checkout's concern).
 */
export function cart(view: SessionView, shop: checkoutShapes.Shop) {
  const shown = checkoutShapes.checkout(view, shop);
  const messages = shown.messages.filter((entry) => entry.path?.startsWith("$.line_items"));
  return {
    ucp: envelopeOf([CHECKOUT, CART]),
    id: shown.id,
    line_items: shown.line_items,
    ...(shown.buyer ? { buyer: shown.buyer } : {}),
    currency: shown.currency,
    totals: shown.totals,
    ...(messages.length ? { messages } : {}),
    links: shown.links,
    ...(shown.policies.length ? { policies: shown.policies } : {}),
    continue_url: shown.continue_url,
    expires_at: shown.expires_at,
  };
}

/** A cart operation's error response: this code, no cart. */
export function cartError(code: string, content: string, shop: checkoutShapes.Shop, severity: "recoverable" | "unrecoverable" = "unrecoverable") {
  return { ucp: envelopeOf([CHECKOUT, CART], "error"), messages: [{ type: "error" as const, code, content, severity }], continue_url: `${shop.baseUrl}/` };
}
