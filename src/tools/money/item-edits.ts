// The money side of an item edit (orders.change_items): where the difference between the old and the new total goes. A
// paid order's decrease is refunded as it was paid; an unpaid order's earlier payments beyond the new total go back, and
// its new amount gets a payment session that replaces the old one.
import { Refused } from "../../core/errors.ts";
import type { Order, OrderItem } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { collect, type CollectWith } from "./collect.ts";
import { refundUpTo, type Destination, type Returned } from "./refunds.ts";

type OrderWithItems = Order & { items: OrderItem[] };

/**
 * Asks the provider for a payment session of the edited order's new amount less what earlier payments hold (a gift card
 * at checkout), then closes the old session, so a tab still open on the old amount cannot pay it (422
 * payment_in_progress when the shopper has just paid it). Returns the new payment link.
 */
export async function replacePaymentSession(ctx: ToolContext, before: Order, after: OrderWithItems, heldDkk: bigint): Promise<string | null> {
  const provider = ctx.collaborators.payments;
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

/** An item edit as its money sees it. */
export interface ItemEdit {
  before: Order;
  after: OrderWithItems;
  /** The ledger's money held before the edit: paid less returned. */
  heldDkk: bigint;
  /** The order had received its money before the edit (its total can only have gone down). */
  paid: boolean;
  /** The order waits for its money in a status that becomes paid once earlier payments cover it. */
  awaitingPayment: boolean;
  /** Where a decrease goes: the original payment (default), store credit or a named card. */
  destination: Destination;
  /** Where a bank-transfer refund goes, when the shopper said. */
  account: string | null;
  /** How a paid order's rise is collected (orders.change_items collectWith); null: it may not rise. */
  collectWith: CollectWith | null;
}

export interface Settled {
  /** Given back by the edit. */
  returnedDkk: bigint;
  /** Where it went, part by part. */
  parts: Returned["parts"];
  /** The ledger's money held after it: paid less returned. */
  heldDkk: bigint;
  paymentUrl: string | null;
  /** Earlier payments (gift cards) now cover the new total of an order awaiting payment: the caller makes it paid. */
  covered: boolean;
}

/**
 * Settles an edit in the caller's transaction. Paid order: its decrease (less what was still to collect, at most what is
 * held) goes back to the edit's destination (where it came from, by default); a rise, or what is left to collect, is
 * collected as the caller names (collect.ts). Unpaid order: what earlier payments hold beyond the new total goes back; if they now cover it, the order
 * is `covered`, else a changed total gets a new payment session.
 */
export async function settle(ctx: ToolContext, edit: ItemEdit): Promise<Settled> {
  const { before, after, heldDkk: held, paid } = edit;
  const decrease = before.totalDkk - after.totalDkk;
  // A paid order's decrease first lowers what is still to collect on it, then goes back.
  const back = decrease - before.outstandingDkk;
  const owed = paid ? (back < held ? back : held) : held - after.totalDkk;
  const returned = owed > 0n ? owed : 0n;
  const parts = returned > 0n ? (await refundUpTo(ctx, before, returned, edit.destination, edit.account)).parts : [];
  const settled = { returnedDkk: returned, parts, heldDkk: held - returned, paymentUrl: null, covered: false };
  if (paid) {
    const due = after.totalDkk - after.refundedDkk - settled.heldDkk;
    if (!edit.collectWith && before.outstandingDkk === 0n) return settled;
    const collected = await collect(ctx, after, due > 0n ? due : 0n, edit.collectWith ?? "payment_link");
    return { ...settled, heldDkk: settled.heldDkk + collected.paidDkk, paymentUrl: collected.paymentUrl };
  }
  if (decrease === 0n) return settled;
  if (held > 0n && held - returned >= after.totalDkk && edit.awaitingPayment) return { ...settled, covered: true };
  return { ...settled, paymentUrl: await replacePaymentSession(ctx, before, after, settled.heldDkk) };
}
