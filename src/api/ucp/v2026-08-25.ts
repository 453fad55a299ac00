// UCP 2026-08-25 over the checkout core: our zod reading of what changed since 2026-04-08 (typed fulfilment destinations
// with parcel shops as business locations, policies, consent by purpose, PAN and network-token card credentials,
// payment-authentication actions, keys[] in the profile) and the translations to and from the checkout.* tools. What did
// not change is 2026-04-08's, reused from v2026-04-08.ts. Nothing here decides a business rule.
import { z } from "zod";
import type { SessionView } from "../../tools/checkout/schemas.ts";
import type { Agreement, PolicySnapshot } from "../../tools/checkout/agreement.ts";
import type { OrderView } from "../../tools/checkout/get_order.ts";
import * as v0408 from "./v2026-04-08.ts";

export const VERSION = "2026-08-25";

/** The shop's public policy texts (settings → policies) an answer of this version carries as policies[]. */
export interface Policies {
  returns: string;
  privacy: string;
  terms: string;
}

export interface Shop extends v0408.Shop {
  policies?: Policies | undefined;
}

// ---------- requests ----------

// The postal address is 2026-04-08's; a destination's id and type are added where it is one.
const postalAddress = v0408.postalAddress.omit({ id: true });
const shippingDestination = postalAddress.extend({ id: z.string().max(64).optional(), type: z.literal("shipping_address").optional() });

/** Consent purposes as 2026-08-25 names them, and the core's flag for each. */
const PURPOSES = {
  "dev.ucp.consent.analytics": "analytics",
  "dev.ucp.consent.preferences": "preferences",
  "dev.ucp.consent.marketing": "marketing",
  "dev.ucp.consent.sale_or_sharing": "saleOfData",
} as const;
type Purpose = keyof typeof PURPOSES;
const consentName = z.string().regex(/^[a-z][a-z0-9]*(\.[a-z][a-z0-9_]*)+$/).max(200);
// description and links are the business's (response only): read past when an agent echoes them.
const segment = z.looseObject({ granted: z.boolean(), source: z.enum(["business", "platform"]).optional() });
const purpose = z.looseObject({ granted: z.boolean(), source: z.enum(["business", "platform"]).optional(), segments: z.record(consentName, segment).optional() });

const buyer = z.looseObject({
  first_name: z.string().max(100).optional(),
  last_name: z.string().max(100).optional(),
  email: z.string().max(254).optional(),
  phone_number: z.string().max(40).optional(),
  consent: z.record(consentName, purpose).optional(),
});

const method = z.looseObject({
  id: z.string().max(100).optional(),
  type: z.enum(["shipping", "pickup"]),
  line_item_ids: z.array(z.string().max(100)).max(100).optional(),
  // Shipping: the platform's addresses. Pickup: response-only business locations (ignored when echoed back).
  destinations: z.array(z.looseObject({ type: z.string().max(50).optional() })).max(50).optional(),
  selected_destination_id: z.string().max(100).nullable().optional(),
  groups: z.array(z.looseObject({ id: z.string().max(100).optional(), selected_option_id: z.string().max(100).nullable().optional() })).max(20).optional(),
});

const lineItem = z.looseObject({
  id: z.string().max(100).optional(),
  item: z.looseObject({ id: z.string().min(1).max(100) }),
  quantity: z.number().int().min(1).max(1_000_000),
});

/** Card credentials: a PAN or a network token (2026-08-25 splits them), else a handler's token. */
const credential = z.union([
  z.looseObject({ type: z.literal("pan"), number: z.string().regex(/^\d{12,19}$/), expiry_month: z.number().int().min(1).max(12).optional(), expiry_year: z.number().int().optional(), cvc: z.string().max(4).optional() }),
  z.looseObject({ type: z.literal("network_token"), number: z.string().regex(/^\d{12,19}$/), cryptogram: z.string().min(1).max(200), eci_value: z.string().max(4).optional() }),
  z.looseObject({ type: z.string().max(50).refine((type) => type !== "pan" && type !== "network_token"), token: z.string().max(2000).optional() }),
]);

const instrument = z.looseObject({
  id: z.string().max(100).optional(),
  handler_id: z.string().min(1).max(100),
  type: z.string().max(50).optional(),
  selected: z.boolean().optional(),
  display: z.looseObject({ brand: z.string().max(50).optional(), last_digits: z.string().max(4).optional() }).optional(),
  credential: credential.optional(),
});

export const createRequest = z.looseObject({
  line_items: z.array(lineItem).min(1).max(50),
  buyer: buyer.optional(),
  fulfillment: z.looseObject({ methods: z.array(method).max(5) }).optional(),
  discounts: z.looseObject({ codes: z.array(z.string().max(64)).max(10).optional() }).optional(),
  payment: z.looseObject({ instruments: z.array(instrument).max(10).optional() }).optional(),
});
export const updateRequest = createRequest;
export const completeRequest = z.looseObject({ payment: z.looseObject({ instruments: z.array(instrument).min(1).max(10) }) });

type CreateRequest = z.infer<typeof createRequest>;

/**
 * The fields of checkout.create / checkout.update a 2026-08-25 body sets. Parcel shops are always on offer. A pickup
 * method with a selected business location (or a selected option) delivers to that parcel shop; otherwise the session
 * ships home (a shipping method's address is the buyer's address in both cases).
 */
export function toolInput(body: CreateRequest): v0408.SessionFields {
  const input: v0408.SessionFields = { lines: body.line_items.map((line) => ({ itemId: line.item.id, quantity: line.quantity })), offerPickup: true };
  if (body.buyer) {
    const { first_name, last_name, email, phone_number, consent } = body.buyer;
    const flags: Record<string, boolean> = {};
    for (const [name, entry] of Object.entries(consent ?? {})) if (name in PURPOSES) flags[PURPOSES[name as Purpose]] = entry.granted;
    input.buyer = {
      ...(first_name ? { firstName: first_name } : {}),
      ...(last_name ? { lastName: last_name } : {}),
      ...(email ? { email } : {}),
      ...(phone_number ? { phone: phone_number } : {}),
      ...(consent ? { consent: flags } : {}),
    };
    // Every purpose and segment as given, with who asserted it, kept beside the core's flags.
    if (consent) {
      input.consentRecord = Object.fromEntries(
        Object.entries(consent).map(([key, entry]) => [
          key,
          {
            granted: entry.granted,
            source: entry.source ?? "platform",
            ...(entry.segments ? { segments: Object.fromEntries(Object.entries(entry.segments).map(([name, part]) => [name, { granted: part.granted, source: part.source ?? "platform" }])) } : {}),
          },
        ]),
      );
    }
  }
  const methods = body.fulfillment?.methods ?? [];
  const shipping = methods.find((entry) => entry.type === "shipping");
  const pickup = methods.find((entry) => entry.type === "pickup" && (entry.selected_destination_id || entry.groups?.some((group) => group.selected_option_id)));
  if (shipping) {
    const destinations = (shipping.destinations ?? []).map((entry) => shippingDestination.safeParse(entry)).flatMap((parsed) => (parsed.success ? [parsed.data] : []));
    // Reuse 2026-04-08's reading of addresses, saved-address ids and the chosen option.
    Object.assign(input, v0408.toolInput({ line_items: [], fulfillment: { methods: [{ ...shipping, destinations }] } }));
    input.lines = body.line_items.map((line) => ({ itemId: line.item.id, quantity: line.quantity }));
  }
  if (pickup) {
    input.pickupPointId = pickup.selected_destination_id ?? null;
    // No option picked: the core takes the pickup option of the parcel shop's carrier.
    input.fulfillmentOptionId = pickup.groups?.find((group) => group.selected_option_id)?.selected_option_id ?? null;
  } else if (shipping) {
    input.pickupPointId = null;
    input.fulfillmentOptionId = shipping.groups?.find((group) => group.selected_option_id)?.selected_option_id ?? null;
  }
  if (body.discounts?.codes) input.discountCodes = body.discounts.codes;
  return input;
}

/** The selected instrument of a complete body as checkout.complete's payment (a PAN or network token as a card number). */
export function paymentInput(body: z.infer<typeof completeRequest>) {
  const chosen = body.payment.instruments.find((candidate) => candidate.selected) ?? body.payment.instruments[0]!;
  const card = chosen.credential && (chosen.credential.type === "pan" || chosen.credential.type === "network_token") ? (chosen.credential as { number: string }).number : undefined;
  const token = chosen.credential && !card ? (chosen.credential as { token?: string }).token : undefined;
  return {
    handlerId: chosen.handler_id,
    ...(chosen.type ? { instrumentType: chosen.type } : {}),
    ...(token ? { token } : {}),
    ...(card ? { cardNumber: card } : {}),
    ...(chosen.display?.brand ? { brand: chosen.display.brand } : {}),
  };
}

/** The id of the instrument a complete body pays with (what a payment-authentication action names). */
export function instrumentId(body: unknown): string {
  const parsed = completeRequest.safeParse(body);
  if (!parsed.success) return "instr_1";
  const chosen = parsed.data.payment.instruments.find((candidate) => candidate.selected) ?? parsed.data.payment.instruments[0]!;
  return chosen.id ?? "instr_1";
}

// ---------- responses ----------

const signed = z.number().int();
const amount = z.number().int().min(0);
const total = z.object({ type: z.string(), display_text: z.string().optional(), amount: signed });
const message = z.discriminatedUnion("type", [
  z.object({ type: z.literal("error"), code: z.string(), path: z.string().optional(), content: z.string(), severity: z.enum(["recoverable", "requires_buyer_input", "requires_buyer_review", "unrecoverable"]) }),
  z.object({ type: z.literal("warning"), code: z.string(), path: z.string().optional(), content: z.string() }),
  z.object({ type: z.literal("info"), code: z.string().optional(), path: z.string().optional(), content: z.string() }),
]);
const name = z.string().regex(/^[a-z][a-z0-9]*(\.[a-z][a-z0-9_]*)+$/);
const entity = z.object({ version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }).loose();
const ucpEnvelope = z.object({
  version: z.literal(VERSION),
  status: z.enum(["success", "error"]),
  capabilities: z.record(name, z.array(entity)).optional(),
  payment_handlers: z.record(name, z.array(entity.extend({ id: z.string() }))).optional(),
});
const consentDecision = z.object({ granted: z.boolean(), source: z.enum(["business", "platform"]), description: z.string() });
const policy = z.object({ type: name, description: z.object({ plain: z.string().optional(), markdown: z.string().optional(), html: z.string().optional() }), url: z.url().optional(), applies_to: z.array(z.string()).optional() });
const address = postalAddress.extend({ address_country: z.string() });
const locationDestination = z.object({ type: z.literal("business_location"), id: z.string(), name: z.string(), address: address.optional() });
const option = z.object({ id: z.string(), title: z.string(), description: z.object({ plain: z.string() }).optional(), totals: z.array(total) });
const actionInstance = z.object({ id: z.string().min(1), config: z.object({ payment_instrument_id: z.string().min(1), url: z.url() }).loose() });

/** Our reading of the 2026-08-25 checkout response (fulfilment, discount, buyer consent, payment authentication). */
export const checkoutResponse = z.object({
  ucp: ucpEnvelope.extend({ status: z.literal("success") }),
  id: z.string(),
  line_items: z.array(z.object({ id: z.string(), item: z.object({ id: z.string(), title: z.string(), price: amount }), quantity: z.number().int().min(1), totals: z.array(total) })),
  buyer: z
    .object({
      first_name: z.string().optional(),
      last_name: z.string().optional(),
      email: z.string().optional(),
      phone_number: z.string().optional(),
      consent: z.record(name, consentDecision.extend({ segments: z.record(name, consentDecision).optional() })).optional(),
    })
    .optional(),
  status: z.enum(["incomplete", "requires_escalation", "ready_for_complete", "complete_in_progress", "completed", "canceled"]),
  currency: z.string().regex(/^[A-Z]{3}$/),
  totals: z.array(total).refine((list) => list.filter((entry) => entry.type === "subtotal").length === 1 && list.filter((entry) => entry.type === "total").length === 1, "exactly one subtotal and one total"),
  messages: z.array(message).optional(),
  links: z.array(z.object({ type: z.string(), url: z.url(), title: z.string().optional() })),
  policies: z.array(policy).optional(),
  actions: z.record(name, z.array(actionInstance).min(1)).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  continue_url: z.url().optional(),
  fulfillment: z
    .object({
      methods: z.array(
        z.discriminatedUnion("type", [
          z.object({
            id: z.string(),
            type: z.literal("shipping"),
            line_item_ids: z.array(z.string()),
            destinations: z.array(address.extend({ id: z.string(), type: z.literal("shipping_address") })).optional(),
            selected_destination_id: z.string().nullable().optional(),
            groups: z.array(z.object({ id: z.string(), line_item_ids: z.array(z.string()), options: z.array(option), selected_option_id: z.string().nullable() })),
          }),
          z.object({
            id: z.string(),
            type: z.literal("pickup"),
            line_item_ids: z.array(z.string()),
            destinations: z.array(locationDestination),
            selected_destination_id: z.string().nullable(),
            groups: z.array(z.object({ id: z.string(), line_item_ids: z.array(z.string()), options: z.array(option), selected_option_id: z.string().nullable() })),
          }),
        ]),
      ),
      available_methods: z.array(z.object({ type: z.string(), line_item_ids: z.array(z.string()), description: z.string().optional() })).optional(),
    })
    .optional(),
  discounts: z.object({ codes: z.array(z.string()).optional(), applied: z.array(z.object({ code: z.string().optional(), title: z.string(), amount })).optional() }).optional(),
  order: z.object({ id: z.string(), label: z.string().optional(), permalink_url: z.url() }).optional(),
});

/** Our reading of the 2026-08-25 order response. */
export const orderResponse = z.object({
  ucp: ucpEnvelope.extend({ status: z.literal("success") }),
  id: z.string(),
  checkout_id: z.string(),
  permalink_url: z.url(),
  line_items: z.array(z.object({ id: z.string(), item: z.object({ id: z.string(), title: z.string(), price: amount }), quantity: z.object({ total: z.number().int(), fulfilled: z.number().int() }).loose(), totals: z.array(total), status: z.string() })),
  fulfillment: z.object({
    expectations: z.array(z.object({ id: z.string(), line_items: z.array(z.object({ id: z.string(), quantity: z.number().int().min(1) })), method_type: z.enum(["shipping", "pickup", "digital"]), destination: address, description: z.string().optional() })).optional(),
    events: z.array(z.object({ id: z.string(), occurred_at: z.string(), type: z.string() }).loose()).optional(),
  }),
  policies: z.array(policy).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  totals: z.array(total),
});

/** Our reading of the 2026-08-25 error response. */
export const errorResponse = z.strictObject({
  ucp: ucpEnvelope.extend({ status: z.literal("error") }),
  messages: z.array(message).min(1),
  continue_url: z.url().optional(),
});

const CAPABILITIES = ["dev.ucp.shopping.checkout", "dev.ucp.shopping.fulfillment", "dev.ucp.shopping.discount", "dev.ucp.shopping.buyer_consent", "dev.ucp.shopping.payment_authentication"];

export function activeCapabilities(names: readonly string[] = CAPABILITIES): Record<string, Array<{ version: string }>> {
  return Object.fromEntries(names.map((entry) => [entry, [{ version: VERSION }]]));
}

/** The payment handler registry at this version (2026-04-08's names and details). */
export function handlerRegistry(handlers: readonly string[], shop: Pick<Shop, "stripePublishableKey"> = {}): Record<string, Array<{ id: string; version: string }>> {
  const registry: Record<string, Array<{ id: string; version: string }>> = {};
  for (const id of handlers) (registry[v0408.handlerName(id)] ??= []).push({ id, version: VERSION, ...v0408.handlerDetails(id, shop) });
  return registry;
}

const CONSENT_TEXTS: Record<string, string> = {
  "dev.ucp.consent.analytics": "Statistik om brugen af butikken",
  "dev.ucp.consent.preferences": "Husk købers valg og indstillinger",
  "dev.ucp.consent.marketing": "Nyhedsbreve og tilbud",
  "dev.ucp.consent.sale_or_sharing": "Salg eller deling af personoplysninger",
};

const SEGMENT_TEXTS: Record<string, string> = {
  "dev.ucp.consent.marketing.email": "Nyhedsbreve og tilbud på e-mail",
  "dev.ucp.consent.marketing.sms": "Tilbud på sms",
};

/** A purpose or segment the shop has no text for is described by its name. */
const describe = (key: string, texts: Record<string, string>) => texts[key] ?? `Samtykke: ${key}`;

/** The consent as the agent gave it (checkout.agreement), every purpose and segment with the shop's description. */
function consentShown(record: NonNullable<Agreement["consent"]>) {
  return Object.fromEntries(
    Object.entries(record).map(([key, entry]) => [
      key,
      {
        granted: entry.granted,
        source: entry.source,
        description: describe(key, CONSENT_TEXTS),
        ...(entry.segments
          ? { segments: Object.fromEntries(Object.entries(entry.segments).map(([name, part]) => [name, { granted: part.granted, source: part.source, description: describe(name, SEGMENT_TEXTS) }])) }
          : {}),
      },
    ]),
  );
}

/**
 * The shop's policies: the return policy (settings → policies), the privacy policy and the terms, with their pages. An
 * order shows the texts it was placed under (its snapshot), a checkout the shop's current ones.
 */
export function policies(shop: Shop, snapshot?: PolicySnapshot | null) {
  const texts = snapshot ?? shop.policies;
  if (!texts) return [];
  const terms = `${shop.baseUrl}/info/handelsbetingelser`;
  return [
    { type: "dev.ucp.shopping.policy.return", description: { plain: texts.returns }, url: terms },
    { type: "dk.shop.policy.privacy", description: { plain: texts.privacy }, url: `${shop.baseUrl}/info/privatlivspolitik` },
    { type: "dk.shop.policy.terms", description: { plain: texts.terms }, url: terms },
  ];
}

function shippingAddress(destination: NonNullable<SessionView["fulfillment"]["destination"]>) {
  const [first, ...rest] = (destination.name ?? "").split(" ");
  return {
    type: "shipping_address" as const,
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

type Point = NonNullable<SessionView["fulfillment"]["pickupPoints"]>[number];

/** A parcel shop as a business location (location_summary: id, name, address). */
function location(point: Point) {
  return {
    type: "business_location" as const,
    id: point.id,
    name: `${point.carrier} Pakkeshop ${point.name}`,
    address: { street_address: point.address, postal_code: point.zip, address_locality: point.city, address_country: "DK" },
  };
}

const isPickup = (id: string | null) => id !== null && id.startsWith("pickup_");

/** A checkout session as the 2026-08-25 checkout response. */
export function checkout(view: SessionView, shop: Shop, agreed?: Agreement | null) {
  const base = v0408.checkout(view, shop);
  const lineIds = view.lines.map((line) => line.id);
  const { destination, saved, options, selectedOptionId } = view.fulfillment;
  const destinations = destination && !saved.some((entry) => entry.id === destination.id) ? [...saved, destination] : saved;
  const home = options.filter((entry) => !isPickup(entry.id));
  const pickups = options.filter((entry) => isPickup(entry.id));
  // A description is a description object at this version (common/types/description.json).
  const shown = (list: typeof options) =>
    list.map((entry) => ({ id: entry.id, title: entry.title, ...(entry.description ? { description: { plain: entry.description } } : {}), totals: [{ type: "total", amount: entry.amount }] }));
  const toParcelShop = isPickup(selectedOptionId);
  const consent = view.buyer?.consent;
  const { ucp: _ucp, fulfillment: _fulfillment, buyer: _buyer, ...rest } = base;
  return {
    ucp: { version: VERSION, status: "success" as const, capabilities: activeCapabilities(), payment_handlers: handlerRegistry(view.payment.handlers, shop) },
    ...rest,
    ...(base.buyer
      ? {
          buyer: {
            ...(({ consent: _c, ...names }) => names)(base.buyer),
            ...(agreed?.consent
              ? { consent: consentShown(agreed.consent) }
              : consent
              ? {
                  consent: Object.fromEntries(
                    (Object.entries(PURPOSES) as Array<[Purpose, keyof typeof consent]>)
                      .filter(([, flag]) => consent[flag] !== undefined)
                      .map(([key, flag]) => [key, { granted: consent[flag] === true, source: "platform" as const, description: CONSENT_TEXTS[key] }]),
                  ),
                }
              : {}),
          },
        }
      : {}),
    policies: policies(shop),
    fulfillment: {
      methods: [
        {
          id: "fm_shipping",
          type: "shipping" as const,
          line_item_ids: lineIds,
          ...(destinations.length ? { destinations: destinations.map(shippingAddress) } : {}),
          selected_destination_id: destination?.id ?? null,
          groups: [{ id: "fg_shipping", line_item_ids: lineIds, options: shown(home), selected_option_id: toParcelShop ? null : selectedOptionId }],
        },
        ...(pickups.length
          ? [
              {
                id: "fm_pickup",
                type: "pickup" as const,
                line_item_ids: lineIds,
                destinations: (view.fulfillment.pickupPoints ?? []).map(location),
                selected_destination_id: toParcelShop ? (view.fulfillment.pickupPointId ?? null) : null,
                groups: [{ id: "fg_pickup", line_item_ids: lineIds, options: shown(pickups), selected_option_id: toParcelShop ? selectedOptionId : null }],
              },
            ]
          : []),
      ],
      available_methods: [
        { type: "shipping", line_item_ids: lineIds, description: "Levering til døren" },
        ...(pickups.length ? [{ type: "pickup", line_item_ids: lineIds, description: "Afhentning i pakkeshop (PostNord, GLS)" }] : []),
      ],
    },
    messages: view.messages.map((entry) => {
      const shownMessage = v0408.message(entry);
      if (entry.path === "fulfillment.pickupPointId") return { ...shownMessage, path: "$.fulfillment.methods[1].selected_destination_id" };
      return shownMessage;
    }),
  };
}

/** A completion that needs 3-D Secure: the session escalated, with the bank's page as a three_ds_challenge action. */
export function escalate(body: Record<string, unknown>, url: string, instrument: string) {
  return {
    ...body,
    status: "requires_escalation",
    continue_url: url,
    actions: { "dev.ucp.payment.three_ds_challenge": [{ id: "act_3ds_1", config: { payment_instrument_id: instrument, url } }] },
  };
}

/** An order as the 2026-08-25 order response: the delivery to a parcel shop as a pickup expectation, and its policy snapshot. */
export function order(view: OrderView, shop: Shop, agreed?: Agreement | null) {
  const base = v0408.order(view, shop);
  const session = view.checkout;
  const point = session.fulfillment.pickupPoints?.find((entry) => entry.id === session.fulfillment.pickupPointId);
  const pickup = isPickup(session.fulfillment.selectedOptionId) && point;
  const expectations = pickup
    ? [
        {
          id: "exp_1",
          line_items: session.lines.map((line) => ({ id: line.id, quantity: line.quantity })),
          method_type: "pickup" as const,
          destination: location(point).address,
          description: `${session.fulfillment.options.find((entry) => entry.id === session.fulfillment.selectedOptionId)?.title ?? "Pakkeshop"}: ${point.name}`,
        },
      ]
    : base.fulfillment.expectations;
  return {
    ...base,
    ucp: { version: VERSION, status: "success" as const, capabilities: activeCapabilities(["dev.ucp.shopping.order"]) },
    fulfillment: { ...base.fulfillment, expectations },
    // The snapshot taken when the order was placed; an order placed before snapshots were kept has none to show.
    ...(agreed?.policies ? { policies: policies(shop, agreed.policies) } : {}),
  };
}

/** The error response of this version. */
export function error(code: string, content: string, severity: "recoverable" | "requires_buyer_input" | "requires_buyer_review" | "unrecoverable" = "unrecoverable") {
  return { ucp: { version: VERSION, status: "error" as const }, messages: [{ type: "error" as const, code, content, severity }] };
}
