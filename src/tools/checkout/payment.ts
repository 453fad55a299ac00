// Payment handlers of checkout sessions: which handler may complete a session and what its credential decides.
import crypto from "node:crypto";
import { Refused } from "../../core/errors.ts";
import type { ToolContext } from "../context.ts";
import type Stripe from "stripe";
import type { StripePayments } from "../money/payments/stripe.ts";
import { paymentHandlers, STRIPE_HANDLER, STRIPE_SPT_HANDLER } from "./sessions.ts";

/**
 * "paid": the handler took the money; "pending": the order waits for payment through the shop's payment link;
 * "charge": a delegated token to charge once the order (and its amount) exists, in the same transaction.
 */
export type PaymentDecision = "paid" | "pending" | "charge";

const SHARED_TOKEN = /^spt_[A-Za-z0-9_]{1,250}$/;
const PAYMENT_METHOD = /^pm_[A-Za-z0-9_]{1,250}$/;

/**
 * Checks the handler and its credential before any order exists, so a refusal leaves nothing behind.
 * The test handlers (mock_payment_handler, google_pay, shop_pay; UCP_TEST_MODE=1 only) decide by token: success_token pays, fail_token is declined
 * (422 payment_declined), fraud_token is refused (422 payment_refused); a card credential pays when its number passes the
 * Luhn check (test cards), else is declined; payment_link places the order unpaid; stripe_spt (with Stripe configured)
 * needs a shared payment token (spt_…) and stripe (with both Stripe keys) a PaymentMethod id (pm_…) or one, charged by
 * `chargeStripe`.
 */
export function decidePayment(ctx: ToolContext, handlerId: string, token: string | undefined, cardNumber?: string): PaymentDecision {
  if (!paymentHandlers(ctx.config).includes(handlerId)) {
    throw new Refused("payment_handler_unknown", `There is no payment handler "${handlerId}"; use one of: ${paymentHandlers(ctx.config).join(", ")}.`);
  }
  if (handlerId === "payment_link") return "pending";
  if (handlerId === STRIPE_SPT_HANDLER) {
    if (!token || !SHARED_TOKEN.test(token)) throw new Refused("payment_declined", "A Stripe shared payment token (spt_…) is needed.");
    return "charge";
  }
  if (handlerId === STRIPE_HANDLER) {
    // Only a token: a card number sent here is never forwarded, kept or echoed.
    if (!token || !(PAYMENT_METHOD.test(token) || SHARED_TOKEN.test(token))) {
      throw new Refused("payment_declined", "A Stripe PaymentMethod id (pm_…, made with the handler's publishable_key) or shared payment token (spt_…) is needed.");
    }
    return "charge";
  }
  if (token === undefined && cardNumber !== undefined) {
    if (luhn(cardNumber)) return "paid";
    throw new Refused("payment_declined", "The card was declined: its number is not valid.");
  }
  if (token === "success_token") return "paid";
  if (token === "fraud_token") throw new Refused("payment_refused", "The payment was refused: the credential is flagged as fraudulent.");
  throw new Refused("payment_declined", "The payment was declined; try another payment instrument.");
}

/** The Luhn check digit test of a card number. */
function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A charge of a Stripe token: a PaymentMethod (pm_…, tokenised by the agent with the shop's publishable key) or a shared payment token (spt_…). */
export interface StripeCharge {
  token: string;
  /** Minor units. */
  amount: number;
  currency: string;
  orderId: string;
  checkoutId: string;
}

/** What a successful charge leaves: the PaymentIntent, and how it was paid as the PaymentMethod shows it (never the number). */
export interface StripeCharged {
  intentId: string;
  method: string | null;
  brand?: string;
  lastDigits?: string;
}

/**
 * 422 payment_requires_action: the bank wants the buyer to authenticate (3-D Secure) at `continueUrl`. Nothing is
 * ordered; completing again with the same token after the buyer has authenticated pays (UCP: requires_escalation).
 */
export class PaymentActionRequired extends Refused {
  readonly continueUrl: string;

  constructor(continueUrl: string) {
    super("payment_requires_action", `The card issuer asks the buyer to authenticate the payment (3-D Secure) at ${continueUrl}; complete again with the same credential afterwards.`);
    this.continueUrl = continueUrl;
  }
}

/**
 * Charges a Stripe token through the Stripe SDK: one PaymentIntent for the order's amount, confirmed at once. Stripe
 * enforces a shared token's allowance (amount, currency, expiry). A decline or any other refusal by Stripe is 422
 * payment_declined, so the caller's transaction (order and stock) rolls back; a PaymentMethod that needs 3-D Secure is
 * PaymentActionRequired (rolled back as well).
 *
 * One charge per session, token and amount: the Stripe idempotency key is made of those, and so are all the create
 * parameters (Stripe refuses a key reused with other parameters), so a retry — after a lost answer, a crash, or the
 * buyer's 3-D Secure — gets Stripe's first PaymentIntent back instead of a second charge. The order id, new on every
 * attempt, is written to the PaymentIntent's metadata afterwards.
 */
export async function chargeStripe(ctx: ToolContext, charge: StripeCharge): Promise<StripeCharged> {
  const payments = ctx.collaborators.payments as Partial<StripePayments>;
  if (!payments.client) throw new Refused("payment_declined", "Stripe is not configured.");
  const stripe = payments.client;
  const shared = charge.token.startsWith("spt_");
  const params = {
    amount: charge.amount,
    currency: charge.currency.toLowerCase(),
    confirm: true,
    metadata: { checkoutSessionId: charge.checkoutId },
    expand: ["payment_method"],
    // A shared token cannot be handed back to the buyer for 3-D Secure; a PaymentMethod's authentication page returns to the shop.
    ...(shared
      ? { shared_payment_granted_token: charge.token, automatic_payment_methods: { enabled: true, allow_redirects: "never" as const } }
      : { payment_method: charge.token, return_url: `${ctx.config.publicBaseUrl}/` }),
  };
  const fingerprint = crypto.createHash("sha256").update(charge.token).digest("hex").slice(0, 16);
  const options = { timeout: 15_000 };
  let intent: Stripe.PaymentIntent;
  try {
    // Bounded well inside the completion's 30 s transaction.
    intent = await stripe.paymentIntents.create(params, { ...options, idempotencyKey: `checkout-${charge.checkoutId}-${fingerprint}-${charge.amount}` });
    // A replayed first attempt that waited for 3-D Secure: how it stands now.
    if (intent.status === "requires_action") intent = await stripe.paymentIntents.retrieve(intent.id, { expand: ["payment_method"] }, options);
  } catch (error) {
    const detail = error instanceof Error ? error.message : "refused";
    const status = (error as { statusCode?: number }).statusCode ?? 0;
    if (status >= 400 && status < 500) throw new Refused("payment_declined", `The payment was declined: ${detail}`);
    throw error;
  }
  if (intent.status === "requires_action") {
    const url = intent.next_action?.redirect_to_url?.url;
    if (url) throw new PaymentActionRequired(url);
    throw new Refused("payment_declined", "The card issuer asks for an authentication this checkout cannot hand to the buyer; use another payment method.");
  }
  if (intent.status !== "succeeded" && intent.status !== "processing") throw new Refused("payment_declined", `The payment was not completed (${intent.status}).`);
  await stripe.paymentIntents.update(intent.id, { metadata: { orderId: charge.orderId } }, options);
  return { intentId: intent.id, ...shown(intent.payment_method) };
}

/** The method type, card brand and last four digits of a PaymentIntent's expanded PaymentMethod. */
function shown(method: string | Stripe.PaymentMethod | null): Omit<StripeCharged, "intentId"> {
  if (!method || typeof method === "string") return { method: null };
  const card = method.card;
  return { method: method.type, ...(card?.brand ? { brand: card.brand } : {}), ...(card?.last4 ? { lastDigits: card.last4 } : {}) };
}
