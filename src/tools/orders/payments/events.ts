// Payment provider events (webhooks): each event is applied once (a PaymentEvent row keyed by the provider's event id,
// inserted in the same transaction as its effect), and a successful payment moves the order to paid.
import { z } from "zod";
import type { ToolContext } from "../../context.ts";
import { changeStatus, lockOrder } from "../service.ts";
import { canTransition } from "../transitions.ts";

const id = (what: string) => z.string().min(1).max(500).describe(what);

/** What a provider's event says about an order's payment (the webhook door translates the provider's event into it). */
export const paymentSignal = z.strictObject({
  eventId: id("Provider's event id (Stripe evt_…)."),
  provider: z.enum(["stripe"]).describe("Sending provider."),
  type: z.string().min(1).max(100).describe("E.g. checkout.session.completed."),
  orderId: id("From the event's metadata.").optional(),
  providerSessionId: id("Provider's session id (Stripe cs_…).").optional(),
  paymentIntentId: id("Provider's payment intent id.").optional(),
  paymentMethod: z.string().min(1).max(100).optional().describe("How the shopper paid (card, mobilepay …)."),
  paid: z.boolean().describe("The money was received."),
});

export type PaymentSignal = z.output<typeof paymentSignal>;

export const paymentOutcome = z.strictObject({
  duplicate: z.boolean().describe("True when this event id was applied before: nothing changed."),
  orderId: z.string().nullable().describe("The order the event concerns, or null when it names none of this shop's orders."),
  markedPaid: z.boolean().describe("True when this event moved the order to paid."),
});

export type PaymentOutcome = z.output<typeof paymentOutcome>;

async function findOrder(ctx: ToolContext, signal: PaymentSignal): Promise<string | null> {
  const where = signal.orderId ? { id: signal.orderId } : signal.providerSessionId ? { paymentProviderSessionId: signal.providerSessionId } : null;
  if (!where) return null;
  const order = await ctx.db.order.findUnique({ where, select: { id: true } });
  return order?.id ?? null;
}

/**
 * Records the event and, when it says the order is paid and the order may become paid, moves it there (status history,
 * audit entry, confirmation e-mail after commit). A repeated event id changes nothing; so does an event for no order.
 */
export async function applyPaymentEvent(ctx: ToolContext, signal: PaymentSignal): Promise<PaymentOutcome> {
  const orderId = await findOrder(ctx, signal);
  const inserted = await ctx.db.paymentEvent.createMany({
    data: [{ id: signal.eventId, provider: signal.provider, type: signal.type, orderId }],
    skipDuplicates: true,
  });
  const unchanged = (duplicate: boolean): PaymentOutcome => {
    ctx.unchanged();
    return { duplicate, orderId, markedPaid: false };
  };
  if (inserted.count === 0) return unchanged(true);
  if (!orderId || !signal.paid) return unchanged(false);
  const order = await lockOrder(ctx.db, orderId);
  if (!canTransition(order.status, "paid")) {
    if (order.status !== "paid") ctx.log.warn("payment received for an order that cannot become paid", { orderId, status: order.status, event: signal.eventId });
    return unchanged(false);
  }
  await changeStatus(ctx, order, {
    to: "paid",
    reason: `${signal.provider} ${signal.type} ${signal.eventId}`,
    data: {
      ...(signal.paymentIntentId ? { paymentProviderPaymentIntentId: signal.paymentIntentId } : {}),
      ...(signal.paymentMethod ? { paymentMethod: signal.paymentMethod } : {}),
    },
  });
  return { duplicate: false, orderId, markedPaid: true };
}
