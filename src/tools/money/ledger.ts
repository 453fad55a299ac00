// An order's payment ledger: every payment in, refund out and refund given as store credit, booked in the transaction
// of the change that causes it. The order's refundedDkk is the ledger's refunds and credits, written from it, except
// the refunds of item edits, which lower the total instead (total − refunded stays what the ledger holds). An exchange
// moves the money paid for the returned goods on to the replacement order (a transfer), so the ledger keeps, per order,
// whose money it holds: its own, or an earlier order's of its exchange chain, which refunds of that money go back to.
import type { Db } from "../../core/db.ts";
import type { Order } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { orderRef } from "../shared/order-numbers.ts";

export const ENTRY_KINDS = ["payment", "refund", "store_credit"] as const;
type EntryKind = (typeof ENTRY_KINDS)[number];

/** The method of a transfer's `refund` on the order that gives the money to its replacement (no money leaves the shop). */
export const TRANSFER = "exchange";

export interface Entry {
  kind: EntryKind;
  /** card, mobilepay, bank_transfer, gift_card, manual …, or TRANSFER */
  method: string;
  amountDkk: bigint;
  reference?: string | null;
  /** The earlier order of the exchange chain whose money this is; null or absent: the order's own. */
  sourceOrderId?: string | null;
}

export interface Balance {
  /** Money received. */
  paidDkk: bigint;
  /** Money given back: refunds to the original method and store credit. */
  returnedDkk: bigint;
}

/** How an order was paid when nothing more precise is known: its stored method, else its provider's usual one. */
export function methodOf(order: Pick<Order, "paymentMethod" | "paymentProvider">): string {
  return order.paymentMethod ?? (order.paymentProvider === "manual" ? "bank_transfer" : "card");
}

/**
 * Takes the order's row lock for the rest of the transaction: status changes, refunds and bookings of one order queue on
 * it, so each reads what the others wrote.
 */
export async function lockOrderRow(db: Db, orderId: string): Promise<void> {
  await db.$queryRaw`SELECT id FROM "Order" WHERE id = ${orderId} FOR UPDATE`;
}

/** Books one entry (the amount must be positive; zero books nothing). */
export async function book(ctx: ToolContext, orderId: string, entry: Entry): Promise<void> {
  if (entry.amountDkk <= 0n) return;
  await ctx.db.paymentEntry.create({
    data: {
      orderId,
      kind: entry.kind,
      method: entry.method,
      amountDkk: entry.amountDkk,
      reference: entry.reference ?? null,
      sourceOrderId: entry.sourceOrderId ?? null,
      actor: ctx.caller.actor,
      createdAt: ctx.now(),
    },
  });
}

/** What the ledger says an order has received and given back (read inside the caller's transaction, after its lock). */
export async function balanceOf(db: Db, orderId: string): Promise<Balance> {
  const sums = await db.paymentEntry.groupBy({ by: ["kind"], where: { orderId }, _sum: { amountDkk: true } });
  const sum = (kinds: EntryKind[]) => sums.filter((row) => kinds.includes(row.kind as EntryKind)).reduce((total, row) => total + (row._sum.amountDkk ?? 0n), 0n);
  return { paidDkk: sum(["payment"]), returnedDkk: sum(["refund", "store_credit"]) };
}

/** Still to pay on an order: its total less what the ledger has received (gift cards, earlier part payments). */
export async function outstandingOf(db: Db, order: Pick<Order, "id" | "totalDkk">): Promise<bigint> {
  const { paidDkk } = await balanceOf(db, order.id);
  return order.totalDkk > paidDkk ? order.totalDkk - paidDkk : 0n;
}

/** The money an order holds of one source: paid in less given back (or moved on), per source. */
export interface Pool {
  /** The earlier order of the exchange chain whose payment this is; null: the order's own money. */
  source: Order | null;
  heldDkk: bigint;
}

/**
 * What an order holds per source (read after its lock): its own money first, then the earlier orders' of its chain,
 * the latest first. The pools together hold what balanceOf says (paid less returned).
 */
export async function poolsOf(db: Db, orderId: string): Promise<Pool[]> {
  const sums = await db.paymentEntry.groupBy({ by: ["sourceOrderId", "kind"], where: { orderId }, _sum: { amountDkk: true } });
  const held = new Map<string | null, bigint>([[null, 0n]]);
  for (const row of sums) {
    const amount = row._sum.amountDkk ?? 0n;
    held.set(row.sourceOrderId, (held.get(row.sourceOrderId) ?? 0n) + (row.kind === "payment" ? amount : -amount));
  }
  const ids = [...held.keys()].filter((id): id is string => id !== null);
  const sources = ids.length ? await db.order.findMany({ where: { id: { in: ids } }, orderBy: { number: "desc" } }) : [];
  return [{ source: null, heldDkk: held.get(null)! }, ...sources.map((source) => ({ source, heldDkk: held.get(source.id)! }))];
}

export interface Share {
  pool: Pool;
  amountDkk: bigint;
}

/** Splits `amount` over the pools in their order, each at most what it holds; what they cannot cover falls to the own pool. */
export function allocate(pools: Pool[], amount: bigint): Share[] {
  const shares: Share[] = [];
  let left = amount;
  for (const pool of pools) {
    const take = pool.heldDkk < left ? pool.heldDkk : left;
    if (take <= 0n) continue;
    shares.push({ pool, amountDkk: take });
    left -= take;
  }
  if (left > 0n) {
    const own = shares.find((share) => share.pool.source === null);
    if (own) own.amountDkk += left;
    else shares.unshift({ pool: pools[0]!, amountDkk: left });
  }
  return shares;
}

/**
 * Moves `amount` (at most what `from` holds; own money first) to `to`, the replacement of an exchange: per source a
 * TRANSFER `refund` on `from` naming `to`, and a `payment` on `to` under the method and provider reference of the order
 * that was paid, naming it as the source, so that a refund of `to` goes back to where the money came from. Returns
 * what was moved.
 */
export async function transfer(ctx: ToolContext, from: Order, to: Order, amount: bigint): Promise<bigint> {
  const pools = await poolsOf(ctx.db, from.id);
  const held = pools.reduce((sum, pool) => sum + pool.heldDkk, 0n);
  let moved = 0n;
  for (const { pool, amountDkk } of allocate(pools, amount < held ? amount : held)) {
    const source = pool.source ?? from;
    await book(ctx, from.id, { kind: "refund", method: TRANSFER, amountDkk, reference: orderRef(to.number), sourceOrderId: pool.source?.id ?? null });
    await book(ctx, to.id, { kind: "payment", method: methodOf(source), amountDkk, reference: source.paymentProviderPaymentIntentId, sourceOrderId: source.id });
    moved += amountDkk;
  }
  return moved;
}
