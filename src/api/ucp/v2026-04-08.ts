// UCP 2026-04-08 over the checkout core: our zod reading of the version's request and response shapes, and the
// translations between them and the checkout.* tools' inputs and results. Nothing here decides a business rule.
import { z } from "zod";
import { buyer as coreBuyer, PICKUP_PREFIX, type SessionView } from "../../tools/checkout/schemas.ts";
import type { OrderView } from "../../tools/checkout/get_order.ts";
import type createCheckout from "../../tools/checkout/create.ts";
import type recordEvents from "../../tools/orders/record_events.ts";
import { handoffUrl, orderPermalink, type Sign } from "../../tools/checkout/handoff.ts";

/** The session fields a request body sets: checkout.create's input less what the door itself adds (its protocol). */
export type SessionFields = Omit<z.input<typeof createCheckout.input>, "protocol" | "protocolVersion">;

export const VERSION = "2026-04-08";

// ---------- requests (unknown fields are allowed, as the spec's schemas allow them) ----------

/** What the checkout core takes (tools/checkout/schemas.ts), so a body this reading accepts is one the core accepts too. */
export const email = coreBuyer.shape.email;
export const phone = coreBuyer.shape.phone;
/** ISO 3166-1 alpha-2 (any case: the door upper-cases it for the core). */
export const country = z.string().regex(/^[A-Za-z]{2}$/, "ISO 3166-1 alpha-2, e.g. DK");

export const postalAddress = z.looseObject({
  id: z.string().max(64).optional(),
  extended_address: z.string().max(200).optional(),
  street_address: z.string().max(200).optional(),
  address_locality: z.string().max(100).optional(),
  address_region: z.string().max(100).optional(),
  address_country: country.optional(),
  postal_code: z.string().max(20).optional(),
  first_name: z.string().max(100).optional(),
  last_name: z.string().max(100).optional(),
  phone_number: z.string().max(40).optional(),
});

const buyer = z.looseObject({
  first_name: z.string().max(100).optional(),
  last_name: z.string().max(100).optional(),
  email,
  phone_number: phone,
  consent: z
    .looseObject({ analytics: z.boolean().optional(), preferences: z.boolean().optional(), marketing: z.boolean().optional(), sale_of_data: z.boolean().optional() })
    .optional(),
});

const fulfillment = z.looseObject({
  methods: z
    .array(
      z.looseObject({
        id: z.string().max(100).optional(),
        type: z.enum(["shipping", "pickup"]).optional(),
        line_item_ids: z.array(z.string().max(100)).max(100).optional(),
        destinations: z.array(postalAddress).max(20).optional(),
        selected_destination_id: z.string().max(100).nullable().optional(),
        groups: z.array(z.looseObject({ id: z.string().max(100).optional(), selected_option_id: z.string().max(100).nullable().optional() })).max(20).optional(),
      }),
    )
    .max(5),
});

const lineItem = z.looseObject({
  id: z.string().max(100).optional(),
  item: z.looseObject({ id: z.string().min(1).max(100) }),
  quantity: z.number().int().min(1).max(1_000_000),
});

const instrument = z.looseObject({
  id: z.string().max(100).optional(),
  handler_id: z.string().min(1).max(100),
  type: z.string().max(50).optional(),
  selected: z.boolean().optional(),
  credential: z.looseObject({ type: z.string().max(50).optional(), token: z.string().max(2000).optional() }).optional(),
});

const payment = z.looseObject({ instruments: z.array(instrument).max(10).optional() });

export const createRequest = z.looseObject({
  line_items: z.array(lineItem).min(1).max(50),
  buyer: buyer.optional(),
  fulfillment: fulfillment.optional(),
  discounts: z.looseObject({ codes: z.array(z.string().max(64)).max(10).optional() }).optional(),
  payment: payment.optional(),
});
export const updateRequest = createRequest;
export const completeRequest = z.looseObject({ payment: payment.extend({ instruments: z.array(instrument).min(1).max(10) }) });

export type CreateRequest = z.infer<typeof createRequest>;

// ---------- request → checkout tool input ----------

/** The fields of checkout.create / checkout.update a UCP create or update body sets. */
export function toolInput(body: CreateRequest): SessionFields {
  const input: SessionFields = { lines: body.line_items.map((line) => ({ itemId: line.item.id, quantity: line.quantity })) };
  if (body.buyer) {
    const { first_name, last_name, email, phone_number, consent } = body.buyer;
    input.buyer = {
      ...(first_name ? { firstName: first_name } : {}),
      ...(last_name ? { lastName: last_name } : {}),
      ...(email ? { email } : {}),
      ...(phone_number ? { phone: phone_number } : {}),
      ...(consent
        ? { consent: { analytics: consent.analytics, preferences: consent.preferences, marketing: consent.marketing, saleOfData: consent.sale_of_data } }
        : {}),
    };
  }
  const method = body.fulfillment?.methods.find((entry) => entry.type !== "pickup");
  if (method) {
    const destinations = method.destinations ?? [];
    const chosen = destinations.find((destination) => destination.id !== undefined && destination.id === method.selected_destination_id) ?? destinations[0];
    // A selected id that none of the given destinations carries names one of the buyer's saved addresses.
    if (!chosen && method.selected_destination_id) input.destinationId = method.selected_destination_id;
    if (chosen) {
      const name = [chosen.first_name, chosen.last_name].filter(Boolean).join(" ");
      input.destination = {
        ...(chosen.id ? { id: chosen.id } : {}),
        ...(name ? { name } : {}),
        ...(chosen.street_address ? { street: chosen.street_address } : {}),
        ...(chosen.extended_address ? { extended: chosen.extended_address } : {}),
        ...(chosen.postal_code ? { postalCode: chosen.postal_code } : {}),
        ...(chosen.address_locality ? { city: chosen.address_locality } : {}),
        ...(chosen.address_region ? { region: chosen.address_region } : {}),
        country: (chosen.address_country ?? "").toUpperCase(),
      };
    }
    const option = method.groups?.find((group) => group.selected_option_id)?.selected_option_id;
    if (option) input.fulfillmentOptionId = option;
  }
  if (body.discounts?.codes) input.discountCodes = body.discounts.codes;
  return input;
}

/**
 * Parcel shops at 2026-04-08 (its pickup method with retail-location destinations): the session offers them, and a
 * pickup method with a selected location (or option) delivers there; a shipping method's selection goes home again.
 */
export function pickupInput(body: CreateRequest): Pick<SessionFields, "offerPickup" | "pickupPointId" | "fulfillmentOptionId"> {
  const methods = body.fulfillment?.methods ?? [];
  const pickup = methods.find((entry) => entry.type === "pickup" && (entry.selected_destination_id || entry.groups?.some((group) => group.selected_option_id)));
  if (pickup) {
    return { offerPickup: true, pickupPointId: pickup.selected_destination_id ?? null, fulfillmentOptionId: pickup.groups?.find((group) => group.selected_option_id)?.selected_option_id ?? null };
  }
  const shipping = methods.find((entry) => entry.type !== "pickup");
  return shipping ? { offerPickup: true, pickupPointId: null } : { offerPickup: true };
}

/** The selected instrument of a complete body, as checkout.complete's payment. */
export function paymentInput(body: z.infer<typeof completeRequest>) {
  const chosen = body.payment.instruments.find((candidate) => candidate.selected) ?? body.payment.instruments[0]!;
  return {
    handlerId: chosen.handler_id,
    ...(chosen.type ? { instrumentType: chosen.type } : {}),
    ...(chosen.credential?.token ? { token: chosen.credential.token } : {}),
  };
}

// ---------- responses ----------

const amount = z.number().int().min(0);
const signed = z.number().int();
const total = z.object({ type: z.string(), display_text: z.string().optional(), amount: signed });
const messageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("error"), code: z.string(), path: z.string().optional(), content: z.string(), severity: z.enum(["recoverable", "requires_buyer_input", "requires_buyer_review", "unrecoverable"]) }),
  z.object({ type: z.literal("warning"), code: z.string(), path: z.string().optional(), content: z.string() }),
  z.object({ type: z.literal("info"), code: z.string().optional(), path: z.string().optional(), content: z.string() }),
]);
const entity = z.object({ version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }).loose();
const registry = <T extends z.ZodType>(item: T) => z.record(z.string().regex(/^[a-z][a-z0-9]*(\.[a-z][a-z0-9_]*)+$/), z.array(item));
const ucpEnvelope = z.object({
  version: z.literal(VERSION),
  status: z.enum(["success", "error"]),
  services: registry(entity.extend({ transport: z.enum(["rest", "mcp", "a2a", "embedded"]) })).optional(),
  capabilities: registry(entity).optional(),
  payment_handlers: registry(entity.extend({ id: z.string() })).optional(),
});

/** Our reading of the 2026-04-08 checkout response (with the fulfillment, discount and buyer-consent extensions). */
export const checkoutResponse = z.object({
  ucp: ucpEnvelope.extend({ status: z.literal("success"), payment_handlers: ucpEnvelope.shape.payment_handlers.unwrap() }),
  id: z.string(),
  line_items: z.array(z.object({ id: z.string(), item: z.object({ id: z.string(), title: z.string(), price: amount }), quantity: z.number().int().min(1), totals: z.array(total) })),
  buyer: buyer.optional(),
  status: z.enum(["incomplete", "requires_escalation", "ready_for_complete", "complete_in_progress", "completed", "canceled"]),
  currency: z.string().regex(/^[A-Z]{3}$/),
  totals: z
    .array(total)
    .refine((list) => list.filter((entry) => entry.type === "subtotal").length === 1 && list.filter((entry) => entry.type === "total").length === 1, "exactly one subtotal and one total")
    .refine((list) => list.every((entry) => (entry.type === "discount" ? entry.amount < 0 : entry.type === "total" || entry.amount >= 0)), "signs by type"),
  messages: z.array(messageSchema).optional(),
  links: z.array(z.object({ type: z.string(), url: z.url(), title: z.string().optional() })),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  continue_url: z.url().optional(),
  fulfillment: z
    .object({
      methods: z.array(
        z.object({
          id: z.string(),
          type: z.enum(["shipping", "pickup"]),
          line_item_ids: z.array(z.string()),
          destinations: z.array(postalAddress.extend({ id: z.string() })).optional(),
          selected_destination_id: z.string().nullable().optional(),
          groups: z
            .array(z.object({ id: z.string(), line_item_ids: z.array(z.string()), options: z.array(z.object({ id: z.string(), title: z.string(), description: z.string().optional(), totals: z.array(total) })), selected_option_id: z.string().nullable().optional() }))
            .optional(),
        }),
      ),
    })
    .optional(),
  discounts: z.object({ codes: z.array(z.string()).optional(), applied: z.array(z.object({ code: z.string().optional(), title: z.string(), amount })).optional() }).optional(),
  payment: z.object({ instruments: z.array(instrument).optional() }).optional(),
  order: z.object({ id: z.string(), label: z.string().optional(), permalink_url: z.url() }).optional(),
});

const lineRef = z.object({ id: z.string().min(1).max(200), quantity: z.number().int().min(1) });
const fulfillmentEventReading = z.object({
  id: z.string().min(1).max(200),
  occurred_at: z.iso.datetime({ offset: true }),
  type: z.string().min(1).max(50),
  line_items: z.array(lineRef).max(200),
  tracking_number: z.string().max(200).optional(),
  tracking_url: z.url().max(2000).optional(),
  carrier: z.string().max(100).optional(),
  description: z.string().max(1000).optional(),
});
const adjustmentReading = z.object({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(50),
  occurred_at: z.iso.datetime({ offset: true }),
  status: z.enum(["pending", "completed", "failed"]),
  line_items: z.array(lineRef).max(200).optional(),
  amount: z.number().int().min(0).optional(),
  description: z.string().max(1000).optional(),
});

/** Our reading of the 2026-04-08 order response. */
export const orderResponse = z.object({
  ucp: ucpEnvelope.extend({ status: z.literal("success") }),
  id: z.string(),
  checkout_id: z.string(),
  permalink_url: z.url(),
  line_items: z.array(
    z.object({
      id: z.string(),
      item: z.object({ id: z.string(), title: z.string(), price: amount }),
      quantity: z.object({ original: z.number().int().min(0).optional(), total: z.number().int().min(0), fulfilled: z.number().int().min(0) }),
      totals: z.array(total),
      status: z.enum(["processing", "partial", "fulfilled", "removed"]),
    }),
  ),
  fulfillment: z.object({
    expectations: z.array(z.object({ id: z.string(), line_items: z.array(z.object({ id: z.string(), quantity: z.number().int().min(1) })), method_type: z.enum(["shipping", "pickup", "digital"]), destination: postalAddress, description: z.string().optional() })).optional(),
    events: z.array(fulfillmentEventReading).optional(),
  }),
  adjustments: z.array(adjustmentReading).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  totals: z.array(total),
});

/**
 * Our reading of an order update (PUT /ucp/orders/{id}, as 2026-01-11 and its reference server define it: the order
 * with fulfilment events and adjustments added). Only those two lists are read; the rest of the order is the shop's.
 */
export const orderUpdateRequest = z.looseObject({
  fulfillment: z.looseObject({ events: z.array(fulfillmentEventReading.loose()).max(100).optional() }).optional(),
  adjustments: z.array(adjustmentReading.loose()).max(100).optional(),
});

/** orders.record_events' input from an order update. */
export function orderUpdateInput(body: z.infer<typeof orderUpdateRequest>): Omit<z.input<typeof recordEvents.input>, "orderId"> {
  return {
    fulfillmentEvents: (body.fulfillment?.events ?? []).map((event) => ({
      id: event.id,
      type: event.type,
      occurredAt: event.occurred_at,
      lineItems: event.line_items.map((line) => ({ id: line.id, quantity: line.quantity })),
      ...(event.tracking_number !== undefined ? { trackingNumber: event.tracking_number } : {}),
      ...(event.tracking_url !== undefined ? { trackingUrl: event.tracking_url } : {}),
      ...(event.carrier !== undefined ? { carrier: event.carrier } : {}),
      ...(event.description !== undefined ? { description: event.description } : {}),
    })),
    adjustments: (body.adjustments ?? []).map((entry) => ({
      id: entry.id,
      type: entry.type,
      occurredAt: entry.occurred_at,
      status: entry.status,
      ...(entry.line_items ? { lineItems: entry.line_items.map((line) => ({ id: line.id, quantity: line.quantity })) } : {}),
      ...(entry.amount !== undefined ? { amount: entry.amount } : {}),
      ...(entry.description !== undefined ? { description: entry.description } : {}),
    })),
  };
}

/** Our reading of the 2026-04-08 error response: no resource, only messages. */
export const errorResponse = z.strictObject({
  ucp: ucpEnvelope.extend({ status: z.literal("error") }),
  messages: z.array(messageSchema).min(1),
  continue_url: z.url().optional(),
});

export interface Shop {
  /** PUBLIC_BASE_URL: links, permalinks and endpoints are absolute. */
  baseUrl: string;
  /** STRIPE_PUBLISHABLE_KEY: the Stripe handler's config, what agents tokenise cards with. */
  stripePublishableKey?: string | undefined;
  /** A session's continue_url: its signed hand-off page in the storefront, valid until the session expires. */
  continueUrl(sessionId: string, expiresAt: string): string;
  /** An order's permalink_url: its page for whoever holds the signed link. */
  permalink(orderId: string): string;
}

/** The links of the shop at `baseUrl`, signed with the shop's secret (src/tools/checkout/handoff.ts). */
export function shopLinks(baseUrl: string, sign: Sign): Pick<Shop, "baseUrl" | "continueUrl" | "permalink"> {
  return {
    baseUrl,
    continueUrl: (sessionId, expiresAt) => handoffUrl(baseUrl, sign, sessionId, new Date(expiresAt)),
    permalink: (orderId) => orderPermalink(baseUrl, sign, orderId),
  };
}

const CAPABILITIES = ["dev.ucp.shopping.checkout", "dev.ucp.shopping.fulfillment", "dev.ucp.shopping.discount", "dev.ucp.shopping.buyer_consent"];

/** The capabilities a response declares active (all of ours; we do not narrow by the agent's profile yet). */
export function activeCapabilities(names: readonly string[] = CAPABILITIES): Record<string, Array<{ version: string }>> {
  return Object.fromEntries(names.map((name) => [name, [{ version: VERSION }]]));
}

/** The payment handler registry: each handler under the reverse-domain name of who defines it. */
const HANDLER_NAMES: Record<string, string> = {
  mock_payment_handler: "dev.ucp.mock_payment",
  google_pay: "com.google.pay",
  shop_pay: "com.shopify.shop_pay",
  // Stripe's own name for its UCP handler; ours is its processor-tokenizer form (see docs/ucp.md "Payment handlers").
  stripe: "com.stripe.payments",
  stripe_spt: "com.stripe.shared_payment_token",
  payment_link: "dk.shop.payment_link",
};

/** The reverse-domain name of a payment handler id (the shop's own namespace for one not listed). */
export function handlerName(id: string): string {
  return HANDLER_NAMES[id] ?? `dk.shop.${id.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`;
}

/** The environment a Stripe key belongs to. */
function stripeEnvironment(key: string): "production" | "sandbox" {
  return key.startsWith("pk_live_") ? "production" : "sandbox";
}

/**
 * What a handler declares beyond its id: the Stripe handler the publishable key a platform tokenises a card with (a
 * PaymentMethod, pm_…, sent back as the credential's token) and the card instruments it takes.
 */
export function handlerDetails(id: string, shop: Pick<Shop, "stripePublishableKey">): { available_instruments?: Array<{ type: string }>; config?: Record<string, unknown> } {
  if (id === "stripe" && shop.stripePublishableKey) {
    return { available_instruments: [{ type: "card" }], config: { environment: stripeEnvironment(shop.stripePublishableKey), publishable_key: shop.stripePublishableKey } };
  }
  if (id === "stripe_spt") return { available_instruments: [{ type: "card" }] };
  return {};
}

export function handlerRegistry(handlers: readonly string[], shop: Pick<Shop, "stripePublishableKey"> = {}): Record<string, Array<{ id: string; version: string }>> {
  const registry: Record<string, Array<{ id: string; version: string }>> = {};
  for (const id of handlers) {
    (registry[handlerName(id)] ??= []).push({ id, version: VERSION, ...handlerDetails(id, shop) });
  }
  return registry;
}

/** Core message paths (lines[0].quantity) as the JSONPaths of the UCP checkout ($.line_items[0].quantity). */
function jsonPath(path: string | null): string | undefined {
  if (path === null) return undefined;
  if (path === "fulfillment.destination") return "$.fulfillment.methods[0].selected_destination_id";
  if (path === "fulfillment.selectedOptionId") return "$.fulfillment.methods[0].groups[0].selected_option_id";
  if (path === "fulfillment.pickupPointId") return "$.fulfillment.methods[1].selected_destination_id";
  return `$.${path.replace(/^lines/, "line_items")}`;
}

export function message(entry: SessionView["messages"][number]): z.infer<typeof messageSchema> {
  const path = jsonPath(entry.path);
  if (entry.type === "error") return { type: "error", code: entry.code, content: entry.content, severity: entry.severity ?? "recoverable", ...(path ? { path } : {}) };
  return { type: entry.type, code: entry.code, content: entry.content, ...(path ? { path } : {}) } as z.infer<typeof messageSchema>;
}

function address(destination: NonNullable<SessionView["fulfillment"]["destination"]>) {
  const [first, ...rest] = (destination.name ?? "").split(" ");
  return {
    id: destination.id,
    ...(destination.street ? { street_address: destination.street } : {}),
    ...(destination.extended ? { extended_address: destination.extended } : {}),
    ...(destination.city ? { address_locality: destination.city } : {}),
    ...(destination.region ? { address_region: destination.region } : {}),
    address_country: destination.country,
    ...(destination.postalCode ? { postal_code: destination.postalCode } : {}),
    ...(first ? { first_name: first } : {}),
    ...(rest.length ? { last_name: rest.join(" ") } : {}),
  };
}

/** A pickup option of the core (a parcel-shop method: `pickup_<method id>`). */
export function isPickupOption(id: string | null): boolean {
  return id !== null && id.startsWith(PICKUP_PREFIX);
}

function shownOption(option: SessionView["fulfillment"]["options"][number]) {
  return { id: option.id, title: option.title, description: option.description, totals: [{ type: "total", amount: option.amount }] };
}

/** A checkout session as the 2026-04-08 checkout response. Prices include VAT, so no tax line is added to the sum. */
export function checkout(view: SessionView, shop: Shop) {
  const lineIds = view.lines.map((line) => line.id);
  const totals = view.totals.filter((entry) => entry.type !== "tax").map((entry) => ({ type: entry.type, display_text: entry.label, amount: entry.amount }));
  const { destination, saved } = view.fulfillment;
  // The buyer's saved addresses while they may pick one (the chosen one among them), else the one the caller gave.
  const destinations = destination && !saved.some((entry) => entry.id === destination.id) ? [...saved, destination] : saved;
  const buyer = view.buyer;
  const home = view.fulfillment.options.filter((option) => !isPickupOption(option.id));
  const pickups = view.fulfillment.options.filter((option) => isPickupOption(option.id));
  const toParcelShop = isPickupOption(view.fulfillment.selectedOptionId);
  return {
    ucp: { version: VERSION, status: "success" as const, capabilities: activeCapabilities(), payment_handlers: handlerRegistry(view.payment.handlers, shop) },
    id: view.id,
    line_items: view.lines.map((line) => ({
      id: line.id,
      item: { id: line.itemId, title: line.title, price: line.unitPrice },
      quantity: line.quantity,
      totals: [
        { type: "subtotal", amount: line.subtotal },
        { type: "total", amount: line.subtotal },
      ],
    })),
    ...(buyer
      ? {
          buyer: {
            ...(buyer.firstName ? { first_name: buyer.firstName } : {}),
            ...(buyer.lastName ? { last_name: buyer.lastName } : {}),
            ...(buyer.email ? { email: buyer.email } : {}),
            ...(buyer.phone ? { phone_number: buyer.phone } : {}),
            ...(buyer.consent
              ? { consent: { analytics: buyer.consent.analytics, preferences: buyer.consent.preferences, marketing: buyer.consent.marketing, sale_of_data: buyer.consent.saleOfData } }
              : {}),
          },
        }
      : {}),
    status: view.status,
    currency: view.currency,
    totals,
    messages: view.messages.map(message),
    links: [
      { type: "privacy_policy", url: `${shop.baseUrl}/info/privatlivspolitik` },
      { type: "terms_of_service", url: `${shop.baseUrl}/info/handelsbetingelser` },
    ],
    expires_at: view.expiresAt,
    continue_url: shop.continueUrl(view.id, view.expiresAt),
    fulfillment: {
      methods: [
        {
          id: "fm_1",
          type: "shipping" as const,
          line_item_ids: lineIds,
          ...(destinations.length ? { destinations: destinations.map(address) } : {}),
          selected_destination_id: destination?.id ?? null,
          groups: [
            {
              id: "fg_1",
              line_item_ids: lineIds,
              options: home.map(shownOption),
              selected_option_id: toParcelShop ? null : view.fulfillment.selectedOptionId,
            },
          ],
        },
        // Parcel shops (a session that offers them): a pickup method whose destinations are retail locations.
        ...(pickups.length
          ? [
              {
                id: "fm_pickup",
                type: "pickup" as const,
                line_item_ids: lineIds,
                destinations: (view.fulfillment.pickupPoints ?? []).map((point) => ({
                  id: point.id,
                  name: `${point.carrier} Pakkeshop ${point.name}`,
                  address: { street_address: point.address, postal_code: point.zip, address_locality: point.city, address_country: "DK" },
                })),
                selected_destination_id: toParcelShop ? (view.fulfillment.pickupPointId ?? null) : null,
                groups: [{ id: "fg_pickup", line_item_ids: lineIds, options: pickups.map(shownOption), selected_option_id: toParcelShop ? view.fulfillment.selectedOptionId : null }],
              },
            ]
          : []),
      ],
    },
    discounts: { codes: view.discounts.codes, applied: view.discounts.applied.map((entry) => ({ code: entry.code, title: entry.title, amount: entry.amount })) },
    ...(view.orderId ? { order: { id: view.orderId, permalink_url: shop.permalink(view.orderId) } } : {}),
  };
}

/** An order (with the session it came from) as the 2026-04-08 order response. */
export function order(view: OrderView, shop: Shop) {
  const session = view.checkout;
  const shipped = view.shippedAt !== null;
  const pickedPoint = isPickupOption(session.fulfillment.selectedOptionId) ? session.fulfillment.pickupPoints?.find((point) => point.id === session.fulfillment.pickupPointId) : undefined;
  return {
    ucp: { version: VERSION, status: "success" as const, capabilities: activeCapabilities(["dev.ucp.shopping.order"]) },
    id: view.id,
    checkout_id: session.id,
    permalink_url: shop.permalink(view.id),
    line_items: session.lines.map((line) => ({
      id: line.id,
      item: { id: line.itemId, title: line.title, price: line.unitPrice },
      quantity: { original: line.quantity, total: view.canceled ? 0 : line.quantity, fulfilled: shipped ? line.quantity : 0 },
      totals: [
        { type: "subtotal", amount: line.subtotal },
        { type: "total", amount: line.subtotal },
      ],
      status: view.canceled ? ("removed" as const) : shipped ? ("fulfilled" as const) : ("processing" as const),
    })),
    fulfillment: {
      expectations: pickedPoint
        ? [
            {
              id: "exp_1",
              line_items: session.lines.map((line) => ({ id: line.id, quantity: line.quantity })),
              method_type: "pickup" as const,
              destination: { street_address: pickedPoint.address, postal_code: pickedPoint.zip, address_locality: pickedPoint.city, address_country: "DK" },
              description: `${session.fulfillment.options.find((option) => option.id === session.fulfillment.selectedOptionId)?.title ?? "Pakkeshop"}: ${pickedPoint.name}`,
            },
          ]
        : session.fulfillment.destination
        ? [
            {
              id: "exp_1",
              line_items: session.lines.map((line) => ({ id: line.id, quantity: line.quantity })),
              method_type: "shipping" as const,
              destination: address(session.fulfillment.destination),
              description: session.fulfillment.options.find((option) => option.id === session.fulfillment.selectedOptionId)?.title ?? "Shipping",
            },
          ]
        : [],
      events: [
        ...view.fulfillmentEvents.map((event) => ({
          id: event.id,
          occurred_at: event.occurredAt,
          type: event.type,
          line_items: event.lineItems,
          ...(event.trackingNumber ? { tracking_number: event.trackingNumber } : {}),
          ...(event.trackingUrl ? { tracking_url: event.trackingUrl } : {}),
          ...(event.carrier ? { carrier: event.carrier } : {}),
          ...(event.description ? { description: event.description } : {}),
        })),
        // A shipment or delivery made inside the shop (orders.set_tracking, update_status) shows as one event of its type.
        ...([["shipped", view.shippedAt], ["delivered", view.deliveredAt]] as const)
          .filter(([type, at]) => at !== null && !view.fulfillmentEvents.some((event) => event.type === type))
          .map(([type, at]) => ({
            id: `evt_${view.id}_${type}`,
            occurred_at: at!,
            type,
            line_items: session.lines.map((line) => ({ id: line.id, quantity: line.quantity })),
            ...(view.trackingNumber ? { tracking_number: view.trackingNumber } : {}),
            ...(view.trackingUrl ? { tracking_url: view.trackingUrl } : {}),
            ...(view.carrier ? { carrier: view.carrier } : {}),
          })),
      ],
    },
    adjustments: view.adjustments.map((entry) => ({
      id: entry.id,
      type: entry.type,
      occurred_at: entry.occurredAt,
      status: entry.status,
      ...(entry.lineItems ? { line_items: entry.lineItems } : {}),
      ...(entry.amount !== undefined ? { amount: entry.amount } : {}),
      ...(entry.description ? { description: entry.description } : {}),
    })),
    currency: session.currency,
    totals: session.totals.filter((entry) => entry.type !== "tax").map((entry) => ({ type: entry.type, display_text: entry.label, amount: entry.amount })),
  };
}

/** The error response of this version: status "error", one message. */
export function error(code: string, content: string, severity: "recoverable" | "requires_buyer_input" | "requires_buyer_review" | "unrecoverable" = "unrecoverable") {
  return { ucp: { version: VERSION, status: "error" as const }, messages: [{ type: "error" as const, code, content, severity }] };
}
