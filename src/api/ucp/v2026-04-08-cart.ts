// UCP 2026-04-08 cart capability (dev.ucp.shopping.cart): our zod reading of the cart requests and response, and a
// checkout session as a cart — its lines, buyer, estimated totals and line messages, without payment or status. Carts
// are checkout sessions a cart call made; the checkout shapes of the version live in v2026-04-08.ts.
import { z } from "zod";
import type { SessionView } from "../../tools/checkout/schemas.ts";
import * as checkoutShapes from "./v2026-04-08.ts";
import { VERSION, type Shop } from "./v2026-04-08.ts";

export const CART = "dev.ucp.shopping.cart";

// ---------- requests (unknown fields allowed; context, signals and attribution are hints we do not keep) ----------

const { line_items: lineItems, buyer } = checkoutShapes.createRequest.shape;
export const cartRequest = z.looseObject({ line_items: lineItems, buyer, context: z.looseObject({}).optional() });

/** A create_checkout that converts a cart: the cart's contents win, so only the checkout's own fields are read. */
export const conversionRequest = checkoutShapes.createRequest.extend({
  cart_id: z.string().min(1).max(200).describe("A cart to convert: its line items and buyer are used."),
  line_items: z.array(z.unknown()).max(50).optional(),
  buyer: z.unknown().optional(),
});

/** checkout.create / checkout.update fields from a cart: its lines and buyer. */
export function cartInput(body: z.infer<typeof cartRequest>): Pick<checkoutShapes.SessionFields, "lines" | "buyer"> {
  const { lines, buyer: who } = checkoutShapes.toolInput({ line_items: body.line_items, ...(body.buyer ? { buyer: body.buyer } : {}) });
  return { lines, ...(who ? { buyer: who } : {}) };
}

/** checkout.update fields from a conversion: fulfilment and discount codes (lines and buyer are the cart's). */
export function conversionInput(body: z.infer<typeof conversionRequest>): Omit<checkoutShapes.SessionFields, "lines"> {
  const { lines: _cartLines, ...input } = checkoutShapes.toolInput({ ...body, line_items: [], buyer: undefined });
  return input;
}

// ---------- responses ----------

const amount = z.number().int().min(0);
const total = z.strictObject({ type: z.string(), display_text: z.string().optional(), amount: z.number().int() });
const capabilities = z.record(z.string(), z.array(z.strictObject({ version: z.literal(VERSION) })).min(1)).refine((value) => CART in value, "the cart capability");
const messageSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("error"), code: z.string(), path: z.string().optional(), content: z.string(), severity: z.enum(["recoverable", "requires_buyer_input", "requires_buyer_review", "unrecoverable"]) }),
  z.strictObject({ type: z.literal("warning"), code: z.string(), path: z.string().optional(), content: z.string() }),
  z.strictObject({ type: z.literal("info"), code: z.string().optional(), path: z.string().optional(), content: z.string() }),
]);

/** Our reading of the 2026-04-08 cart response (cart.json). */
export const cartResponse = z.strictObject({
  ucp: z.strictObject({ version: z.literal(VERSION), status: z.literal("success").optional(), capabilities }),
  id: z.string(),
  line_items: z.array(z.strictObject({ id: z.string(), item: z.strictObject({ id: z.string(), title: z.string(), price: amount }), quantity: z.number().int().min(1), totals: z.array(total) })),
  buyer: z.looseObject({ first_name: z.string().optional(), last_name: z.string().optional(), email: z.string().optional(), phone_number: z.string().optional() }).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  totals: z
    .array(total)
    .refine((list) => list.filter((entry) => entry.type === "subtotal").length === 1 && list.filter((entry) => entry.type === "total").length === 1, "exactly one subtotal and one total")
    .refine((list) => list.reduce((sum, entry) => (entry.type === "total" ? sum : sum + entry.amount), 0) === list.find((entry) => entry.type === "total")?.amount, "the parts add up to the total"),
  messages: z.array(messageSchema).optional(),
  links: z.array(z.strictObject({ type: z.string(), url: z.url(), title: z.string().optional() })).optional(),
  continue_url: z.url().optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});

/** Our reading of a cart operation's error response (no cart): the cart capability in its envelope. */
export const cartErrorResponse = z.strictObject({
  ucp: z.strictObject({ version: z.literal(VERSION), status: z.literal("error"), capabilities }),
  messages: z.array(messageSchema).min(1),
  continue_url: z.url().optional(),
});

const envelope = (status: "success" | "error") => ({
  version: VERSION,
  status,
  capabilities: { "dev.ucp.shopping.checkout": [{ version: VERSION }], [CART]: [{ version: VERSION }] },
});

/**
 * A checkout session as a cart: what the checkout shows of lines, buyer and totals (estimates: shipping as the
 * session prices it so far), and only the messages about lines (what a checkout still needs is checkout's concern).
 */
export function cart(view: SessionView, shop: Shop) {
  const shown = checkoutShapes.checkout(view, shop);
  const messages = shown.messages.filter((entry) => entry.path?.startsWith("$.line_items"));
  return {
    ucp: envelope("success"),
    id: shown.id,
    line_items: shown.line_items,
    ...(shown.buyer ? { buyer: shown.buyer } : {}),
    currency: shown.currency,
    totals: shown.totals,
    ...(messages.length ? { messages } : {}),
    links: shown.links,
    continue_url: shown.continue_url,
    expires_at: shown.expires_at,
  };
}

/** A cart operation's error response: this code, no cart. */
export function cartError(code: string, content: string, shop: Shop, severity: "recoverable" | "unrecoverable" = "unrecoverable") {
  return { ucp: envelope("error"), messages: [{ type: "error" as const, code, content, severity }], continue_url: `${shop.baseUrl}/` };
}
