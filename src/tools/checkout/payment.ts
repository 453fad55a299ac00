// Payment handlers of checkout sessions: which handler may complete a session and what its credential decides.
import { Refused } from "../../core/errors.ts";
import type { ToolContext } from "../context.ts";
import { paymentHandlers } from "./service.ts";

/** "paid": the handler took the money; "pending": the order waits for payment through the shop's payment link. */
export type PaymentDecision = "paid" | "pending";

/**
 * Checks the handler and its credential before any order exists, so a refusal leaves nothing behind.
 * The test handlers (mock_payment_handler, google_pay, shop_pay; UCP_TEST_MODE=1 only) decide by token: success_token pays, fail_token is declined
 * (422 payment_declined), fraud_token is refused (422 payment_refused); a card credential pays when its number passes the
 * Luhn check (test cards), else is declined; payment_link places the order unpaid.
 */
export function decidePayment(ctx: ToolContext, handlerId: string, token: string | undefined, cardNumber?: string): PaymentDecision {
  if (!paymentHandlers(ctx.config).includes(handlerId)) {
    throw new Refused("payment_handler_unknown", `There is no payment handler "${handlerId}"; use one of: ${paymentHandlers(ctx.config).join(", ")}.`);
  }
  if (handlerId === "payment_link") return "pending";
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
