// Payment handlers of checkout sessions: which handler may complete a session and what its credential decides.
import { Refused } from "../../core/errors.ts";
import type { ToolContext } from "../context.ts";
import { paymentHandlers } from "./service.ts";

/** "paid": the handler took the money; "pending": the order waits for payment through the shop's payment link. */
export type PaymentDecision = "paid" | "pending";

/**
 * Checks the handler and its credential before any order exists, so a refusal leaves nothing behind.
 * mock_payment_handler (UCP_TEST_MODE=1 only) decides by token: success_token pays, fail_token is declined
 * (422 payment_declined), fraud_token is refused (422 payment_refused); payment_link places the order unpaid.
 */
export function decidePayment(ctx: ToolContext, handlerId: string, token: string | undefined): PaymentDecision {
  if (!paymentHandlers(ctx.config).includes(handlerId)) {
    throw new Refused("payment_handler_unknown", `There is no payment handler "${handlerId}"; use one of: ${paymentHandlers(ctx.config).join(", ")}.`);
  }
  if (handlerId === "payment_link") return "pending";
  if (token === "success_token") return "paid";
  if (token === "fraud_token") throw new Refused("payment_refused", "The payment was refused: the credential is flagged as fraudulent.");
  throw new Refused("payment_declined", "The payment was declined; try another payment instrument.");
}
