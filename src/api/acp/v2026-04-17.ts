// ACP 2026-04-17 (Agentic Commerce Protocol, agentic checkout) over the checkout core: our zod reading of the version's
// request and response shapes, and the translations between them and the checkout.* tools' inputs and results.
// Nothing here decides a business rule.
import { z } from "zod";
import { CANCEL_REASONS, type IntentTrace, type SessionView } from "../../tools/checkout/schemas.ts";
import type createCheckout from "../../tools/checkout/create.ts";

/** The session fields a request body sets: checkout.create's input less what the door itself adds (its protocol). */
type SessionFields = Omit<z.input<typeof createCheckout.input>, "protocol" | "protocolVersion">;

export const VERSION = "2026-04-17";

// ---------- requests (closed objects, as the version's schemas are) ----------

const text = (max: number) => z.string().max(max);
const address = z.strictObject({
  name: text(200),
  line_one: text(200),
  line_two: text(200).optional(),
  city: text(100),
  state: text(100),
  country: text(60),
  postal_code: text(20),
  company: text(200).optional(),
});
const buyer = z.strictObject({
  first_name: text(100).optional(),
  last_name: text(100).optional(),
  full_name: text(200).optional(),
  email: z.email().max(254),
  phone_number: text(40).optional(),
  customer_id: text(100).optional(),
  account_type: z.enum(["guest", "registered", "business"]).optional(),
  authentication_status: z.enum(["authenticated", "guest", "requires_signin"]).optional(),
  company: z.record(z.string(), z.unknown()).optional(),
  loyalty: z.record(z.string(), z.unknown()).optional(),
  tax_exemption: z.record(z.string(), z.unknown()).optional(),
});
const fulfillmentDetails = z.strictObject({
  name: text(200).optional(),
  phone_number: text(40).optional(),
  email: z.email().max(254).optional(),
  address: address.optional(),
});
/** One unit of an item; a buyer wanting several repeats it (some agents send `quantity`, which we also take). */
const item = z.strictObject({
  id: z.string().min(1).max(100),
  name: text(500).optional(),
  unit_amount: z.number().int().optional(),
  quantity: z.number().int().min(1).max(100).optional(),
});
const capabilities = z.record(z.string(), z.unknown());
const selectedOption = z.strictObject({
  type: z.enum(["shipping", "digital", "pickup", "local_delivery"]),
  option_id: z.string().min(1).max(100),
  item_ids: z.array(z.string().max(100)).max(100),
});
const coupons = z.array(z.string().max(64)).max(10);
const discountsRequest = z.strictObject({ codes: coupons.optional() });
const extras = {
  fulfillment_groups: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
  discounts: discountsRequest.optional(),
  coupons: coupons.optional(),
  order_notes: text(2000).optional(),
};

export const createRequest = z.strictObject({
  buyer: buyer.optional(),
  line_items: z.array(item).min(1).max(200),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "An ISO 4217 code"),
  fulfillment_details: fulfillmentDetails.optional(),
  capabilities,
  affiliate_attribution: z.record(z.string(), z.unknown()).optional(),
  locale: text(35).optional(),
  timezone: text(64).optional(),
  quote_id: text(100).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  ...extras,
});
export const updateRequest = z.strictObject({
  buyer: buyer.optional(),
  line_items: z.array(item).min(1).max(200).optional(),
  fulfillment_details: fulfillmentDetails.optional(),
  selected_fulfillment_options: z.array(selectedOption).max(10).optional(),
  ...extras,
});
const paymentData = z
  .strictObject({
    handler_id: z.string().min(1).max(100).optional(),
    instrument: z
      .looseObject({
        type: z.string().min(1).max(50),
        credential: z.looseObject({ type: z.string().min(1).max(50), token: z.string().min(1).max(2000) }),
      })
      .optional(),
    billing_address: address.optional(),
    purchase_order_number: text(100).optional(),
    payment_terms: z.enum(["immediate", "net_15", "net_30", "net_60", "net_90"]).optional(),
    due_date: z.iso.datetime({ offset: true }).optional(),
    approval_required: z.boolean().optional(),
  })
  .refine((data) => (data.handler_id !== undefined && data.instrument !== undefined) || data.purchase_order_number !== undefined, {
    message: "payment_data needs handler_id and instrument (or a purchase_order_number)",
  });
export const completeRequest = z.strictObject({
  buyer: buyer.optional(),
  payment_data: paymentData,
  authentication_result: z.record(z.string(), z.unknown()).optional(),
  affiliate_attribution: z.record(z.string(), z.unknown()).optional(),
  risk_signals: z.record(z.string(), z.unknown()).optional(),
  marketing_consents: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
  order_notes: text(2000).optional(),
});
export const intentTrace = z.strictObject({
  reason_code: z.enum(CANCEL_REASONS),
  trace_summary: text(2000).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export const cancelRequest = z.strictObject({ intent_trace: intentTrace.optional() });

export type CreateRequest = z.infer<typeof createRequest>;
export type UpdateRequest = z.infer<typeof updateRequest>;
export type CompleteRequest = z.infer<typeof completeRequest>;

// ---------- request → checkout tool input ----------

/** Repeated items are units of one line; order of first appearance is kept. */
function lines(items: z.infer<typeof item>[]): Array<{ itemId: string; quantity: number }> {
  const counted = new Map<string, number>();
  for (const entry of items) counted.set(entry.id, (counted.get(entry.id) ?? 0) + (entry.quantity ?? 1));
  return [...counted].map(([itemId, quantity]) => ({ itemId, quantity }));
}

function buyerInput(given: z.infer<typeof buyer> | undefined, details: z.infer<typeof fulfillmentDetails> | undefined): SessionFields["buyer"] {
  if (!given && !details?.email && !details?.phone_number) return undefined;
  const [first, ...rest] = (given?.full_name ?? details?.name ?? "").trim().split(/\s+/);
  const firstName = given?.first_name ?? (given?.full_name ? first : undefined);
  const lastName = given?.last_name ?? (given?.full_name && rest.length ? rest.join(" ") : undefined);
  const email = given?.email ?? details?.email;
  const phone = given?.phone_number ?? details?.phone_number;
  return { ...(firstName ? { firstName } : {}), ...(lastName ? { lastName } : {}), ...(email ? { email } : {}), ...(phone ? { phone } : {}) };
}

function destinationInput(details: z.infer<typeof fulfillmentDetails> | undefined): SessionFields["destination"] {
  const given = details?.address;
  if (!given) return undefined;
  return {
    ...(given.name ? { name: given.name } : details?.name ? { name: details.name } : {}),
    ...(given.line_one ? { street: given.line_one } : {}),
    ...(given.line_two ? { extended: given.line_two } : {}),
    ...(given.postal_code ? { postalCode: given.postal_code } : {}),
    ...(given.city ? { city: given.city } : {}),
    ...(given.state ? { region: given.state } : {}),
    country: given.country.toUpperCase(),
  };
}

/** The fields of checkout.create / checkout.update an ACP create or update body sets. */
export function toolInput(body: CreateRequest): SessionFields;
export function toolInput(body: UpdateRequest): Partial<SessionFields>;
export function toolInput(body: CreateRequest | UpdateRequest): Partial<SessionFields> {
  const input: Partial<SessionFields> = {};
  if (body.line_items) input.lines = lines(body.line_items);
  const buyerFields = buyerInput(body.buyer, body.fulfillment_details);
  if (buyerFields) input.buyer = buyerFields;
  const destination = destinationInput(body.fulfillment_details);
  if (destination) input.destination = destination;
  if ("selected_fulfillment_options" in body && body.selected_fulfillment_options?.[0]) input.fulfillmentOptionId = body.selected_fulfillment_options[0].option_id;
  const codes = body.discounts?.codes ?? body.coupons;
  if (codes) input.discountCodes = codes;
  return input;
}

/** checkout.cancel's intent trace from the cancel body's (metadata is read, not kept). */
export function traceInput(body: z.infer<typeof cancelRequest>): IntentTrace | undefined {
  const trace = body.intent_trace;
  return trace ? { reasonCode: trace.reason_code, ...(trace.trace_summary ? { summary: trace.trace_summary } : {}) } : undefined;
}

/** checkout.complete's payment from payment_data: the handler and its credential, or the invoice (payment link). */
export function paymentInput(body: CompleteRequest): { handlerId: string; instrumentType?: string; token?: string } {
  const data = body.payment_data;
  if (!data.handler_id || !data.instrument) return { handlerId: "payment_link", instrumentType: "invoice" };
  return { handlerId: data.handler_id, instrumentType: data.instrument.type, token: data.instrument.credential.token };
}

// ---------- responses ----------

const TOTAL_TYPES = ["items_base_amount", "items_discount", "subtotal", "discount", "fulfillment", "tax", "fee", "gift_wrap", "tip", "store_credit", "total", "amount_refunded"] as const;
const total = z.strictObject({ type: z.enum(TOTAL_TYPES), display_text: z.string(), amount: z.number().int(), description: z.string().optional() });
const RESOLUTIONS = ["recoverable", "requires_buyer_input", "requires_buyer_review"] as const;
const ERROR_CODES = ["missing", "invalid", "out_of_stock", "payment_declined", "requires_sign_in", "requires_3ds", "low_stock", "quantity_exceeded", "coupon_invalid", "coupon_expired", "minimum_not_met", "maximum_exceeded", "region_restricted", "age_verification_required", "approval_required", "unsupported", "not_found", "conflict", "rate_limited", "expired", "intervention_required"] as const;
const WARNING_CODES = ["low_stock", "high_demand", "shipping_delay", "price_change", "expiring_promotion", "limited_availability", "discount_code_expired", "discount_code_invalid", "discount_code_already_applied", "discount_code_combination_disallowed", "discount_code_minimum_not_met", "discount_code_user_not_logged_in", "discount_code_user_ineligible", "discount_code_usage_limit_reached"] as const;
const messageBase = { severity: z.enum(["info", "low", "medium", "high", "critical"]).optional(), resolution: z.enum(RESOLUTIONS).optional(), param: z.string().optional(), content_type: z.enum(["plain", "markdown"]), content: z.string() };
const messageSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("info"), ...messageBase }),
  z.strictObject({ type: z.literal("warning"), code: z.enum(WARNING_CODES), ...messageBase }),
  z.strictObject({ type: z.literal("error"), code: z.enum(ERROR_CODES), ...messageBase }),
]);
export type AcpMessage = z.infer<typeof messageSchema>;
const addressOut = z.strictObject({ name: z.string(), line_one: z.string(), line_two: z.string().optional(), city: z.string(), state: z.string(), country: z.string(), postal_code: z.string() });
const paymentHandler = z.strictObject({
  id: z.string(),
  name: z.string(),
  display_name: z.string().optional(),
  version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  spec: z.url(),
  requires_delegate_payment: z.boolean(),
  requires_pci_compliance: z.boolean(),
  psp: z.string(),
  config_schema: z.url(),
  instrument_schemas: z.array(z.url()),
  config: z.record(z.string(), z.unknown()),
});
const STATUSES = ["incomplete", "not_ready_for_payment", "requires_escalation", "authentication_required", "ready_for_payment", "pending_approval", "complete_in_progress", "completed", "canceled", "in_progress", "expired"] as const;
const datetime = z.iso.datetime({ offset: true });

const lineItemReference = z.strictObject({ id: z.string(), quantity: z.number().int().min(1) });
const estimatedDelivery = z.strictObject({ earliest: datetime, latest: datetime });
/** Order statuses the version defines (agents must accept others; we send only these). */
const ORDER_STATUSES = ["created", "confirmed", "manual_review", "processing", "shipped", "completed", "canceled"] as const;

/** Our reading of the 2026-04-17 Order (in CheckoutSessionWithOrder, and the full object in order webhooks). */
export const order = z.strictObject({
  type: z.literal("order").optional(),
  id: z.string(),
  checkout_session_id: z.string(),
  order_number: z.string().optional(),
  permalink_url: z.url(),
  status: z.enum(ORDER_STATUSES).optional(),
  estimated_delivery: estimatedDelivery.optional(),
  line_items: z
    .array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        product_id: z.string().optional(),
        quantity: z.strictObject({ ordered: z.number().int().min(1), current: z.number().int().min(0), fulfilled: z.number().int().min(0).optional() }),
        unit_price: z.number().int().optional(),
        subtotal: z.number().int().optional(),
        status: z.enum(["processing", "partial", "fulfilled", "removed"]).optional(),
      }),
    )
    .optional(),
  fulfillments: z
    .array(
      z.strictObject({
        id: z.string(),
        type: z.enum(["shipping", "pickup", "digital"]),
        status: z.enum(["pending", "processing", "shipped", "in_transit", "out_for_delivery", "ready_for_pickup", "delivered", "failed", "canceled"]).optional(),
        line_items: z.array(lineItemReference).optional(),
        carrier: z.string().optional(),
        tracking_number: z.string().optional(),
        tracking_url: z.url().optional(),
        destination: addressOut.optional(),
        estimated_delivery: estimatedDelivery.optional(),
        description: z.string().optional(),
        events: z.array(z.strictObject({ id: z.string(), type: z.string(), occurred_at: datetime, description: z.string().optional(), location: z.string().optional() })).optional(),
      }),
    )
    .optional(),
  adjustments: z
    .array(
      z.strictObject({
        id: z.string(),
        type: z.string(),
        occurred_at: datetime,
        status: z.enum(["pending", "completed", "failed"]),
        line_items: z.array(lineItemReference).optional(),
        amount: z.number().int().optional(),
        currency: z.string().regex(/^[a-z]{3}$/).optional(),
        description: z.string().optional(),
        reason: z.string().optional(),
      }),
    )
    .optional(),
  totals: z.array(total).optional(),
});

/** Our reading of the webhook body (openapi.agentic_checkout_webhook WebhookEvent): the whole order, typed "order". */
export const webhookEvent = z.strictObject({
  type: z.enum(["order_create", "order_update"]),
  data: order.extend({ type: z.literal("order"), status: z.enum(ORDER_STATUSES) }),
});

/** Our reading of the 2026-04-17 CheckoutSession (the fields this shop fills; every one the schema knows). */
export const checkoutSession = z.strictObject({
  id: z.string(),
  protocol: z.strictObject({ version: z.literal(VERSION) }).optional(),
  capabilities: z.strictObject({ payment: z.strictObject({ handlers: z.array(paymentHandler) }).optional() }),
  buyer: z.strictObject({ first_name: z.string().optional(), last_name: z.string().optional(), email: z.email(), phone_number: z.string().optional() }).optional(),
  status: z.enum(STATUSES),
  currency: z.string().regex(/^[a-z]{3}$/),
  locale: z.string().optional(),
  line_items: z.array(
    z.strictObject({
      id: z.string(),
      item: z.strictObject({ id: z.string(), name: z.string().optional(), unit_amount: z.number().int().optional() }),
      quantity: z.number().int().min(1),
      name: z.string().optional(),
      unit_amount: z.number().int().optional(),
      product_id: z.string().optional(),
      variant_id: z.string().optional(),
      totals: z.array(total),
    }),
  ),
  fulfillment_details: z.strictObject({ name: z.string().optional(), phone_number: z.string().optional(), email: z.email().optional(), address: addressOut.optional() }).optional(),
  fulfillment_options: z.array(
    z.strictObject({ type: z.literal("shipping"), id: z.string(), title: z.string(), description: z.string().optional(), carrier: z.string().optional(), totals: z.array(total) }),
  ),
  selected_fulfillment_options: z.array(selectedOption).optional(),
  totals: z
    .array(total)
    .refine((list) => list.filter((entry) => entry.type === "total").length === 1, "exactly one total")
    .refine((list) => list.find((entry) => entry.type === "total")!.amount === list.filter((entry) => entry.type !== "total" && entry.type !== "items_base_amount").reduce((sum, entry) => sum + entry.amount, 0), "the total is the sum of the others"),
  messages: z.array(messageSchema),
  links: z.array(z.strictObject({ type: z.enum(["terms_of_use", "privacy_policy", "return_policy", "shipping_policy", "contact_us", "about_us", "faq", "support"]), title: z.string().optional(), url: z.url() })),
  created_at: datetime.optional(),
  updated_at: datetime.optional(),
  expires_at: datetime.optional(),
  continue_url: z.url().optional(),
  discounts: z.looseObject({ codes: z.array(z.string()).optional() }).optional(),
  order: order.optional(),
});
/** CheckoutSessionWithOrder: the completed session with its order. */
export const checkoutSessionWithOrder = checkoutSession.extend({ order });

/** Our reading of the flat protocol error. */
export const errorBody = z.strictObject({
  type: z.enum(["invalid_request", "processing_error", "service_unavailable"]),
  code: z.string(),
  message: z.string(),
  param: z.string().optional(),
  supported_versions: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export interface Shop {
  /** PUBLIC_BASE_URL: links and permalinks are absolute. */
  baseUrl: string;
  /** The order's page that works without a session cookie (the signed order-status link). */
  permalink(orderId: string): string;
  /** A session's continue_url: its signed hand-off page in the storefront, valid until the session expires. */
  continueUrl(sessionId: string, expiresAt: string): string;
}

const ACP_STATUS: Record<SessionView["status"], (typeof STATUSES)[number]> = {
  incomplete: "not_ready_for_payment",
  requires_escalation: "requires_escalation",
  ready_for_complete: "ready_for_payment",
  complete_in_progress: "complete_in_progress",
  completed: "completed",
  canceled: "canceled",
};

/** Core message paths (lines[0], buyer.email) as JSONPaths of the ACP session. */
export function jsonPath(path: string | null): string | undefined {
  if (path === null) return undefined;
  if (path.startsWith("fulfillment.destination") || path.startsWith("destination")) return "$.fulfillment_details.address";
  if (path.startsWith("fulfillment.selectedOptionId") || path.startsWith("fulfillmentOptionId")) return "$.selected_fulfillment_options";
  if (path.startsWith("discount")) return "$.discounts.codes";
  if (path.startsWith("buyer.phone")) return "$.buyer.phone_number";
  return `$.${path.replace(/^lines/, "line_items")}`;
}

/** A core error code as one of the version's MessageError codes. */
export function errorCode(code: string): (typeof ERROR_CODES)[number] {
  if ((ERROR_CODES as readonly string[]).includes(code)) return code as (typeof ERROR_CODES)[number];
  if (code === "insufficient_stock") return "out_of_stock";
  if (code === "payment_refused") return "payment_declined";
  if (code === "item_unavailable" || code === "variant_required") return "not_found";
  if (code === "checkout_not_ready") return "missing";
  return "invalid";
}

export function message(entry: SessionView["messages"][number]): AcpMessage {
  const param = jsonPath(entry.path);
  const base = { content_type: "plain" as const, content: entry.content, ...(param ? { param } : {}) };
  if (entry.type === "error") {
    const resolution = entry.severity === "requires_buyer_input" || entry.severity === "requires_buyer_review" ? entry.severity : "recoverable";
    return { type: "error", code: errorCode(entry.code), severity: "high", resolution, ...base };
  }
  if (entry.type === "warning" && entry.code === "discount_code_not_applied") return { type: "warning", code: "discount_code_invalid", severity: "low", ...base };
  return { type: "info", ...base };
}

function handlers(ids: readonly string[], shop: Shop): z.infer<typeof paymentHandler>[] {
  const known: Record<string, { name: string; display: string; psp: string }> = {
    mock_payment_handler: { name: "dev.acp.mock_payment", display: "Test payments", psp: "mock" },
    stripe_spt: { name: "com.stripe.shared_payment_token", display: "Card (Stripe shared payment token)", psp: "stripe" },
    payment_link: { name: "dk.shop.payment_link", display: "Pay by link (card or bank transfer)", psp: "shop" },
  };
  return ids.map((id) => ({
    id,
    name: known[id]?.name ?? id,
    display_name: known[id]?.display ?? id,
    version: VERSION,
    spec: `${shop.baseUrl}/docs/acp#payment-handlers`,
    requires_delegate_payment: id === "stripe_spt",
    requires_pci_compliance: false,
    psp: known[id]?.psp ?? "shop",
    config_schema: `${shop.baseUrl}/docs/acp#${id}-config`,
    instrument_schemas: [`${shop.baseUrl}/docs/acp#${id}-instrument`],
    config: {},
  }));
}

const TOTAL_LABELS: Record<string, string> = { subtotal: "Subtotal", discount: "Discount", fulfillment: "Shipping", total: "Total" };

/** A checkout session as the 2026-04-17 CheckoutSession (with `order` once completed). Prices include VAT, so no tax line. */
/** A session's totals as the version's Total list: no tax line (prices include VAT; the total's description names it). */
export function totals(view: SessionView): Array<z.infer<typeof total>> {
  const itemsBase = view.lines.reduce((sum, line) => sum + line.subtotal, 0);
  const list: Array<z.infer<typeof total>> = [
    { type: "items_base_amount" as const, display_text: "Items", amount: itemsBase },
    ...view.totals
      .filter((entry) => entry.type !== "tax")
      .map((entry) => ({ type: entry.type as (typeof TOTAL_TYPES)[number], display_text: TOTAL_LABELS[entry.type] ?? entry.label, amount: entry.amount })),
  ];
  const vat = view.totals.find((entry) => entry.type === "tax");
  if (vat) list[list.length - 1] = { ...list[list.length - 1]!, description: `Incl. ${vat.label.replace(/^VAT included/, "VAT")}: ${vat.amount}` };
  return list;
}

/** A destination as the version's Address (null when it cannot be one: street, city and postal code are required). */
export function addressOf(destination: SessionView["fulfillment"]["destination"], name: string): z.infer<typeof addressOut> | null {
  if (!destination?.street || !destination.city || !destination.postalCode) return null;
  return {
    name,
    line_one: destination.street,
    ...(destination.extended ? { line_two: destination.extended } : {}),
    city: destination.city,
    state: destination.region ?? "",
    country: destination.country,
    postal_code: destination.postalCode,
  };
}

export function checkout(view: SessionView, shop: Shop) {
  const destination = view.fulfillment.destination;
  const buyer = view.buyer;
  const lineIds = view.lines.map((line) => line.itemId);
  const name = destination?.name ?? [buyer?.firstName, buyer?.lastName].filter(Boolean).join(" ");
  const address = addressOf(destination, name || "");
  const details = {
    ...(name ? { name } : {}),
    ...(buyer?.phone ? { phone_number: buyer.phone } : {}),
    ...(buyer?.email ? { email: buyer.email } : {}),
    ...(address ? { address } : {}),
  };
  return {
    id: view.id,
    protocol: { version: VERSION },
    capabilities: { payment: { handlers: handlers(view.payment.handlers, shop) } },
    ...(buyer?.email
      ? { buyer: { ...(buyer.firstName ? { first_name: buyer.firstName } : {}), ...(buyer.lastName ? { last_name: buyer.lastName } : {}), email: buyer.email, ...(buyer.phone ? { phone_number: buyer.phone } : {}) } }
      : {}),
    status: ACP_STATUS[view.status],
    currency: view.currency.toLowerCase(),
    locale: "da-DK",
    line_items: view.lines.map((line) => ({
      id: line.itemId,
      item: { id: line.itemId, name: line.title, unit_amount: line.unitPrice },
      quantity: line.quantity,
      name: line.title,
      unit_amount: line.unitPrice,
      product_id: line.productId,
      ...(line.variantId ? { variant_id: line.variantId } : {}),
      totals: [
        { type: "items_base_amount" as const, display_text: "Items", amount: line.subtotal },
        { type: "subtotal" as const, display_text: "Subtotal", amount: line.subtotal },
        { type: "total" as const, display_text: "Total", amount: line.subtotal },
      ],
    })),
    ...(Object.keys(details).length ? { fulfillment_details: details } : {}),
    fulfillment_options: view.fulfillment.options.map((option) => ({
      type: "shipping" as const,
      id: option.id,
      title: option.title,
      description: option.description,
      totals: [
        { type: "fulfillment" as const, display_text: option.title, amount: option.amount },
        { type: "total" as const, display_text: "Total", amount: option.amount },
      ],
    })),
    ...(view.fulfillment.selectedOptionId ? { selected_fulfillment_options: [{ type: "shipping" as const, option_id: view.fulfillment.selectedOptionId, item_ids: lineIds }] } : {}),
    totals: totals(view),
    messages: view.messages.map(message),
    links: [
      { type: "terms_of_use" as const, title: "Handelsbetingelser", url: `${shop.baseUrl}/info/handelsbetingelser` },
      { type: "privacy_policy" as const, title: "Privatlivspolitik", url: `${shop.baseUrl}/info/privatlivspolitik` },
    ],
    created_at: view.createdAt,
    updated_at: view.updatedAt,
    expires_at: view.expiresAt,
    continue_url: shop.continueUrl(view.id, view.expiresAt),
    discounts: { codes: view.discounts.codes },
    ...(view.orderId
      ? { order: { type: "order" as const, id: view.orderId, checkout_session_id: view.id, order_number: view.orderId, permalink_url: shop.permalink(view.orderId), status: "confirmed" } }
      : {}),
  };
}

/** The flat protocol error: invalid_request for 4xx, service_unavailable for 503, processing_error for other 5xx. */
export function error(status: number, code: string, message: string, param?: string): ErrorBody {
  const type = status === 503 ? "service_unavailable" : status >= 500 ? "processing_error" : "invalid_request";
  return { type, code, message, ...(param ? { param } : {}) };
}
