// Payments behind one interface: the provider turns a placed order into a URL where the shopper pays.
import crypto from "node:crypto";

export interface PaymentOrder {
  id: string;
  /** The number the shopper knows the order by (#1001). */
  number: number;
  email: string;
  /** ISO 4217; every amount is in its minor units. */
  currency: string;
  totalDkk: number;
  /** Already paid (a gift card at checkout): the payment asks for totalDkk less this. */
  paidDkk: number;
  shippingDkk: number;
  discountDkk: number;
  items: Array<{ productName: string; unitPriceDkk: number; quantity: number }>;
  /** Set when the order already had a payment session that this one replaces (an item edit): a new session, not the old. */
  revision?: string;
}

export interface PaymentSession {
  /** Where the shopper pays (or reads the payment instructions). */
  paymentUrl: string;
  /** The provider's id of the payment session, stored as Order.paymentProviderSessionId. */
  providerSessionId?: string;
}

export interface PaymentProvider {
  /** Stored as Order.paymentProvider: "manual" (bank transfer / invoice) or "stripe". */
  readonly name: "manual" | "stripe";
  createPayment(order: PaymentOrder): Promise<PaymentSession>;
  /** The shop's own payment page of an order (where an order paid without the provider, by a gift card, lands). */
  pageUrl(orderId: string): string;
  /**
   * Sends `amount` of a card payment back (Stripe: a Refund of the PaymentIntent); the same idempotency key never refunds
   * twice. Absent where the provider moves no money itself (manual: staff transfer it by hand).
   */
  refund?(paymentIntentId: string, amount: number, idempotencyKey: string): Promise<{ id: string }>;
  /**
   * Makes an open payment session unpayable (Stripe: expires the Checkout Session); "paid" when the shopper has
   * already paid it, "closed" otherwise (also when it had expired before). Absent where sessions hold no amount.
   */
  closePayment?(providerSessionId: string): Promise<"closed" | "paid">;
  /**
   * Charges `amount` again to the card that paid `paymentIntentId`, off-session (Stripe: a confirmed PaymentIntent with
   * its saved PaymentMethod); the same idempotency key never charges twice. Throws CardRefused when the provider or the
   * card will not (no saved card, declined, the bank asks the customer to authenticate). Absent without a card provider.
   */
  chargeAgain?(charge: { paymentIntentId: string; amount: number; currency: string; orderId: string; idempotencyKey: string }): Promise<{ id: string; method: string }>;
}

/** The provider or the card refused a charge: `reusable` false when the card cannot be charged again at all. */
export class CardRefused extends Error {
  readonly reusable: boolean;
  constructor(message: string, reusable: boolean) {
    super(message);
    this.reusable = reusable;
  }
}

/** The token that lets whoever holds a payment link open that order's payment page (HMAC-SHA256 of the id). */
export function paymentToken(secret: string, orderId: string): string {
  return crypto.createHmac("sha256", secret).update(`order-payment:${orderId}`).digest("base64url");
}

export function verifyPaymentToken(secret: string, orderId: string, token: string): boolean {
  const expected = Buffer.from(paymentToken(secret, orderId));
  const given = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The storefront payment page of an order (instructions for manual payment, the landing page after Stripe). */
export function paymentPageUrl(publicBaseUrl: string, secret: string, orderId: string, extra = ""): string {
  return `${publicBaseUrl}/orders/${encodeURIComponent(orderId)}/pay?token=${paymentToken(secret, orderId)}${extra}`;
}
