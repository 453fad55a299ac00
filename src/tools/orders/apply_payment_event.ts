// orders.apply_payment_event: the payment provider's webhook applies one verified payment event (once per event id).
import { paymentOutcome, paymentSignal, recordPaymentEvent, type PaymentOutcome } from "../money/payments/events.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { settleCollection } from "../money/collect.ts";
import { changeStatus, lockOrder, orderRow } from "./order-writes.ts";
import { canTransition } from "./transitions.ts";

export default defineTool({
  name: "orders.apply_payment_event",
  description:
    "The payment provider's webhook (signature verified): each eventId applies once (repeats: duplicate); a paid event " +
    "marks the order (orderId, else providerSessionId) paid if allowed and sends the confirmation. Returns {duplicate, " +
    "orderId, markedPaid}.",
  errors: [{ status: 409, when: "the payment intent belongs to another order" }],
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
  // A repeated event id changes nothing; so does an event for no order, or one the order's status cannot take.
  async handler(input, ctx) {
    const { orderId, first } = await recordPaymentEvent(ctx, input);
    const unchanged = (duplicate: boolean): PaymentOutcome => {
      ctx.unchanged();
      return { duplicate, orderId, markedPaid: false };
    };
    if (!first) return unchanged(true);
    if (!orderId || !input.paid) return unchanged(false);
    const order = await lockOrder(ctx.db, orderId);
    // A paid order's collection link (an item edit's rise, a change of payment method) was paid.
    const collection = { sessionId: input.providerSessionId ?? null, paymentIntentId: input.paymentIntentId ?? null, method: input.paymentMethod ?? null };
    const before = orderRow(order);
    if (order.paidAt && (await settleCollection(ctx, order, collection))) {
      await ctx.audit({ subjectType: "order", subjectId: order.id, before, after: await ctx.db.order.findUniqueOrThrow({ where: { id: order.id } }), note: "outstanding amount paid" });
      return { duplicate: false, orderId, markedPaid: false };
    }
    if (!canTransition(order.status, "paid")) {
      if (order.status !== "paid") ctx.log.warn("payment received for an order that cannot become paid", { orderId, status: order.status, event: input.eventId });
      return unchanged(false);
    }
    await changeStatus(ctx, order, {
      to: "paid",
      reason: `${input.provider} ${input.type} ${input.eventId}`,
      data: {
        ...(input.paymentIntentId ? { paymentProviderPaymentIntentId: input.paymentIntentId } : {}),
        ...(input.paymentMethod ? { paymentMethod: input.paymentMethod } : {}),
      },
    });
    return { duplicate: false, orderId, markedPaid: true };
  },
});
