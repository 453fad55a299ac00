// UCP 2026-01-11 over the checkout core, for agents that speak the older version. Line items, fulfilment and orders
// have the same shapes as in 2026-04-08; what differs is the envelope (capabilities as a list), payment (handlers
// declared in each checkout, the instrument sent as payment_data on complete), positive discount totals, the
// severities an error may carry, buyer.full_name, and the discovery profile. Those differences live here.
import { z } from "zod";
import type { Config } from "../../core/config.ts";
import type { PublicJwk } from "../../tools/keys/signing-keys.ts";
import type { SessionView } from "../../tools/checkout/schemas.ts";
import type { OrderView } from "../../tools/checkout/get_order.ts";
import { paymentHandlers } from "../../tools/checkout/sessions.ts";
import * as latest from "./v2026-04-08.ts";

export const VERSION = "2026-01-11";

const CAPABILITIES = ["dev.ucp.shopping.checkout", "dev.ucp.shopping.fulfillment", "dev.ucp.shopping.discount", "dev.ucp.shopping.buyer_consent"];
const SPEC = "https://ucp.dev/specification";
const SCHEMAS = "https://ucp.dev/schemas/shopping";

// ---------- requests ----------

const instrument = z.looseObject({
  id: z.string().max(100).optional(),
  handler_id: z.string().min(1).max(100),
  type: z.string().max(50).optional(),
  brand: z.string().max(50).optional(),
  last_digits: z.string().max(4).optional(),
  credential: z.looseObject({ type: z.string().max(50).optional(), token: z.string().max(2000).optional(), number: z.string().max(19).optional() }).optional(),
});

export const createRequest = latest.createRequest.extend({
  buyer: latest.createRequest.shape.buyer.unwrap().extend({ full_name: z.string().max(200).optional() }).optional(),
// selected_instrument_id may come back null: clients echo the field a response left out.
  payment: z.looseObject({ selected_instrument_id: z.string().max(100).nullish(), instruments: z.array(instrument).max(10).optional() }).optional(),
});
export const updateRequest = createRequest;
const completePayment = z.looseObject({ selected_instrument_id: z.string().max(100).nullish(), instruments: z.array(instrument).min(1).max(10) });
/** Completing names the instrument: as payment_data (the version's own field) or in payment.instruments. */
export const completeRequest = z.union([
  z.looseObject({ payment_data: instrument, payment: completePayment.optional() }),
  z.looseObject({ payment_data: instrument.optional(), payment: completePayment }),
]);

export function toolInput(body: z.infer<typeof createRequest>): latest.SessionFields {
  const input = latest.toolInput(body);
  const fullName = body.buyer?.full_name?.trim();
  if (fullName && body.buyer && !body.buyer.first_name && !body.buyer.last_name) {
    const [first, ...rest] = fullName.split(/\s+/);
    input.buyer = { ...input.buyer, firstName: first, ...(rest.length ? { lastName: rest.join(" ") } : {}) };
  }
  return input;
}

/** checkout.complete's payment from payment_data, or from the selected instrument of payment; null when neither is given. */
export function paymentInput(body: z.infer<typeof completeRequest>) {
  const chosen =
    body.payment_data ??
    body.payment?.instruments.find((candidate) => candidate.id !== undefined && candidate.id === body.payment?.selected_instrument_id) ??
    body.payment?.instruments[0];
  if (!chosen) return null;
  return {
    handlerId: chosen.handler_id,
    ...(chosen.type ? { instrumentType: chosen.type } : {}),
    ...(chosen.credential?.token ? { token: chosen.credential.token } : {}),
    ...(chosen.credential?.type === "card" && chosen.credential.number ? { cardNumber: chosen.credential.number } : {}),
    ...(chosen.brand ? { brand: chosen.brand } : {}),
    ...(chosen.last_digits && /^\d{2,4}$/.test(chosen.last_digits) ? { lastDigits: chosen.last_digits } : {}),
  };
}

// ---------- responses ----------

type Severity = "recoverable" | "requires_buyer_input" | "requires_buyer_review";

/** 2026-01-11 has no "unrecoverable" severity: a refusal the agent cannot fix by API hands over to the buyer. */
function severity(value: string): Severity {
  return value === "unrecoverable" ? "requires_buyer_input" : (value as Severity);
}

function handlers(ids: readonly string[], shop: Pick<latest.Shop, "stripePublishableKey">) {
  return ids.map((id) => ({
    id,
    name: latest.handlerName(id),
    version: VERSION,
    spec: `${SPEC}/payment-handler-guide`,
    config_schema: `${SCHEMAS}/types/payment_handler.json`,
    instrument_schemas: [`${SCHEMAS}/types/card_payment_instrument.json`],
    config: id === "shop_pay" ? { shop_id: "test-shop" } : (latest.handlerDetails(id, shop).config ?? {}),
  }));
}

const envelope = (names: readonly string[]) => ({ version: VERSION, capabilities: names.map((name) => ({ name, version: VERSION })) });

export function checkout(view: SessionView, shop: latest.Shop) {
  const { ucp: _ucp, totals, messages, ...rest } = latest.checkout(view, shop);
  return {
    ucp: envelope(CAPABILITIES),
    ...rest,
    totals: totals.map((entry) => (entry.type === "discount" ? { ...entry, amount: -entry.amount } : entry)),
    messages: messages.map((message) => (message.type === "error" ? { ...message, severity: severity(message.severity) } : message)),
    payment: {
      handlers: handlers(view.payment.handlers, shop),
      ...(view.payment.selected ? { selected_instrument_id: "instr_1", instruments: [instrumentOf(view.payment.selected)] } : { instruments: [] }),
    },
  };
}

/** The instrument a session was paid with, as a 2026-01-11 payment instrument (a card shows its brand and last digits). */
function instrumentOf(selected: NonNullable<SessionView["payment"]["selected"]>) {
  return {
    id: "instr_1",
    handler_id: selected.handlerId,
    type: selected.instrumentType ?? "card",
    ...(selected.brand ? { brand: selected.brand } : {}),
    ...(selected.lastDigits ? { last_digits: selected.lastDigits } : {}),
  };
}

export function order(view: OrderView, shop: latest.Shop) {
  const { ucp: _ucp, totals, ...rest } = latest.order(view, shop);
  return { ucp: envelope(["dev.ucp.shopping.order"]), ...rest, totals: totals.map((entry) => (entry.type === "discount" ? { ...entry, amount: -entry.amount } : entry)) };
}

export function error(code: string, content: string, level: "recoverable" | "requires_buyer_input" | "requires_buyer_review" | "unrecoverable" = "unrecoverable") {
  // `detail` repeats the content at the top level, where this version's reference server puts it.
  return { ucp: { version: VERSION, status: "error" as const }, messages: [{ type: "error" as const, code, content, severity: severity(level) }], detail: content };
}

/**
 * 2026-01-11 answers refusals as HTTP errors (as its reference server does): a declined payment 402, a refused one 403,
 * anything else the agent must fix (unknown item, stock, missing data) 400; 3-D Secure is an outcome (null).
 */
export function refusalStatus(code: string): number | null {
  // A card that needs 3-D Secure is the session handed to the buyer (requires_escalation), as in 2026-04-08.
  if (code === "requires_3ds") return null;
  if (code === "payment_failed") return 402;
  if (code === "payment_refused") return 403;
  return 400;
}

/** A line out of stock makes a create or update 400 in 2026-01-11 (as its reference server answers), not an incomplete session. */
export function sessionRefusal(view: SessionView): { status: number; code: string; content: string } | null {
  const soldOut = view.messages.find((message) => message.type === "error" && message.code === "out_of_stock");
  return soldOut ? { status: 400, code: "out_of_stock", content: `Insufficient stock: ${soldOut.content}` } : null;
}

/** The 2026-01-11 discovery profile (GET /ucp/.well-known/ucp): services by transport, capabilities as a list, handlers. */
export function discoveryProfile(config: Pick<Config, "publicBaseUrl" | "ucpTestMode" | "stripeSecretKey" | "stripePublishableKey">, signingKeys: readonly PublicJwk[] = []) {
  const extensionOf: Record<string, string> = { "dev.ucp.shopping.fulfillment": "fulfillment", "dev.ucp.shopping.discount": "discount", "dev.ucp.shopping.buyer_consent": "buyer_consent" };
  return {
    ucp: {
      version: VERSION,
      services: { "dev.ucp.shopping": { version: VERSION, spec: `${SPEC}/overview`, rest: { schema: "https://ucp.dev/services/shopping/openapi.json", endpoint: `${config.publicBaseUrl}/ucp` }, mcp: { schema: "https://ucp.dev/services/shopping/mcp.openrpc.json", endpoint: `${config.publicBaseUrl}/ucp/mcp` } } },
      capabilities: [...CAPABILITIES, "dev.ucp.shopping.order"].map((name) => ({
        name,
        version: VERSION,
        spec: `${SPEC}/${name.split(".").at(-1)}`,
        schema: `${SCHEMAS}/${extensionOf[name] ?? name.split(".").at(-1)}.json`,
        ...(extensionOf[name] ? { extends: "dev.ucp.shopping.checkout" } : {}),
      })),
    },
    payment: { handlers: handlers(paymentHandlers(config), config) },
    signing_keys: signingKeys,
  };
}

// ---------- our reading of the version's response shapes (tests check the door against them) ----------

const total = z.object({ type: z.enum(["items_discount", "subtotal", "discount", "fulfillment", "tax", "fee", "total"]), display_text: z.string().optional(), amount: z.number().int().min(0) });
const capability = z.object({ name: z.string().regex(/^[a-z][a-z0-9]*(\.[a-z][a-z0-9_]*)+$/), version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });
const errorMessage = z.object({ type: z.literal("error"), code: z.string(), path: z.string().optional(), content: z.string(), severity: z.enum(["recoverable", "requires_buyer_input", "requires_buyer_review"]) });
const paymentHandler = z.object({ id: z.string(), name: z.string(), version: z.string(), spec: z.url(), config_schema: z.url(), instrument_schemas: z.array(z.url()), config: z.record(z.string(), z.unknown()) });

export const checkoutResponse = z.object({
  ucp: z.object({ version: z.literal(VERSION), capabilities: z.array(capability) }),
  id: z.string(),
  line_items: z.array(z.object({ id: z.string(), item: z.object({ id: z.string(), title: z.string(), price: z.number().int().min(0) }), quantity: z.number().int().min(1), totals: z.array(total) })),
  status: z.enum(["incomplete", "requires_escalation", "ready_for_complete", "complete_in_progress", "completed", "canceled"]),
  currency: z.string(),
  totals: z.array(total),
  messages: z.array(z.union([errorMessage, z.object({ type: z.enum(["warning", "info"]), content: z.string() }).loose()])).optional(),
  links: z.array(z.object({ type: z.string(), url: z.url() })),
  payment: z.object({ handlers: z.array(paymentHandler), selected_instrument_id: z.string().optional(), instruments: z.array(z.object({ id: z.string(), handler_id: z.string(), type: z.string() }).loose()).optional() }),
  order: z.object({ id: z.string(), permalink_url: z.url() }).optional(),
});

export const discoveryResponse = z.object({
  ucp: z.object({
    version: z.literal(VERSION),
    services: z.record(z.string(), z.object({ version: z.string(), spec: z.url(), rest: z.object({ schema: z.url(), endpoint: z.url() }).optional(), mcp: z.object({ schema: z.url(), endpoint: z.url() }).optional() })),
    capabilities: z.array(capability.extend({ spec: z.url(), schema: z.url(), extends: z.string().optional() })),
  }),
  payment: z.object({ handlers: z.array(paymentHandler) }),
});
