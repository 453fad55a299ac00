// Payment provider events (webhooks) as the shop reads them: what an event says about an order's payment, and the
// record that lets each event be applied once (a PaymentEvent row keyed by the provider's event id, inserted in the same
// transaction as its effect). orders.apply_payment_event moves the order to paid.
import { z } from "zod";
import type { ToolContext } from "../../context.ts";

const id = (what: string) => z.string().min(1).max(500).describe(what);

/** What a provider's event says about an order's payment (the webhook door translates the provider's event into it). */
export const paymentSignal = z.strictObject({
  eventId: id("Stripe evt_…"),
  provider: z.enum(["stripe"]).describe("Sending provider."),
  type: z.string().min(1).max(100).describe("E.g. checkout.session.completed."),
  orderId: id("From the event's metadata.").optional(),
  providerSessionId: id("Stripe cs_…").optional(),
  paymentIntentId: id("The payment intent.").optional(),
  paymentMethod: z.string().min(1).max(100).optional().describe("card, mobilepay …"),
  paid: z.boolean().describe("Money received."),
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

/** The order an event is about, and whether this is the first time the event arrives (a repeat changes nothing). */
export interface RecordedEvent {
  orderId: string | null;
  first: boolean;
}

/** Records the event once, with the order it names (null when it names none of this shop's orders). */
export async function recordPaymentEvent(ctx: ToolContext, signal: PaymentSignal): Promise<RecordedEvent> {
  const orderId = await findOrder(ctx, signal);
  const inserted = await ctx.db.paymentEvent.createMany({
    data: [{ id: signal.eventId, provider: signal.provider, type: signal.type, orderId }],
    skipDuplicates: true,
  });
  return { orderId, first: inserted.count > 0 };
}
