// Order writes shared by the orders.* tools: row lock, status changes (history, audit, stamps), restock, e-mail effects.
import { NotFound, Refused } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import type { Order, Prisma } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { sendOrderConfirmation, sendShipped } from "./emails.ts";
import { itemOrder, type OrderWithItems } from "./schemas.ts";
import { canTransition, UNSHIPPED, type OrderStatus } from "./transitions.ts";
import { book, lockOrderRow, methodOf, outstandingOf } from "../money/ledger.ts";
import { issueBoughtCards } from "../money/gift-cards.ts";
import { dropOutstanding } from "../money/collect.ts";

/** Locks the order row for the rest of the transaction (concurrent status changes and refunds queue up) and loads it. */
export async function lockOrder(db: Db, id: string): Promise<OrderWithItems> {
  await lockOrderRow(db, id);
  const order = await db.order.findUnique({ where: { id }, include: { items: { orderBy: itemOrder } } });
  if (!order) throw new NotFound(`No order with id "${id}".`);
  return order;
}

/** The order row without relations (the audit snapshot). */
export function orderRow(order: OrderWithItems | Order): Order {
  const { items: _items, ...row } = order as OrderWithItems;
  return row;
}

/** 422 already_shipped unless the order is still before shipping; `what` names the change ("an address"). */
export function assertUnshipped(order: Order, what: string): void {
  if (!UNSHIPPED.has(order.status)) {
    throw new Refused("already_shipped", `Order ${order.id} is "${order.status}": ${what} can change only before the order ships.`);
  }
}

export function assertTransition(order: Order, to: OrderStatus, action = "move"): void {
  if (!canTransition(order.status, to)) {
    throw new Refused("illegal_transition", `Cannot ${action} order ${order.id}: the transition from "${order.status}" to "${to}" is not allowed.`);
  }
}

/** 422 payment_outstanding when a paid order would ship while money is still to be collected on it. */
export function assertCollected(order: Order, to: string): void {
  if (to === "shipped" && order.outstandingDkk > 0n) {
    throw new Refused("payment_outstanding", `Order ${order.id} cannot ship: ${order.outstandingDkk} øre is still to be paid on it (orders.change_items, orders.change_payment).`);
  }
}

export interface StatusChange {
  to: OrderStatus;
  reason?: string | null;
  /** More columns to write in the same update (refund amounts, tracking, cancel reason). */
  data?: Prisma.OrderUpdateInput;
}

/** The method and provider reference of the payment a change to paid books (from the columns it writes). */
function paymentOf(order: Order, data: Prisma.OrderUpdateInput): { method: string; reference: string | null } {
  const method = typeof data.paymentMethod === "string" ? data.paymentMethod : methodOf(order);
  const reference = typeof data.paymentProviderPaymentIntentId === "string" ? data.paymentProviderPaymentIntentId : order.paymentProviderPaymentIntentId;
  return { method, reference };
}

/**
 * Moves a locked order to `to` (refusing illegal transitions with 422 illegal_transition), stamps paidAt / disputedAt /
 * refundedAt / cancelledAt, writes the status history and the audit entry, restocks on cancel and, on the way to paid,
 * books the payment of what is still outstanding in the ledger, sends the confirmation after commit when none was
 * sent yet and issues the gift cards the order bought (once per line and unit); the change is announced (events.ts) in
 * the same transaction.
 */
export async function changeStatus(ctx: ToolContext, order: OrderWithItems, change: StatusChange): Promise<Order> {
  const { to } = change;
  assertTransition(order, to);
  assertCollected(order, to);
  const now = ctx.now();
  const data: Prisma.OrderUpdateInput = { ...change.data, status: to };
  // A cancelled or refunded order collects nothing more: its open payment link is closed.
  if ((to === "cancelled" || to === "refunded") && order.outstandingDkk > 0n) {
    await dropOutstanding(ctx, order);
    data.outstandingDkk = 0n;
    data.outstandingUrl = null;
  }
  if (to === "paid" && !order.paidAt) data.paidAt = now;
  if (to === "disputed") data.disputedAt = now;
  if (to === "refunded" || to === "partial_refund") data.refundedAt = now;
  if (to === "cancelled") data.cancelledAt = now;
  if (to === "paid" && !order.paidAt) {
    await book(ctx, order.id, { kind: "payment", amountDkk: await outstandingOf(ctx.db, order), ...paymentOf(order, data) });
  }
  const after = await ctx.db.order.update({ where: { id: order.id }, data });
  await ctx.db.orderStatusChange.create({
    data: { orderId: order.id, fromStatus: order.status, toStatus: to, actor: ctx.caller.actor, reason: change.reason ?? null, createdAt: now },
  });
  await ctx.audit({ subjectType: "order", subjectId: order.id, before: orderRow(order), after });
  if (to === "cancelled") await restock(ctx, order);
  if (to === "paid" && !order.confirmationEmailSentAt) confirmAfterCommit(ctx, order.id);
  if (to === "paid") await issueBoughtCards(ctx, order);
  if (to === "shipped") ctx.afterCommit(() => sendShipped(ctx.collaborators.db, ctx.collaborators.mailer, order.id, ctx.now(), ctx.config.publicBaseUrl));
  await ctx.collaborators.orderEvents.announce(ctx, { type: "status_changed", orderId: order.id, order: after, lines: order.items, from: order.status, to });
  return after;
}

/** Puts the order's units back: variant lines into the variant's stock, other lines into the product's (as orders took them). */
async function restock(ctx: ToolContext, order: OrderWithItems): Promise<void> {
  const now = ctx.now();
  for (const item of order.items) {
    const units = BigInt(item.quantity);
    if (item.variantId) {
      await ctx.db.productVariant.updateMany({ where: { id: item.variantId }, data: { stock: { increment: units }, updatedAt: now } });
    } else {
      await ctx.db.product.updateMany({ where: { id: item.productId }, data: { stock: { increment: units }, updatedAt: now } });
    }
  }
  const productIds = [...new Set(order.items.map((item) => item.productId))];
  if (productIds.length) await ctx.collaborators.catalog.changed(ctx, { stock: productIds });
}

/**
 * Sends the confirmation once the transaction has committed (never on rollback); the effect records the EmailMessage
 * and confirmationEmailSentAt itself, so a failed send leaves both untouched. `onDone` learns the send time (null on failure).
 */
export function confirmAfterCommit(ctx: ToolContext, orderId: string, onDone?: (sentAt: Date | null) => void): void {
  ctx.afterCommit(async () => {
    const sentAt = ctx.now();
    try {
      await sendOrderConfirmation(ctx.collaborators.db, ctx.collaborators.mailer, orderId, sentAt, ctx.config.publicBaseUrl);
    } catch (error) {
      onDone?.(null);
      throw error;
    }
    onDone?.(sentAt);
  });
}
