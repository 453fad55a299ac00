// orders.apply_payment_event: the payment provider's webhook applies one verified payment event (once per event id).
import { defineTool, UPDATE } from "../tool.ts";
import { applyPaymentEvent, paymentOutcome, paymentSignal } from "./payments/events.ts";

export default defineTool({
  name: "orders.apply_payment_event",
  description:
    "For the payment provider's webhook (signature verified): applies each eventId once (repeats: duplicate true); " +
    "a paid event makes the order (orderId, else providerSessionId) paid if allowed and sends the confirmation. " +
    "409 intent on another order. Returns {duplicate, orderId, markedPaid}.",
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
