// Giving an order's money back: what the ledger says was paid and not yet returned, either as store credit (a new gift
// card), onto a gift card the shopper names (topped up), or to where it came from: gift-card payments back onto their
// cards, card payments through the payment provider, the rest as a refund task staff pay out by hand. A replacement
// order's money paid on an earlier order of its exchange chain goes back to that order's payment. Booked in the ledger
// in the caller's transaction.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import type { GiftCard, Order } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { orderRef } from "../shared/order-numbers.ts";
import { codeHint, findCard, isCode } from "./gift-card-codes.ts";
import { issueCard, topUp, usable } from "./gift-cards.ts";
import { allocate, balanceOf, book, lockOrderRow, methodOf, poolsOf, TRANSFER } from "./ledger.ts";

const REFUND_TO = ["original", "store_credit"] as const;

/**
 * The refund destination of orders.cancel, orders.change_items, returns.request and returns.receive: "original",
 * "store_credit", or a gift card's code (the card is topped up). One string keeps the tools' listing small.
 */
export const refundTo = z
  .string()
  .trim()
  .min(8)
  .max(40)
  .refine((value) => (REFUND_TO as readonly string[]).includes(value) || isCode(value), "original, store_credit or a gift card code")
  .optional()
  .describe("original (as paid; the default), store_credit (a new card) or a gift card's code (topped up).");
export const refundAccount = z.string().trim().min(5).max(100).optional().describe("Reg.nr. and account no. for a bank-transfer refund.");

/** A refund's destination as the input gives it. */
export type RefundChoice = z.infer<typeof refundTo>;

/** A refund's destination, its card looked up: where refundUpTo sends the money. */
export type Destination = { to: "original" } | { to: "store_credit" } | { to: "gift_card"; card: GiftCard };

/** The destination an input names (default original); a named card must exist (404) and not have expired (422 giftcard_expired). */
export async function destinationOf(ctx: ToolContext, choice: RefundChoice): Promise<Destination> {
  if (choice === undefined || choice === "original") return { to: "original" };
  if (choice === "store_credit") return { to: "store_credit" };
  return { to: "gift_card", card: usable(ctx, await findCard(ctx.db, choice)) };
}

export interface Returned {
  amountDkk: bigint;
  /** The store credit issued, or the named card topped up, when the money went there. */
  giftCard: GiftCard | null;
  /**
   * Where the money went: one part per method (gift_card, card, bank_transfer …, store_credit, or topped_up: onto a card
   * the shopper named, whose last four symbols `card` holds), in booking order.
   */
  parts: Array<{ method: string; amountDkk: bigint; card?: string }>;
}

/** Returns everything paid and not yet returned; `account` is where a bank-transfer refund goes, when the shopper said. */
export function refundAll(ctx: ToolContext, order: Order, to: Destination, account: string | null): Promise<Returned> {
  return refundUpTo(ctx, order, null, to, account);
}

/** Returns `limit` (null: no limit) of what was paid and not yet returned, never more; as refundAll otherwise. */
export async function refundUpTo(ctx: ToolContext, order: Order, limit: bigint | null, to: Destination, account: string | null): Promise<Returned> {
  const { paidDkk, returnedDkk } = await balanceOf(ctx.db, order.id);
  const open = paidDkk - returnedDkk;
  const amount = limit !== null && limit < open ? limit : open;
  if (amount <= 0n) return { amountDkk: 0n, giftCard: null, parts: [] };
  if (to.to === "original") return { amountDkk: amount, giftCard: null, parts: await refundToOriginal(ctx, order, amount, account) };
  const card =
    to.to === "store_credit"
      ? await issueCard(ctx, { amountDkk: amount, customerEmail: order.email || null, reason: `Tilgodebevis for ordre ${orderRef(order.number)}`, source: "store_credit", orderId: order.id })
      : await topUp(ctx, to.card, amount, order);
  // Money kept in the shop as a card's balance: a store_credit entry, split per source like any refund and checked the same.
  const shares = allocate(await poolsOf(ctx.db, order.id), amount);
  for (const { pool, amountDkk } of shares) {
    await book(ctx, order.id, { kind: "store_credit", method: "gift_card", amountDkk, reference: codeHint(card.code), sourceOrderId: pool.source?.id ?? null });
  }
  await assertCovered(ctx, shares.map(({ pool }) => pool.source?.id ?? order.id));
  const part = to.to === "store_credit" ? { method: "store_credit", amountDkk: amount } : { method: "topped_up", amountDkk: amount, card: codeHint(card.code) };
  return { amountDkk: amount, giftCard: card, parts: [part] };
}

/**
 * Gives `amount` (at most what was paid and not yet returned) back where it came from, source by source (the order's own
 * money first, then what its exchange chain's earlier orders paid): gift-card money onto its cards first, then card
 * money through the provider, the rest as a refund task for staff. Booked as `refund` entries on `order`; returns where
 * the money went.
 */
export async function refundToOriginal(ctx: ToolContext, order: Order, amount: bigint, account: string | null): Promise<Returned["parts"]> {
  const parts: Returned["parts"] = [];
  const part = (method: string, amountDkk: bigint) => {
    const same = parts.find((existing) => existing.method === method);
    if (same) same.amountDkk += amountDkk;
    else if (amountDkk > 0n) parts.push({ method, amountDkk });
    return amountDkk;
  };
  const sources: string[] = [];
  for (const { pool, amountDkk } of allocate(await poolsOf(ctx.db, order.id), amount)) {
    // Refunds of one payment queue on its order's row, so each reads what the others gave back of it.
    const source = pool.source ? await relock(ctx, pool.source.id) : order;
    const via = pool.source ? source.id : null;
    let left = amountDkk;
    left -= part("gift_card", await backToGiftCards(ctx, order.id, source.id, left, via));
    left -= part(methodOf(source), await backToCard(ctx, order.id, source, left, via));
    if (left > 0n) {
      await book(ctx, order.id, { kind: "refund", method: byHand(source), amountDkk: left, sourceOrderId: via });
      await ctx.db.refundTask.create({ data: { orderId: order.id, amountDkk: left, account, createdAt: ctx.now() } });
      part(byHand(source), left);
    }
    sources.push(source.id);
  }
  await assertCovered(ctx, sources);
  return parts;
}

/**
 * Books a refund made outside the shop (orders.refund, a status set to refunded) the way refundToOriginal would have
 * split it: per source of the order's money, under the method that source was paid by.
 */
export async function recordRefund(ctx: ToolContext, order: Order, amount: bigint): Promise<void> {
  for (const { pool, amountDkk } of allocate(await poolsOf(ctx.db, order.id), amount)) {
    await book(ctx, order.id, { kind: "refund", method: methodOf(pool.source ?? order), amountDkk, sourceOrderId: pool.source?.id ?? null });
  }
}

/** The order as it is once its row lock is taken. */
async function relock(ctx: ToolContext, orderId: string): Promise<Order> {
  await lockOrderRow(ctx.db, orderId);
  return ctx.db.order.findUniqueOrThrow({ where: { id: orderId } });
}

/** Entries that move `sourceId`'s own money, on whichever order of its exchange chain they are booked. */
const moneyOf = (sourceId: string) => ({ OR: [{ orderId: sourceId, sourceOrderId: null }, { sourceOrderId: sourceId }] });

/**
 * Refuses (422 refund_exceeds_paid, rolling the change back) when what went back of a source's money, across its exchange
 * chain, exceeds what was paid on it: refunds never exceed payments, however refunds of an order and its replacements
 * interleave.
 */
async function assertCovered(ctx: ToolContext, sourceIds: string[]): Promise<void> {
  for (const id of new Set(sourceIds)) {
    const [paid, returned] = await Promise.all([
      ctx.db.paymentEntry.aggregate({ where: { orderId: id, sourceOrderId: null, kind: "payment" }, _sum: { amountDkk: true } }),
      ctx.db.paymentEntry.aggregate({ where: { ...moneyOf(id), kind: { in: ["refund", "store_credit"] }, method: { not: TRANSFER } }, _sum: { amountDkk: true } }),
    ]);
    const [paidDkk, returnedDkk] = [paid._sum.amountDkk ?? 0n, returned._sum.amountDkk ?? 0n];
    if (returnedDkk > paidDkk) {
      throw new Refused("refund_exceeds_paid", `Refunds of order ${id}'s payments would come to ${returnedDkk} øre, more than the ${paidDkk} øre paid.`);
    }
  }
}

/**
 * Puts gift-card money spent on `sourceId` back on those cards (at most `limit`), booked on `orderId` (`via`: the source
 * when that is an earlier order of its chain); returns how much.
 */
async function backToGiftCards(ctx: ToolContext, orderId: string, sourceId: string, limit: bigint, via: string | null): Promise<bigint> {
  const movements = await ctx.db.giftCardMovement.findMany({ where: { orderId: sourceId }, include: { giftCard: true }, orderBy: { createdAt: "asc" } });
  const net = new Map<string, { card: GiftCard; amount: bigint }>();
  for (const movement of movements) {
    const entry = net.get(movement.giftCardId) ?? { card: movement.giftCard, amount: 0n };
    entry.amount -= movement.amountDkk; // spending is negative: what the order still holds of this card
    net.set(movement.giftCardId, entry);
  }
  let returned = 0n;
  for (const { card, amount } of net.values()) {
    const back = amount < limit - returned ? amount : limit - returned;
    if (back <= 0n) continue;
    const now = ctx.now();
    await ctx.db.giftCard.update({ where: { id: card.id }, data: { balanceDkk: { increment: back }, updatedAt: now } });
    // The movement names the order the card paid, so that order's net on the card stays right whoever gives it back.
    await ctx.db.giftCardMovement.create({ data: { giftCardId: card.id, amountDkk: back, orderId: sourceId, actor: ctx.caller.actor, createdAt: now } });
    await book(ctx, orderId, { kind: "refund", method: "gift_card", amountDkk: back, reference: codeHint(card.code), sourceOrderId: via });
    returned += back;
  }
  return returned;
}

/**
 * Refunds card money `source` was paid through the provider (at most `limit` and what its card payments came to less the
 * refunds of them across the chain), booked on `orderId`; returns how much. An order may hold several card payments (its
 * checkout, and what was collected later by link or by charging the card again): the oldest is given back first, so
 * after a change of payment method the old payments are the ones refunded.
 */
async function backToCard(ctx: ToolContext, orderId: string, source: Order, limit: bigint, via: string | null): Promise<bigint> {
  const provider = ctx.collaborators.payments;
  if (!provider.refund || limit <= 0n) return 0n;
  const intents = await cardPayments(ctx, source);
  if (!intents.length) return 0n;
  // A refund carrying a provider reference was made at the provider (bank-transfer refunds carry none).
  const back = await ctx.db.paymentEntry.aggregate({ where: { ...moneyOf(source.id), kind: "refund", reference: { not: null }, method: { notIn: ["gift_card", TRANSFER] } }, _sum: { amountDkk: true } });
  let refunded = back._sum.amountDkk ?? 0n;
  let consumed = refunded;
  let total = 0n;
  for (const { intent, paidDkk } of intents) {
    const used = consumed < paidDkk ? consumed : paidDkk;
    consumed -= used;
    const refundable = paidDkk - used;
    const amount = refundable < limit - total ? refundable : limit - total;
    if (amount <= 0n) continue;
    // The first payment keeps the key it always had; later ones name their PaymentIntent.
    const key = intent === source.paymentProviderPaymentIntentId ? `refund-${source.id}-${refunded}-${amount}` : `refund-${source.id}-${intent}-${refunded}-${amount}`;
    try {
      const refund = await provider.refund(intent, Number(amount), key);
      await book(ctx, orderId, { kind: "refund", method: methodOf(source), amountDkk: amount, reference: refund.id, sourceOrderId: via });
    } catch (error) {
      ctx.log.warn("card refund failed", { orderId: source.id, error: error instanceof Error ? error.message : String(error) });
      throw new Refused("refund_failed", `The card payment of order ${source.id} could not be refunded at ${provider.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    refunded += amount;
    total += amount;
  }
  return total;
}

/** The provider card payments (PaymentIntents) of an order's own money, oldest first, with what each paid. */
async function cardPayments(ctx: ToolContext, source: Order): Promise<Array<{ intent: string; paidDkk: bigint }>> {
  const first = source.paymentProvider === "stripe" ? source.paymentProviderPaymentIntentId : null;
  const entries = await ctx.db.paymentEntry.findMany({
    where: { orderId: source.id, sourceOrderId: null, kind: "payment", reference: { startsWith: "pi_" }, method: { notIn: ["gift_card", TRANSFER] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const intents: Array<{ intent: string; paidDkk: bigint }> = [];
  for (const entry of entries) {
    // An order that is not the provider's keeps its first reference from elsewhere (a test handler's): only later ones.
    if (entry.reference === source.paymentProviderPaymentIntentId && first === null) continue;
    const known = intents.find((row) => row.intent === entry.reference);
    if (known) known.paidDkk += entry.amountDkk;
    else intents.push({ intent: entry.reference!, paidDkk: entry.amountDkk });
  }
  return intents;
}

/**
 * A refund the provider cannot make goes back as the order was paid (a bank transfer, or a card the shop's provider did
 * not charge, such as the test handler's), paid out by staff; gift cards were re-credited before, so never as those.
 */
function byHand(order: Order): string {
  const method = methodOf(order);
  return method === "gift_card" ? "bank_transfer" : method;
}
