// Payment provider events (webhooks): each event is processed once (a PaymentEvent row keyed by the provider's
// event id, inserted in the same transaction as its effect), and a successful payment moves the order to paid.
import type { Prisma } from "../../../core/db.ts";
import { toJson } from "../../../core/json.ts";
import type { Logger } from "../../../core/log.ts";
import type { Mailer } from "../../../core/mail.ts";
import { sendOrderConfirmation } from "../emails.ts";
import { canTransition } from "../transitions.ts";

export interface PaymentSignal {
  eventId: string;
  provider: string;
  type: string;
  /** The order named in the event's metadata, when present. */
  orderId: string | null;
  /** The provider's payment session id (finds the order when metadata is missing). */
  providerSessionId: string | null;
  paymentIntentId: string | null;
  paymentMethod: string | null;
  /** True when the event says the money has been received. */
  paid: boolean;
}

export interface PaymentOutcome {
  duplicate: boolean;
  orderId: string | null;
  /** True when this event moved the order to paid. */
  markedPaid: boolean;
}

export interface PaymentDeps {
  prisma: Prisma;
  mailer: Mailer;
  log: Logger;
  now: () => Date;
}

export async function applyPaymentEvent(deps: PaymentDeps, signal: PaymentSignal): Promise<PaymentOutcome> {
  const actor = `system:${signal.provider}`;
  const outcome = await deps.prisma.$transaction(async (tx): Promise<PaymentOutcome> => {
    const order = signal.orderId
      ? await tx.order.findUnique({ where: { id: signal.orderId }, select: { id: true } })
      : signal.providerSessionId
        ? await tx.order.findUnique({ where: { paymentProviderSessionId: signal.providerSessionId }, select: { id: true } })
        : null;
    const inserted = await tx.paymentEvent.createMany({
      data: [{ id: signal.eventId, provider: signal.provider, type: signal.type, orderId: order?.id ?? null }],
      skipDuplicates: true,
    });
    if (inserted.count === 0) return { duplicate: true, orderId: order?.id ?? null, markedPaid: false };
    if (!order || !signal.paid) return { duplicate: false, orderId: order?.id ?? null, markedPaid: false };
    await tx.$queryRaw`SELECT id FROM "Order" WHERE id = ${order.id} FOR UPDATE`;
    const before = await tx.order.findUniqueOrThrow({ where: { id: order.id } });
    if (!canTransition(before.status, "paid")) {
      if (before.status !== "paid") deps.log.warn("payment received for an order that cannot become paid", { orderId: order.id, status: before.status, event: signal.eventId });
      return { duplicate: false, orderId: order.id, markedPaid: false };
    }
    const now = deps.now();
    const after = await tx.order.update({
      where: { id: order.id },
      data: {
        status: "paid",
        paidAt: now,
        ...(signal.paymentIntentId ? { paymentProviderPaymentIntentId: signal.paymentIntentId } : {}),
        ...(signal.paymentMethod ? { paymentMethod: signal.paymentMethod } : {}),
      },
    });
    await tx.orderStatusChange.create({
      data: { orderId: order.id, fromStatus: before.status, toStatus: "paid", actor, reason: `${signal.provider} ${signal.type} ${signal.eventId}`, createdAt: now },
    });
    await tx.auditEntry.create({
      data: {
        tool: `webhooks.${signal.provider}`,
        actor,
        door: "webhook",
        requestId: signal.eventId,
        subjectType: "order",
        subjectId: order.id,
        before: toJson(before) ?? {},
        after: toJson(after) ?? {},
      },
    });
    return { duplicate: false, orderId: order.id, markedPaid: true };
  });
  if (outcome.markedPaid && outcome.orderId) {
    try {
      await sendOrderConfirmation(deps.prisma, deps.mailer, outcome.orderId, deps.now());
    } catch (error) {
      deps.log.error("order confirmation failed", { orderId: outcome.orderId, error: String(error) });
    }
  }
  return outcome;
}
