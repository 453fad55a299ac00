// POST /webhooks/stripe: verifies Stripe's signature on the raw body, translates the event into a payment signal and
// applies it through the executor as the system caller "system:stripe" (orders.apply_payment_event: one transaction
// with its audit entry, the e-mail after commit, once per event id). 400 on a bad signature, 404 when Stripe is not configured.
import express, { type Request, type Response, type Router } from "express";
import type Stripe from "stripe";
import { NotFound, ToolError } from "../core/errors.ts";
import type { Caller } from "../tools/context.ts";
import applyPaymentEvent from "../tools/orders/apply_payment_event.ts";
import type { PaymentSignal } from "../tools/money/payments/events.ts";
import type { PaymentProvider } from "../tools/money/payments/provider.ts";
import type { StripePayments } from "../tools/money/payments/stripe.ts";
import type { Config } from "../core/config.ts";
import type { Logger } from "../core/log.ts";
import type { Executor } from "../tools/executor.ts";
import { rawBody } from "../http/body.ts";
import { requestId, sendProblem } from "../http/requests.ts";

const PAID_SESSION_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

/** The webhook's caller: a verified Stripe event may apply payment events (payments:write), and nothing else. */
const STRIPE: Caller = { kind: "system", actor: "system:stripe", scopes: new Set(["payments:write"]) };

/** The fields of a signal that are present (the tool's input leaves absent ones out rather than null). */
function present(fields: Record<string, string | null | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""));
}

/** What a Stripe event says about an order's payment. */
export function stripeSignal(event: Stripe.Event): PaymentSignal {
  const base = { eventId: event.id, provider: "stripe" as const, type: event.type };
  if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
    const session = event.data.object;
    const intent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
    return {
      ...base,
      ...present({
        orderId: session.metadata?.orderId ?? session.client_reference_id,
        providerSessionId: session.id,
        paymentIntentId: intent,
        paymentMethod: session.payment_method_types?.[0],
      }),
      paid: PAID_SESSION_EVENTS.has(event.type) && session.payment_status === "paid",
    };
  }
  if (event.type === "payment_intent.succeeded") {
    const intent = event.data.object;
    return { ...base, ...present({ orderId: intent.metadata?.orderId, paymentIntentId: intent.id, paymentMethod: intent.payment_method_types?.[0] }), paid: true };
  }
  return { ...base, paid: false };
}

/** By name rather than instanceof: the Stripe module is loaded only on shops that use it (src/tools/money/payments/index.ts). */
/**
 * A paid signal names the method the shopper chose (mobilepay, card …), asked of Stripe, when the session offered
 * several; if Stripe cannot say, the first offered stands (the payment itself is never held up for it).
 */
async function withActualMethod(payments: StripePayments, signal: PaymentSignal): Promise<PaymentSignal> {
  if (!signal.paid || !signal.paymentIntentId) return signal;
  const chosen = await payments.paidWith(signal.paymentIntentId).catch(() => null);
  return chosen ? { ...signal, paymentMethod: chosen } : signal;
}

function isStripe(payments: PaymentProvider): payments is StripePayments {
  return payments.name === "stripe";
}

/** What the webhook door is handed by the composition root: the executor, the payment provider, its secret's config, the log. */
export interface StripeWebhookDeps {
  executor: Executor;
  payments: PaymentProvider;
  config: Pick<Config, "stripeWebhookSecret">;
  log: Logger;
}

export function webhookRouter(deps: StripeWebhookDeps): Router {
  const router = express.Router();
  router.post("/webhooks/stripe", rawBody({ limit: "1mb" }), async (req: Request, res: Response) => {
    const id = requestId(req);
    try {
      const payments = deps.payments;
      if (!isStripe(payments) || !deps.config.stripeWebhookSecret) throw new NotFound("Stripe is not configured on this shop.");
      const signature = req.headers["stripe-signature"];
      let event: Stripe.Event;
      try {
        event = payments.event(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), typeof signature === "string" ? signature : "");
      } catch {
        throw new ToolError(400, "invalid_signature", "Invalid signature", "The Stripe-Signature header does not match the body.");
      }
      const signal = await withActualMethod(payments, stripeSignal(event));
      const outcome = await deps.executor.call(applyPaymentEvent, signal, { caller: STRIPE, door: "webhook", requestId: id });
      res.json({ ok: true, result: { received: true, ...outcome } });
    } catch (error) {
      sendProblem(res, error, id, deps.log);
    }
  });
  return router;
}
