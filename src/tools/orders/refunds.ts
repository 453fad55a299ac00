// Giving an order's money back: what the ledger says was paid and not yet returned, either as store credit (a new gift
// card) or to where it came from: gift-card payments back onto their cards, card payments through the payment provider,
// bank transfers as a refund task staff pay out by hand (and its shape in the refund-task tools). Booked in the ledger in
// the caller's transaction.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import type { GiftCard, RefundTask } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { codeHint, issueCard } from "../giftcards/service.ts";
import { isoDateTime } from "../products/schemas.ts";
import { balanceOf, book, methodOf } from "./ledger.ts";
import { orderRef } from "./numbers.ts";
import type { OrderWithItems } from "./schemas.ts";

export const REFUND_TO = ["original", "store_credit"] as const;
export type RefundTo = (typeof REFUND_TO)[number];

/** The refund input fields of orders.cancel, orders.change_items and returns.receive. */
export const refundTo = z.enum(REFUND_TO).optional().describe("Where the refund goes; default original (as paid).");
export const refundAccount = z.string().trim().min(5).max(100).optional().describe("Reg.nr. and account no., for a bank-transfer refund.");

export interface Returned {
  amountDkk: bigint;
  /** The store credit issued, when the money went there. */
  giftCard: GiftCard | null;
  /** Where the money went: one part per method (gift_card, card, bank_transfer …, store_credit), in booking order. */
  parts: Array<{ method: string; amountDkk: bigint }>;
}

/** Returns everything paid and not yet returned; `account` is where a bank-transfer refund goes, when the shopper said. */
export function refundAll(ctx: ToolContext, order: OrderWithItems, to: RefundTo, account: string | null): Promise<Returned> {
  return refundUpTo(ctx, order, null, to, account);
}

/** Returns `limit` (null: no limit) of what was paid and not yet returned, never more; as refundAll otherwise. */
export async function refundUpTo(ctx: ToolContext, order: OrderWithItems, limit: bigint | null, to: RefundTo, account: string | null): Promise<Returned> {
  const { paidDkk, returnedDkk } = await balanceOf(ctx.db, order.id);
  const open = paidDkk - returnedDkk;
  const amount = limit !== null && limit < open ? limit : open;
  if (amount <= 0n) return { amountDkk: 0n, giftCard: null, parts: [] };
  if (to === "store_credit") {
    const card = await issueCard(ctx, { amountDkk: amount, customerEmail: order.email || null, reason: `Tilgodebevis for ordre ${orderRef(order.number)}`, source: "store_credit", orderId: order.id });
    await book(ctx, order.id, { kind: "store_credit", method: "gift_card", amountDkk: amount, reference: codeHint(card.code) });
    return { amountDkk: amount, giftCard: card, parts: [{ method: "store_credit", amountDkk: amount }] };
  }
  return { amountDkk: amount, giftCard: null, parts: await refundToOriginal(ctx, order, amount, account) };
}

/**
 * Gives `amount` (at most what was paid and not yet returned) back where it came from: gift-card money onto its cards
 * first, then card money through the provider, the rest as a refund task for staff. Booked as `refund` entries; returns
 * where the money went.
 */
export async function refundToOriginal(ctx: ToolContext, order: OrderWithItems, amount: bigint, account: string | null): Promise<Returned["parts"]> {
  const parts: Returned["parts"] = [];
  const part = (method: string, amountDkk: bigint) => {
    if (amountDkk > 0n) parts.push({ method, amountDkk });
    return amountDkk;
  };
  let left = amount;
  left -= part("gift_card", await backToGiftCards(ctx, order.id, left));
  left -= part(methodOf(order), await backToCard(ctx, order, left));
  if (left > 0n) {
    await book(ctx, order.id, { kind: "refund", method: nonCardMethod(order), amountDkk: left });
    await ctx.db.refundTask.create({ data: { orderId: order.id, amountDkk: left, account, createdAt: ctx.now() } });
    part(nonCardMethod(order), left);
  }
  return parts;
}

/** Puts gift-card money spent on the order back on those cards (at most `limit`); returns how much. */
async function backToGiftCards(ctx: ToolContext, orderId: string, limit: bigint): Promise<bigint> {
  const movements = await ctx.db.giftCardMovement.findMany({ where: { orderId }, include: { giftCard: true }, orderBy: { createdAt: "asc" } });
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
    await ctx.db.giftCardMovement.create({ data: { giftCardId: card.id, amountDkk: back, orderId, actor: ctx.caller.actor, createdAt: now } });
    await book(ctx, orderId, { kind: "refund", method: "gift_card", amountDkk: back, reference: codeHint(card.code) });
    returned += back;
  }
  return returned;
}

/** Refunds card money through the provider (at most `limit` and what the card paid less its refunds); returns how much. */
async function backToCard(ctx: ToolContext, order: OrderWithItems, limit: bigint): Promise<bigint> {
  const provider = ctx.services.payments;
  const intent = order.paymentProviderPaymentIntentId;
  if (order.paymentProvider !== "stripe" || !intent || !provider.refund || limit <= 0n) return 0n;
  const entries = await ctx.db.paymentEntry.findMany({ where: { orderId: order.id, method: { not: "gift_card" }, reference: { not: null } } });
  const sum = (kind: string, match: (reference: string) => boolean) =>
    entries.filter((e) => e.kind === kind && match(e.reference!)).reduce((total, e) => total + e.amountDkk, 0n);
  const charged = sum("payment", (reference) => reference === intent);
  // A refund carrying a provider reference was made at the provider (bank-transfer refunds carry none).
  const refunded = sum("refund", () => true);
  const refundable = charged - refunded;
  const amount = refundable < limit ? refundable : limit;
  if (amount <= 0n) return 0n;
  try {
    const refund = await provider.refund(intent, Number(amount), `refund-${order.id}-${refunded}-${amount}`);
    await book(ctx, order.id, { kind: "refund", method: methodOf(order), amountDkk: amount, reference: refund.id });
  } catch (error) {
    ctx.log.warn("card refund failed", { orderId: order.id, error: error instanceof Error ? error.message : String(error) });
    throw new Refused("refund_failed", `The card payment of order ${order.id} could not be refunded at ${provider.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return amount;
}

/** A refund staff pay by hand goes back as the order was paid, a bank transfer unless a method says otherwise. */
function nonCardMethod(order: OrderWithItems): string {
  const method = methodOf(order);
  return method === "card" || method === "gift_card" ? "bank_transfer" : method;
}

/** A bank-transfer refund staff pay out by hand, as the refund-task tools return it. */
export const refundTaskOutput = z.strictObject({
  taskId: z.string(),
  orderId: z.string(),
  email: z.string().describe("The order's e-mail, to ask for account details."),
  amountDkk: z.number().int().min(1).describe("To transfer, øre."),
  account: z.string().nullable().describe("Reg.nr. and account number the shopper gave, or null."),
  status: z.enum(["open", "done"]),
  createdAt: isoDateTime,
  doneAt: isoDateTime.nullable(),
  doneBy: z.string().nullable().describe("Who marked it paid out."),
});

export function toRefundTask(task: RefundTask & { order: { email: string } }): z.input<typeof refundTaskOutput> {
  return {
    taskId: task.id,
    orderId: task.orderId,
    email: task.order.email,
    amountDkk: Number(task.amountDkk),
    account: task.account,
    status: task.status === "done" ? "done" : "open",
    createdAt: task.createdAt.toISOString(),
    doneAt: task.doneAt?.toISOString() ?? null,
    doneBy: task.doneBy,
  };
}
