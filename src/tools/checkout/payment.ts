// Payment handlers of checkout sessions: which handler may complete a session and what its credential decides.
import crypto from "node:crypto";
import { Refused } from "../../core/errors.ts";
import type { ToolContext } from "../context.ts";
import type { StripePayments } from "../orders/payments/stripe.ts";
import { paymentHandlers, STRIPE_SPT_HANDLER } from "./service.ts";

/**
 * "paid": the handler took the money; "pending": the order waits for payment through the shop's payment link;
 * "charge": a delegated token to charge once the order (and its amount) exists, in the same transaction.
 */
export type PaymentDecision = "paid" | "pending" | "charge";

/**
 * Checks the handler and its credential before any order exists, so a refusal leaves nothing behind.
 * The test handlers (mock_payment_handler, google_pay, shop_pay; UCP_TEST_MODE=1 only) decide by token: success_token pays, fail_token is declined
 * (422 payment_declined), fraud_token is refused (422 payment_refused); a card credential pays when its number passes the
 * Luhn check (test cards), else is declined; payment_link places the order unpaid; stripe_spt (with Stripe configured)
 * needs a shared payment token (spt_…), charged by `chargeSharedToken`.
 */
export function decidePayment(ctx: ToolContext, handlerId: string, token: string | undefined, cardNumber?: string): PaymentDecision {
  if (!paymentHandlers(ctx.config).includes(handlerId)) {
    throw new Refused("payment_handler_unknown", `There is no payment handler "${handlerId}"; use one of: ${paymentHandlers(ctx.config).join(", ")}.`);
  }
  if (handlerId === "payment_link") return "pending";
  if (handlerId === STRIPE_SPT_HANDLER) {
    if (!token || !/^spt_[A-Za-z0-9_]{1,250}$/.test(token)) throw new Refused("payment_declined", "A Stripe shared payment token (spt_…) is needed.");
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

export interface SharedTokenCharge {
  token: string;
  /** Minor units. */
  amount: number;
  currency: string;
  orderId: string;
  checkoutId: string;
}

/**
 * Charges a Stripe shared payment token through the Stripe SDK: one PaymentIntent with the granted token, confirmed at
 * once. Stripe enforces the token's allowance (amount, currency, expiry); a decline or any refusal by Stripe is 422
 * payment_declined, so the caller's transaction (order and stock) rolls back. Returns the PaymentIntent's id.
 */
export async function chargeSharedToken(ctx: ToolContext, charge: SharedTokenCharge): Promise<string> {
  const payments = ctx.services.payments as Partial<StripePayments>;
  if (!payments.client) throw new Refused("payment_declined", "Stripe is not configured.");
  const params = {
    amount: charge.amount,
    currency: charge.currency.toLowerCase(),
    confirm: true,
    shared_payment_granted_token: charge.token,
    automatic_payment_methods: { enabled: true, allow_redirects: "never" as const },
    metadata: { orderId: charge.orderId, checkoutSessionId: charge.checkoutId },
  };
  let intent;
  try {
    // One charge per session, token and amount: a retry after a lost answer or a crash replays Stripe's first result
    // instead of charging twice. Bounded well inside the completion's 30 s transaction.
    const fingerprint = crypto.createHash("sha256").update(charge.token).digest("hex").slice(0, 16);
    intent = await payments.client.paymentIntents.create(params, { idempotencyKey: `checkout-${charge.checkoutId}-${fingerprint}-${charge.amount}`, timeout: 15_000 });
  } catch (error) {
    const detail = error instanceof Error ? error.message : "refused";
    const status = (error as { statusCode?: number }).statusCode ?? 0;
    if (status >= 400 && status < 500) throw new Refused("payment_declined", `The payment was declined: ${detail}`);
    throw error;
  }
  if (intent.status !== "succeeded" && intent.status !== "processing") throw new Refused("payment_declined", `The payment was not completed (${intent.status}).`);
  return intent.id;
}
