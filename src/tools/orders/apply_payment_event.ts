// orders.apply_payment_event: the payment provider's webhook applies one verified payment event (once per event id).
import { defineTool, UPDATE } from "../tool.ts";
import { applyPaymentEvent, paymentOutcome, paymentSignal } from "./payments/events.ts";

export default defineTool({
  name: "orders.apply_payment_event",
  description:
    "For the payment provider's webhook, after verifying its signature: applies one payment event once per event id " +
    "(repeats: duplicate true). If paid and the order (orderId, else providerSessionId) may become paid, it becomes paid " +
    "and the confirmation e-mail follows. 409 when the intent is on another order. Returns {duplicate, orderId, " +
    "markedPaid}.",
  input: paymentSignal,
  output: paymentOutcome,
  scope: "payments:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [
    { eventId: "evt_demo_paid", provider: "stripe", type: "checkout.session.completed", orderId: "demo-order-21", paymentIntentId: "pi_demo", paymentMethod: "card", paid: true },
    { eventId: "evt_demo_other", provider: "stripe", type: "customer.created", paid: false },
  ],
  async handler(input, ctx) {
    return applyPaymentEvent(ctx, input);
  },
});
