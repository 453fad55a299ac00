// Collecting money on a paid order: what an item edit adds to its total (orders.change_items collectWith), or the whole
// amount when the order changes how it is paid (orders.change_payment). A gift card or store credit, or the card that
// paid (charged again off-session), pays at once in the caller's transaction; a payment link leaves the amount on
// Order.outstandingDkk until the provider's webhook books it (orders.apply_payment_event). What the ledger then holds
// beyond what the order costs (the old method's money after a change of method) goes back where it came from.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { formatMoney } from "../../core/format.ts";
import type { Order, OrderItem } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { codeHint, findCard } from "./gift-card-codes.ts";
import { spend, usable } from "./gift-cards.ts";
import { balanceOf, book } from "./ledger.ts";
import { CardRefused } from "./payments/provider.ts";
import { refundToOriginal } from "./refunds.ts";

/** How a paid order's extra amount is collected: a gift card or store credit code, a payment link, or the card that paid. */
export const collectWith = z.union([z.enum(["payment_link", "original_card"]), z.strictObject({ giftCardCode: z.string().trim().min(16).max(40) })]).describe("How a paid order's rise is paid");

export type CollectWith = z.output<typeof collectWith>;

type OrderWithItems = Order & { items: OrderItem[] };

export interface Collected {
  /** Left on the order for the payment link. */
  outstandingDkk: bigint;
  /** Paid at once by the card or gift card. */
  paidDkk: bigint;
  paymentUrl: string | null;
}

/**
 * Collects `amount` on the locked paid `order` by `method`, first closing a collection link left open by an earlier
 * change (422 payment_in_progress when the customer has just paid it). Gift card: 422 insufficient_balance when it
 * cannot cover the amount (404 unknown, 422 giftcard_expired); original card: 422 card_not_reusable / payment_declined.
 */
export async function collect(ctx: ToolContext, order: OrderWithItems, amount: bigint, method: CollectWith): Promise<Collected> {
  await closeCollectionLink(ctx, order);
  if (amount <= 0n) {
    await setOutstanding(ctx, order, 0n, null);
    return { outstandingDkk: 0n, paidDkk: 0n, paymentUrl: null };
  }
  if (method === "payment_link") {
    const paymentUrl = await openCollectionLink(ctx, order, amount);
    return { outstandingDkk: amount, paidDkk: 0n, paymentUrl };
  }
  await setOutstanding(ctx, order, 0n, null);
  if (method === "original_card") await chargeOriginalCard(ctx, order, amount);
  else await chargeGiftCard(ctx, order, method.giftCardCode, amount);
  return { outstandingDkk: 0n, paidDkk: amount, paymentUrl: null };
}

/** Debits the card by `amount` (conditional UPDATE) and books it: 422 insufficient_balance when it holds less. */
export async function chargeGiftCard(ctx: ToolContext, order: Order, code: string, amount: bigint): Promise<void> {
  const card = usable(ctx, await findCard(ctx.db, code));
  if (card.balanceDkk < amount) throw short(card.code, card.balanceDkk, amount, order.currency);
  try {
    await spend(ctx, code, amount, order.id);
  } catch (error) {
    // A concurrent spend took it between the read and the debit.
    if (error instanceof Refused && error.code === "giftcard_insufficient_balance") throw short(card.code, 0n, amount, order.currency);
    throw error;
  }
  await book(ctx, order.id, { kind: "payment", method: "gift_card", amountDkk: amount, reference: codeHint(card.code) });
}

/** 422 insufficient_balance; `left` is what the card held when read. */
export function short(code: string, left: bigint, amount: bigint, currency: string): Refused {
  return new Refused("insufficient_balance", `The gift card ${codeHint(code)} has ${formatMoney(left, currency)} left; ${formatMoney(amount, currency)} is to be paid.`);
}

/** Charges the order's Stripe card again, off-session, and books it under the new PaymentIntent. */
async function chargeOriginalCard(ctx: ToolContext, order: Order, amount: bigint): Promise<void> {
  const provider = ctx.collaborators.payments;
  const intent = order.paymentProviderPaymentIntentId;
  if (!provider.chargeAgain || order.paymentProvider !== "stripe" || !intent) {
    throw new Refused("card_not_reusable", `Order ${order.id} was not paid by a card the shop's payment provider can charge again; use a payment link.`);
  }
  const { paidDkk } = await balanceOf(ctx.db, order.id);
  try {
    const charged = await provider.chargeAgain({ paymentIntentId: intent, amount: Number(amount), currency: order.currency, orderId: order.id, idempotencyKey: `collect-${order.id}-${paidDkk}-${amount}` });
    await book(ctx, order.id, { kind: "payment", method: charged.method, amountDkk: amount, reference: charged.id });
  } catch (error) {
    if (!(error instanceof CardRefused)) throw error;
    if (!error.reusable) throw new Refused("card_not_reusable", `Stripe cannot charge order ${order.id}'s card again (${error.message}); use a payment link.`);
    throw new Refused("payment_declined", `The card was not charged: ${error.message}; use a payment link.`);
  }
}

/**
 * Asks the provider for a payment of `amount` (Stripe: a Checkout Session; manual: the bank-transfer page, the order
 * number as reference) and leaves the amount outstanding on the order until it is paid. Returns the link.
 */
export async function openCollectionLink(ctx: ToolContext, order: OrderWithItems, amount: bigint): Promise<string> {
  const provider = ctx.collaborators.payments;
  const { paidDkk } = await balanceOf(ctx.db, order.id);
  const payment = await provider.createPayment({
    id: order.id,
    number: order.number,
    email: order.email,
    currency: order.currency,
    // One line "Ordre #1001" for the amount: the total as far as the link is concerned is what it asks.
    totalDkk: Number(amount),
    paidDkk: 0,
    shippingDkk: 0,
    discountDkk: Number(amount),
    items: [],
    revision: `collect-${paidDkk}-${amount}-${ctx.now().getTime()}`,
  });
  await setOutstanding(ctx, order, amount, payment.providerSessionId ?? null, payment.paymentUrl);
  return payment.paymentUrl;
}

/** Closes a collection link an earlier change left open; 422 payment_in_progress when it has just been paid. */
async function closeCollectionLink(ctx: ToolContext, order: Order): Promise<void> {
  const provider = ctx.collaborators.payments;
  const session = order.paymentProviderSessionId;
  if (order.outstandingDkk <= 0n || !session || !provider.closePayment) return;
  if ((await provider.closePayment(session)) === "paid") {
    throw new Refused("payment_in_progress", `The customer has just paid the ${formatMoney(order.outstandingDkk, order.currency)} still outstanding on order ${order.id}; wait for the payment to arrive, then try again.`);
  }
}

async function setOutstanding(ctx: ToolContext, order: Order, amount: bigint, session: string | null, url: string | null = null): Promise<void> {
  if (amount === order.outstandingDkk && session === null && url === order.outstandingUrl) return;
  await ctx.db.order.update({ where: { id: order.id }, data: { outstandingDkk: amount, outstandingUrl: url, ...(session ? { paymentProviderSessionId: session } : {}) } });
  order.outstandingDkk = amount;
  order.outstandingUrl = url;
}

/** Drops what is outstanding (the order is cancelled or refunded): the open link is closed first. */
export async function dropOutstanding(ctx: ToolContext, order: Order): Promise<void> {
  if (order.outstandingDkk <= 0n) return;
  await closeCollectionLink(ctx, order);
  await setOutstanding(ctx, order, 0n, null);
}

/**
 * The provider says the collection link of a paid order was paid: books the outstanding amount under the payment, and
 * gives back what the ledger then holds beyond what the order costs (after a change of method: the old method's money,
 * oldest payments first). Returns false (nothing written) when nothing is outstanding or the session is another one.
 */
export async function settleCollection(ctx: ToolContext, order: Order, paid: { sessionId: string | null; paymentIntentId: string | null; method: string | null }): Promise<boolean> {
  if (order.outstandingDkk <= 0n || !paid.sessionId || paid.sessionId !== order.paymentProviderSessionId) return false;
  const amount = order.outstandingDkk;
  await book(ctx, order.id, { kind: "payment", method: paid.method ?? "card", amountDkk: amount, reference: paid.paymentIntentId });
  await ctx.db.order.update({ where: { id: order.id }, data: { outstandingDkk: 0n, outstandingUrl: null } });
  order.outstandingDkk = 0n;
  await giveBackExcess(ctx, order);
  return true;
}

/** Refunds what the ledger holds beyond what the order costs now (its total less what was refunded of it). */
export async function giveBackExcess(ctx: ToolContext, order: Order): Promise<bigint> {
  const { paidDkk, returnedDkk } = await balanceOf(ctx.db, order.id);
  const excess = paidDkk - returnedDkk - (order.totalDkk - order.refundedDkk);
  if (excess <= 0n) return 0n;
  await refundToOriginal(ctx, order, excess, null);
  return excess;
}
