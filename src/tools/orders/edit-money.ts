// The money side of an item edit (orders.change_items): the totals priced again (the order's discount re-applied,
// shipping across the free-shipping threshold), and where the difference goes: a paid order's decrease refunded as it
// was paid, an unpaid order's new amount in a payment session that replaces the old one.
import { Refused } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import type { Order } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import type { DiscountType } from "../discounts/schemas.ts";
import { discountAmount } from "../discounts/service.ts";
import { unitOf, type EditedLine } from "./edits.ts";
import { MAX_AMOUNT, shippingSettings, vatOf } from "./pricing.ts";
import { refundToOriginal } from "../money/refunds.ts";
import type { OrderWithItems } from "./schemas.ts";
import { changeStatus } from "./service.ts";

export interface Totals {
  subtotalDkk: bigint;
  discountDkk: bigint;
  shippingDkk: bigint;
  totalDkk: bigint;
  vatOere: bigint | null;
}

/** The order's totals for the edited lines, VAT as the order had it (none when it was placed without). */
export async function repriced(db: Db, order: Order, lines: readonly EditedLine[]): Promise<Totals> {
  const subtotal = lines.reduce((sum, line) => sum + unitOf(line) * BigInt(line.quantity), 0n);
  const discount = await discountFor(db, order, subtotal);
  const shipping = await shippingFor(db, order, subtotal - discount);
  const total = subtotal - discount + shipping;
  if (total > MAX_AMOUNT) throw new Refused("amount_too_large", "The order total would exceed the largest amount the shop can handle (9007199254740991 øre).");
  return { subtotalDkk: subtotal, discountDkk: discount, shippingDkk: shipping, totalDkk: total, vatOere: order.vatOere === null ? null : vatOf(total) };
}

/**
 * The order's codes re-applied to the new subtotal as checkout applies them (stacked in order), whatever their state now:
 * the shopper had them when ordering. When they no longer give the order's discount on its old subtotal (a code was
 * changed or deleted since), the discount is scaled with the subtotal instead, rounded half up.
 */
async function discountFor(db: Db, order: Order, subtotal: bigint): Promise<bigint> {
  if (order.discountDkk === 0n) return 0n;
  const codes = (order.discountCode ?? "").split(",").filter(Boolean);
  const rows = codes.length ? await db.discount.findMany({ where: { code: { in: codes } } }) : [];
  const stacked = (base: bigint) => {
    let off = 0n;
    for (const code of codes) {
      const row = rows.find((candidate) => candidate.code === code)!;
      off += BigInt(discountAmount(row.type as DiscountType, row.value, Number(base - off)));
    }
    return off;
  };
  if (codes.length && rows.length === codes.length && stacked(order.subtotalDkk) === order.discountDkk) return stacked(subtotal);
  if (order.subtotalDkk === 0n) return 0n;
  const scaled = (2n * order.discountDkk * subtotal + order.subtotalDkk) / (2n * order.subtotalDkk);
  return scaled < subtotal ? scaled : subtotal;
}

/**
 * Shipping changes only where the edit crosses the free-shipping threshold: free shipping earned by the goods becomes
 * the flat rate below it, the flat rate becomes free at it; any other amount (a rate chosen at checkout) stays.
 */
async function shippingFor(db: Db, order: Order, goods: bigint): Promise<bigint> {
  const settings = await shippingSettings(db);
  const threshold = BigInt(settings.freeShippingThresholdDkk);
  const flat = BigInt(settings.flatRateDkk);
  const before = order.subtotalDkk - order.discountDkk;
  if (before >= threshold && goods < threshold && order.shippingDkk === 0n) return flat;
  if (before < threshold && goods >= threshold && order.shippingDkk === flat) return 0n;
  return order.shippingDkk;
}

/**
 * Asks the provider for a payment session of the edited order's new amount less what earlier payments hold (a gift card
 * at checkout), then closes the old session, so a tab still open on the old amount cannot pay it (422
 * payment_in_progress when the shopper has just paid it). Returns the new payment link.
 */
async function replacePaymentSession(ctx: ToolContext, before: Order, after: OrderWithItems, heldDkk: bigint): Promise<string | null> {
  const provider = ctx.services.payments;
  const old = before.paymentProviderSessionId;
  if (before.paymentProvider !== provider.name || (old && !provider.closePayment)) {
    if (old) throw new Refused("payment_provider_unavailable", `Order ${before.id} has a ${before.paymentProvider} payment session this shop cannot close now; its amount cannot change.`);
    return null;
  }
  const payment = await provider.createPayment({
    id: after.id,
    number: after.number,
    email: after.email,
    currency: after.currency,
    totalDkk: Number(after.totalDkk),
    paidDkk: Number(heldDkk),
    shippingDkk: Number(after.shippingDkk),
    discountDkk: Number(after.discountDkk),
    items: after.items.map((item) => ({ productName: item.productName, unitPriceDkk: Number(item.unitPriceDkk), quantity: item.quantity })),
    // One session per edit: a retry of the same edit gets the same session back.
    revision: `after-${old ?? "none"}-${after.totalDkk}`,
  });
  if (old && (await provider.closePayment!(old)) === "paid") {
    throw new Refused("payment_in_progress", `The shopper has just paid order ${before.id}'s old amount; wait for the payment to arrive, then edit the paid order.`);
  }
  if (payment.providerSessionId) await ctx.db.order.update({ where: { id: after.id }, data: { paymentProviderSessionId: payment.providerSessionId } });
  return payment.paymentUrl;
}

/** Orders still waiting for their money, which earlier payments (gift cards) covering the new total make paid. */
const UNPAID = new Set(["pending_payment", "pending"]);

/** Paid: money came in (a paid order that went to review keeps its paidAt). */
export const isPaid = (order: Order) => order.paidAt !== null || order.status === "paid" || order.status === "processing";

export interface Settled {
  order: OrderWithItems;
  /** Given back by the edit. */
  returnedDkk: bigint;
  /** The ledger's money held after it: paid less returned. */
  heldDkk: bigint;
  paymentUrl: string | null;
}

/**
 * Settles an edit in the caller's transaction. Paid order: its decrease (at most what is held) goes back to where it
 * came from. Unpaid order: what earlier payments hold beyond the new total goes back; if they now cover it, the order
 * becomes paid, else a changed total gets a new payment session. `held` is paid less returned before the edit.
 */
export async function settle(ctx: ToolContext, before: OrderWithItems, after: OrderWithItems, held: bigint, account: string | null): Promise<Settled> {
  const decrease = before.totalDkk - after.totalDkk;
  const owed = isPaid(before) ? (decrease < held ? decrease : held) : held - after.totalDkk;
  const returned = owed > 0n ? owed : 0n;
  if (returned > 0n) await refundToOriginal(ctx, before, returned, account);
  const settled = { order: after, returnedDkk: returned, heldDkk: held - returned, paymentUrl: null };
  if (isPaid(before) || decrease === 0n) return settled;
  if (held > 0n && held - returned >= after.totalDkk && UNPAID.has(before.status)) {
    const paid = await changeStatus(ctx, after, { to: "paid", reason: "Covered by earlier payments after an item change" });
    return { ...settled, order: { ...paid, items: after.items } };
  }
  return { ...settled, paymentUrl: await replacePaymentSession(ctx, before, after, settled.heldDkk) };
}
