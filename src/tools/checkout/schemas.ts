// Shapes of the checkout.* tools: what a caller may ask for (lines, buyer, destination, codes, payment) and the priced session.
import { z } from "zod";

const CHECKOUT_STATUSES = ["incomplete", "requires_escalation", "ready_for_complete", "complete_in_progress", "completed", "canceled"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** Once here, a session never changes again. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(["completed", "canceled"]);

export const PROTOCOLS = ["shop", "ucp", "acp"] as const;

const minor = (what: string) => z.number().int().describe(`${what}, integer minor units of the session's currency (øre for DKK).`);

export const checkoutId = z.string().regex(/^chk_[A-Za-z0-9]{10,64}$/, "A checkout id looks like chk_…").describe("Checkout session id.");

/** Why an agent's buyer walked away (the reason codes of ACP's intent traces). */
export const CANCEL_REASONS = ["price_sensitivity", "shipping_cost", "shipping_speed", "product_fit", "trust_security", "returns_policy", "payment_options", "comparison", "timing_deferred", "other"] as const;
export const intentTrace = z.strictObject({
  reasonCode: z.enum(CANCEL_REASONS),
  summary: z.string().max(2000).optional().describe("The agent's short account of why."),
});
export type IntentTrace = z.infer<typeof intentTrace>;

export const lineInput = z.strictObject({
  itemId: z.string().min(1).max(100).describe("A product's or variant's id."),
  quantity: z.number().int().min(1).max(1_000_000),
});

const consent = z.strictObject({
  analytics: z.boolean().optional(),
  preferences: z.boolean().optional(),
  marketing: z.boolean().optional(),
  saleOfData: z.boolean().optional(),
});

/** A consent decision and who asserted it: the buyer through the platform, or the business's default. */
const decision = { granted: z.boolean(), source: z.enum(["business", "platform"]).default("platform") };
const REVERSE_DNS = /^[a-z][a-z0-9]*(\.[a-z][a-z0-9_]*)+$/;
const named = (record: Record<string, unknown>) => Object.keys(record).length <= 20 && Object.keys(record).every((key) => key.length <= 200 && REVERSE_DNS.test(key));

/**
 * The buyer's consent per purpose, with segments refining it (e-mail, SMS …), as a protocol door gives it. Names are
 * reverse-DNS (checked, not spelled out in the listed schema: doors set this, and the listing has a budget).
 */
export const consentRecord = z
  .record(z.string(), z.strictObject({ ...decision, segments: z.record(z.string(), z.strictObject(decision)).optional() }))
  .refine((record) => named(record) && Object.values(record).every((entry) => named(entry.segments ?? {})), "At most 20 purposes and 20 segments each, named in reverse-DNS (dev.ucp.consent.marketing)");
export type ConsentRecord = z.output<typeof consentRecord>;

export const buyer = z.strictObject({
  firstName: z.string().trim().min(1).max(100).optional(),
  lastName: z.string().trim().min(1).max(100).optional(),
  email: z.email().max(254).optional().describe("Needed to complete."),
  phone: z.string().regex(/^\+?[0-9 ()-]{6,30}$/, "Use digits, spaces, ( ) - and an optional leading +").optional(),
  consent: consent.optional(),
});
export type Buyer = z.infer<typeof buyer>;

/** Where to ship; may be partial while the buyer is still deciding (a country alone prices shipping), complete to order. */
export const destination = z.strictObject({
  id: z.string().min(1).max(64).optional(),
  name: z.string().trim().min(1).max(200).optional().describe("Recipient (default the buyer)."),
  street: z.string().trim().min(1).max(200).optional(),
  extended: z.string().trim().min(1).max(200).optional(),
  postalCode: z.string().trim().min(1).max(20).optional().describe("Danish ones must match the city."),
  city: z.string().trim().min(1).max(100).optional(),
  region: z.string().trim().min(1).max(100).optional(),
  country: z.string().regex(/^[A-Z]{2}$/, "ISO 3166-1 alpha-2, e.g. DK"),
});
export type Destination = z.infer<typeof destination>;

export type StoredDestination = Destination & { id: string };

export interface StoredFulfillment {
  destination: StoredDestination | null;
  /** The destination is one of the buyer's saved addresses, picked by id (so the others stay on offer). */
  picked?: boolean;
  selectedOptionId: string | null;
  /** The session offers the shop's parcel-shop methods (pickup options) beside home delivery: set by a door that can show them. */
  pickup?: boolean;
  /** The parcel shop chosen for a pickup option. */
  pickupPointId?: string | null;
}

/** The id of a pickup option in fulfillment.options: the shop's delivery method id after this prefix. */
export const PICKUP_PREFIX = "pickup_";

export const pickupInput = {
  offerPickup: z.boolean().optional().describe("Also offer parcel-shop options."),
  pickupPointId: z.string().min(1).max(50).nullable().optional().describe("Parcel shop for a pickup option."),
};

export const destinationId = z.string().min(1).max(64).describe("A fulfillment.saved address (the current destination's id keeps it).");

export const paymentInput = z.strictObject({
  handlerId: z.string().min(1).max(100).describe("One of the session's payment.handlers."),
  instrumentType: z.string().min(1).max(50).optional().describe("e.g. card."),
  token: z.string().min(1).max(2000).optional().describe("Handler credential."),
  cardNumber: z
    .string()
    .regex(/^\d{12,19}$/, "12 to 19 digits")
    .optional()
    .describe("Test handlers: a Luhn-valid number pays; the last four are kept."),
  brand: z.string().min(1).max(50).optional().describe("Card brand, e.g. Visa."),
  lastDigits: z.string().regex(/^\d{2,4}$/).optional().describe("The card's last digits."),
});

export const discountCodes = z
  .array(z.string().trim().min(1).max(64))
  .max(10)
  .describe("Codes, stacked in order; unknown ones ignored.");

const message = z.strictObject({
  type: z.enum(["error", "warning", "info"]),
  code: z.string(),
  content: z.string(),
  path: z.string().nullable().describe("Where in the session the message points, e.g. lines[0] or buyer.email."),
  severity: z.enum(["recoverable", "requires_buyer_input", "requires_buyer_review", "unrecoverable"]).nullable(),
});
export type Message = z.infer<typeof message>;

const totalEntry = z.strictObject({
  type: z.enum(["subtotal", "discount", "fulfillment", "tax", "total"]),
  label: z.string(),
  amount: minor("Amount (discounts negative)"),
});

export const sessionView = z.strictObject({
  id: z.string(),
  status: z.enum(CHECKOUT_STATUSES),
  currency: z.string().describe("ISO 4217 code."),
  lines: z.array(
    z.strictObject({
      id: z.string().describe("Line id (li_…), stable for the session."),
      itemId: z.string(),
      productId: z.string(),
      variantId: z.string().nullable(),
      title: z.string().describe("From the catalogue."),
      unitPrice: minor("Unit price from the catalogue, VAT included"),
      quantity: z.number().int(),
      subtotal: minor("Unit price × quantity"),
    }),
  ),
  buyer: buyer.nullable(),
  fulfillment: z.strictObject({
    destination: destination.extend({ id: z.string() }).nullable(),
    saved: z
      .array(destination.extend({ id: z.string() }))
      .describe("The buyer's saved addresses to pick with destinationId; empty once the caller gave an address of its own."),
    options: z.array(z.strictObject({ id: z.string(), title: z.string(), description: z.string(), amount: minor("Shipping price") })),
    selectedOptionId: z.string().nullable(),
    pickupPoints: z
      .array(z.strictObject({ id: z.string(), carrier: z.string(), name: z.string(), address: z.string(), zip: z.string(), city: z.string() }))
      .optional()
      .describe("With offerPickup: the parcel shops of the pickup options (pickup_<method>), nearest the destination first."),
    pickupPointId: z.string().nullable().optional().describe("The chosen parcel shop."),
  }),
  discounts: z.strictObject({
    codes: z.array(z.string()),
    applied: z.array(z.strictObject({ code: z.string(), title: z.string(), amount: minor("Amount taken off") })),
  }),
  totals: z.array(totalEntry),
  messages: z.array(message),
  payment: z.strictObject({
    handlers: z.array(z.string()).describe("Ids of the payment handlers this session may complete with."),
    selected: z
      .strictObject({ handlerId: z.string(), instrumentType: z.string().nullable(), brand: z.string().optional(), lastDigits: z.string().optional() })
      .nullable(),
  }),
  orderId: z.string().nullable(),
  protocol: z.enum(PROTOCOLS),
  protocolVersion: z.string().nullable(),
  agent: z.strictObject({ name: z.string().nullable(), profile: z.string().nullable() }),
  expiresAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SessionView = z.infer<typeof sessionView>;
