// Shapes of the checkout.* tools: what a caller may ask for (lines, buyer, destination, codes, payment) and the priced session.
import { z } from "zod";

export const CHECKOUT_STATUSES = ["incomplete", "requires_escalation", "ready_for_complete", "complete_in_progress", "completed", "canceled"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** Once here, a session never changes again. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(["completed", "canceled"]);

export const PROTOCOLS = ["shop", "ucp", "acp"] as const;

const minor = (what: string) => z.number().int().describe(`${what}, integer minor units of the session's currency (øre for DKK).`);
const text = (what: string, max: number) => z.string().trim().min(1).max(max).describe(what);

export const checkoutId = z.string().regex(/^chk_[A-Za-z0-9]{10,64}$/, "A checkout id looks like chk_…").describe("The checkout session id (chk_…) that checkout.create returned.");

export const lineInput = z.strictObject({
  itemId: z.string().min(1).max(100).describe("The product's id as products.get returns it; for a product with variants the variant's id."),
  quantity: z.number().int().min(1).max(100).describe("Units, 1 to 100."),
});

export const consent = z.strictObject({
  analytics: z.boolean().optional().describe("Consent to analytics and performance tracking."),
  preferences: z.boolean().optional().describe("Consent to storing preferences."),
  marketing: z.boolean().optional().describe("Consent to marketing e-mail."),
  saleOfData: z.boolean().optional().describe("Consent to selling data to third parties."),
});

export const buyer = z.strictObject({
  firstName: text("Given name.", 100).optional(),
  lastName: text("Family name.", 100).optional(),
  email: z.email().max(254).optional().describe("E-mail for the order confirmation; needed before completing."),
  phone: z.string().regex(/^\+?[0-9 ()-]{6,30}$/, "Use digits, spaces, ( ) - and an optional leading +").optional().describe("Phone number, E.164 preferred."),
  consent: consent.optional().describe("The buyer's consent choices."),
});
export type Buyer = z.infer<typeof buyer>;

export const destination = z.strictObject({
  id: z.string().min(1).max(64).optional().describe("The caller's id for this destination (kept as given); one is assigned when absent."),
  name: text("Recipient's full name (else the buyer's name is used).", 200).optional(),
  street: text("Street and number.", 200),
  extended: text("Apartment, floor, c/o.", 200).optional(),
  postalCode: text("Postal code (Denmark: 4 digits, checked against the city).", 20),
  city: text("City.", 100),
  region: text("Region or state, where the country has them.", 100).optional(),
  country: z.string().regex(/^[A-Z]{2}$/, "ISO 3166-1 alpha-2, e.g. DK").describe("Country, ISO 3166-1 alpha-2 (e.g. DK, SE, DE)."),
});
export type Destination = z.infer<typeof destination>;

export const paymentInput = z.strictObject({
  handlerId: z.string().min(1).max(100).describe("Id of a payment handler the shop declares (checkout.get lists them under payment.handlers)."),
  instrumentType: z.string().min(1).max(50).optional().describe("Kind of instrument, e.g. card."),
  token: z.string().min(1).max(2000).optional().describe("The handler's credential token (never a card number)."),
});

export const discountCodes = z
  .array(z.string().trim().min(1).max(64))
  .max(10)
  .describe("Discount codes to apply in this order (stacked; at most 10). Replaces the earlier list; unknown codes are ignored.");

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
    options: z.array(z.strictObject({ id: z.string(), title: z.string(), description: z.string(), amount: minor("Shipping price") })),
    selectedOptionId: z.string().nullable(),
  }),
  discounts: z.strictObject({
    codes: z.array(z.string()),
    applied: z.array(z.strictObject({ code: z.string(), title: z.string(), amount: minor("Amount taken off") })),
  }),
  totals: z.array(totalEntry),
  messages: z.array(message),
  payment: z.strictObject({
    handlers: z.array(z.string()).describe("Ids of the payment handlers this session may complete with."),
    selected: z.strictObject({ handlerId: z.string(), instrumentType: z.string().nullable() }).nullable(),
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
