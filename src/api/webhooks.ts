// POST /webhooks/stripe: verifies the signature on the raw body, turns the event into a payment signal and applies
// it once (src/tools/orders/payments/events.ts). 400 on a bad signature, 404 when Stripe is not configured.
import express, { type Request, type Response, type Router } from "express";
import type Stripe from "stripe";
import { NotFound, ToolError } from "../core/errors.ts";
import { applyPaymentEvent, type PaymentSignal } from "../tools/orders/payments/events.ts";
import type { PaymentProvider } from "../tools/orders/payments/provider.ts";
import type { StripePayments } from "../tools/orders/payments/stripe.ts";
import type { Runtime } from "../runtime.ts";
import { requestId, sendProblem } from "./http.ts";

const PAID_SESSION_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

/** What a Stripe event says about an order's payment. */
export function stripeSignal(event: Stripe.Event): PaymentSignal {
  const base = { eventId: event.id, provider: "stripe", type: event.type };
  if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
    const session = event.data.object;
    const intent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
    return {
      ...base,
      orderId: session.metadata?.orderId ?? session.client_reference_id ?? null,
      providerSessionId: session.id,
      paymentIntentId: intent,
      paymentMethod: session.payment_method_types?.[0] ?? null,
      paid: PAID_SESSION_EVENTS.has(event.type) && session.payment_status === "paid",
    };
  }
  if (event.type === "payment_intent.succeeded") {
    const intent = event.data.object;
    return {
      ...base,
      orderId: intent.metadata?.orderId ?? null,
      providerSessionId: null,
      paymentIntentId: intent.id,
      paymentMethod: intent.payment_method_types?.[0] ?? null,
      paid: true,
    };
  }
  return { ...base, orderId: null, providerSessionId: null, paymentIntentId: null, paymentMethod: null, paid: false };
}

/** By name rather than instanceof: the Stripe module is loaded only on shops that use it (src/tools/orders/payments/index.ts). */
function isStripe(payments: PaymentProvider): payments is StripePayments {
  return payments.name === "stripe";
}

export function webhookRouter(runtime: Runtime): Router {
  const router = express.Router();
  router.post("/webhooks/stripe", express.raw({ type: () => true, limit: "1mb" }), async (req: Request, res: Response) => {
    const id = requestId(req);
    try {
      const payments = runtime.services.payments;
      if (!isStripe(payments) || !runtime.config.stripeWebhookSecret) throw new NotFound("Stripe is not configured on this shop.");
      const signature = req.headers["stripe-signature"];
      let event: Stripe.Event;
      try {
        event = payments.event(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), typeof signature === "string" ? signature : "");
      } catch {
        throw new ToolError(400, "invalid_signature", "Invalid signature", "The Stripe-Signature header does not match the body.");
      }
      const outcome = await applyPaymentEvent(
        { prisma: runtime.database.prisma, mailer: runtime.services.mailer, log: runtime.log, now: () => new Date() },
        stripeSignal(event),
      );
      res.json({ ok: true, result: { received: true, ...outcome } });
    } catch (error) {
      sendProblem(res, error, id, runtime.log);
    }
  });
  return router;
}
