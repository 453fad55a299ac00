// Gift-card balances: cards (staff-issued, store credit, bought) with a balance, spent with one conditional UPDATE (never
// below zero under concurrent use), every change a movement row; e-mails with the code go out after commit.
import { Refused } from "../../core/errors.ts";
import { escapeHtml, formatMoney } from "../../core/format.ts";
import type { GiftCard } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { cardSnapshot, codeHint, findCard, newCode } from "./gift-card-codes.ts";
import { orderRef } from "../shared/order-numbers.ts";
import { shopName } from "../shared/shop-name.ts";

/** A Danish claim expires after 3 years (forældelsesloven); a gift card is valid at least that long. */
const VALID_YEARS = 3;

/** Where a card came from: issued by staff, store credit for a refund, bought as a product. */
export const SOURCES = ["issued", "store_credit", "purchase"] as const;

export interface Issue {
  amountDkk: bigint;
  customerEmail: string | null;
  reason: string | null;
  source: (typeof SOURCES)[number];
  orderId?: string | null;
  /** A bought card's `<orderItemId>/<n>` (unique: never issued twice). */
  purchaseKey?: string | null;
}

/** Creates a card with its first movement and audit entry; mails the code after commit when there is an address. */
export async function issueCard(ctx: ToolContext, issue: Issue): Promise<GiftCard> {
  const now = ctx.now();
  const expiresAt = new Date(now);
  expiresAt.setUTCFullYear(expiresAt.getUTCFullYear() + VALID_YEARS);
  const card = await ctx.db.giftCard.create({
    data: {
      code: newCode(),
      balanceDkk: issue.amountDkk,
      initialDkk: issue.amountDkk,
      customerEmail: issue.customerEmail?.toLowerCase() ?? null,
      reason: issue.reason,
      source: issue.source,
      orderId: issue.orderId ?? null,
      purchaseKey: issue.purchaseKey ?? null,
      expiresAt,
      createdAt: now,
      movements: { create: { amountDkk: issue.amountDkk, orderId: issue.orderId ?? null, actor: ctx.caller.actor, createdAt: now } },
    },
  });
  await ctx.audit({ subjectType: "giftcard", subjectId: card.id, before: null, after: cardSnapshot(card), ...(issue.reason ? { note: issue.reason } : {}) });
  if (card.customerEmail) {
    const to = card.customerEmail;
    ctx.afterCommit(async () => {
      const message = renderGiftCardMail(card, to, await shopName(ctx.collaborators.db));
      const sent = await ctx.collaborators.mailer.send(message);
      await ctx.collaborators.db.emailMessage.create({
        data: { to, subject: message.subject, kind: "gift_card", orderId: card.orderId, transport: sent.transport, messageId: sent.messageId, createdAt: ctx.now() },
      });
    });
  }
  return card;
}

function renderGiftCardMail(card: GiftCard, to: string, shop: string) {
  const what = card.source === "store_credit" ? "tilgodebevis" : "gavekort";
  const expires = card.expiresAt ? card.expiresAt.toLocaleDateString("da-DK", { timeZone: "Europe/Copenhagen" }) : null;
  const lines = [
    // formatMoney ends in "kr.": no second full stop after it.
    `Her er dit ${what} fra ${shop} på ${formatMoney(card.balanceDkk, card.currency)}`.replace(/\.?$/, "."),
    "",
    `Kode: ${card.code}`,
    ...(expires ? [`Gyldigt til og med ${expires}.`] : []),
    "",
    "Indtast koden ved betalingen, eller giv den til vores chat. Koden er som kontanter: del den kun med den, der skal bruge den.",
    "",
    `Venlig hilsen ${shop}`,
  ];
  return {
    to,
    subject: `Dit ${what} på ${formatMoney(card.balanceDkk, card.currency)} – ${shop}`,
    text: lines.join("\n"),
    html: lines.map((line) => (line ? `<p>${escapeHtml(line)}</p>` : "")).join("\n"),
  };
}

/**
 * Takes `amount` from the card in one conditional UPDATE (balance ≥ amount, not expired) and records the movement:
 * two spends racing for the same money cannot both succeed. 404 unknown code, 422 giftcard_expired /
 * giftcard_insufficient_balance.
 */
export async function spend(ctx: ToolContext, typed: string, amount: bigint, orderId: string): Promise<GiftCard> {
  const card = usable(ctx, await findCard(ctx.db, typed));
  if (!(await take(ctx, card, amount, orderId))) {
    const left = await ctx.db.giftCard.findUniqueOrThrow({ where: { id: card.id }, select: { balanceDkk: true } });
    throw new Refused("giftcard_insufficient_balance", `The gift card ${codeHint(card.code)} has ${formatMoney(left.balanceDkk, card.currency)} left; ${formatMoney(amount, card.currency)} is more than that.`);
  }
  return ctx.db.giftCard.findUniqueOrThrow({ where: { id: card.id } });
}

/** How often a spend of "all there is" rereads the balance after a concurrent spend took some of it first. */
const SPEND_ATTEMPTS = 5;

/**
 * Takes what the card holds, at most `limit` (a checkout paying what it can from a card), with the same conditional
 * UPDATE as spend: when another spend wins the race the balance is read again, so the card never goes below zero.
 * 404 unknown code, 422 giftcard_expired, giftcard_insufficient_balance when nothing is left.
 */
export async function spendUpTo(ctx: ToolContext, typed: string, limit: bigint, orderId: string): Promise<{ card: GiftCard; amountDkk: bigint }> {
  let card = usable(ctx, await findCard(ctx.db, typed));
  for (let attempt = 0; attempt < SPEND_ATTEMPTS && card.balanceDkk > 0n; attempt++) {
    const amount = card.balanceDkk < limit ? card.balanceDkk : limit;
    if (await take(ctx, card, amount, orderId)) return { card: await ctx.db.giftCard.findUniqueOrThrow({ where: { id: card.id } }), amountDkk: amount };
    card = await ctx.db.giftCard.findUniqueOrThrow({ where: { id: card.id } });
  }
  throw new Refused("giftcard_insufficient_balance", `The gift card ${codeHint(card.code)} has ${formatMoney(card.balanceDkk, card.currency)} left.`);
}

/**
 * Puts `amount` onto an existing card (a refund the shopper asked to go there), with its movement (naming the order the
 * money comes from) and audit entry; mails the order's address after commit what went onto which card. The card's row
 * is incremented in place, so concurrent top-ups and spends never lose one another.
 */
export async function topUp(ctx: ToolContext, card: GiftCard, amount: bigint, order: { id: string; number: number; email: string }): Promise<GiftCard> {
  const now = ctx.now();
  const after = await ctx.db.giftCard.update({ where: { id: card.id }, data: { balanceDkk: { increment: amount }, updatedAt: now } });
  await ctx.db.giftCardMovement.create({ data: { giftCardId: card.id, amountDkk: amount, orderId: order.id, actor: ctx.caller.actor, createdAt: now } });
  const before = { ...after, balanceDkk: after.balanceDkk - amount };
  await ctx.audit({ subjectType: "giftcard", subjectId: card.id, before: cardSnapshot(before), after: cardSnapshot(after), note: `refund of order ${order.id}` });
  if (order.email) {
    const to = order.email;
    ctx.afterCommit(async () => {
      const shop = await shopName(ctx.collaborators.db);
      const what = after.source === "store_credit" ? "tilgodebevis" : "gavekort";
      const lines = [
        `Vi har sat ${formatMoney(amount, after.currency)} ind på dit ${what} ${codeHint(after.code)} som refusion for ordre ${orderRef(order.number)}.`,
        `Saldoen er nu ${formatMoney(after.balanceDkk, after.currency)}`.replace(/\.?$/, "."),
        ...(after.expiresAt ? [`Kortet gælder til og med ${after.expiresAt.toLocaleDateString("da-DK", { timeZone: "Europe/Copenhagen" })}.`] : []),
        "",
        `Venlig hilsen ${shop}`,
      ];
      const message = { to, subject: `${formatMoney(amount, after.currency)} sat ind på dit ${what} – ${shop}`, text: lines.join("\n"), html: lines.map((line) => (line ? `<p>${escapeHtml(line)}</p>` : "")).join("\n") };
      const sent = await ctx.collaborators.mailer.send(message);
      await ctx.collaborators.db.emailMessage.create({
        data: { to, subject: message.subject, kind: "gift_card_topup", orderId: order.id, transport: sent.transport, messageId: sent.messageId, createdAt: ctx.now() },
      });
    });
  }
  return after;
}

/** The card, or 422 giftcard_expired when it has expired. */
export function usable(ctx: ToolContext, card: GiftCard): GiftCard {
  if (card.expiresAt && card.expiresAt <= ctx.now()) throw new Refused("giftcard_expired", `The gift card ${codeHint(card.code)} expired on ${card.expiresAt.toISOString().slice(0, 10)}.`);
  return card;
}

/** The conditional debit, its movement and audit entry; false (nothing written) when the balance is short. */
async function take(ctx: ToolContext, card: GiftCard, amount: bigint, orderId: string): Promise<boolean> {
  const now = ctx.now();
  const taken = await ctx.db.giftCard.updateMany({
    where: { id: card.id, balanceDkk: { gte: amount } },
    data: { balanceDkk: { decrement: amount }, updatedAt: now },
  });
  if (taken.count === 0) return false;
  await ctx.db.giftCardMovement.create({ data: { giftCardId: card.id, amountDkk: -amount, orderId, actor: ctx.caller.actor, createdAt: now } });
  const after = await ctx.db.giftCard.findUniqueOrThrow({ where: { id: card.id } });
  const before = { ...after, balanceDkk: after.balanceDkk + amount };
  await ctx.audit({ subjectType: "giftcard", subjectId: card.id, before: cardSnapshot(before), after: cardSnapshot(after), note: `order ${orderId}` });
  return true;
}

/** An order line as issuing bought cards reads it. */
export interface BoughtLine {
  id: string;
  productId: string;
  unitPriceDkk: bigint;
  quantity: number;
}

/**
 * Issues the gift cards an order bought (one per unit of each gift-card product, of the line's unit price), each e-mailed
 * to the order's address after commit. Keyed by line and unit, so calling it again for the same order issues nothing.
 */
export async function issueBoughtCards(ctx: ToolContext, order: { id: string; email: string; items: BoughtLine[] }): Promise<GiftCard[]> {
  const productIds = [...new Set(order.items.map((item) => item.productId))];
  const giftCards = await ctx.db.product.findMany({ where: { id: { in: productIds }, giftCard: true }, select: { id: true } });
  const sold = new Set(giftCards.map((product) => product.id));
  const wanted = order.items.filter((item) => sold.has(item.productId)).flatMap((item) =>
    Array.from({ length: item.quantity }, (_, n) => ({ key: `${item.id}/${n + 1}`, amountDkk: item.unitPriceDkk })),
  );
  if (!wanted.length) return [];
  const issued = await ctx.db.giftCard.findMany({ where: { purchaseKey: { in: wanted.map((w) => w.key) } }, select: { purchaseKey: true } });
  const done = new Set(issued.map((card) => card.purchaseKey));
  const cards: GiftCard[] = [];
  for (const { key, amountDkk } of wanted) {
    if (done.has(key) || amountDkk <= 0n) continue;
    cards.push(await issueCard(ctx, { amountDkk, customerEmail: order.email || null, reason: `Købt i ordre ${order.id}`, source: "purchase", orderId: order.id, purchaseKey: key }));
  }
  return cards;
}
