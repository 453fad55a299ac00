// An order's payment ledger: every payment in, refund out and refund given as store credit, booked in the transaction
// of the change that causes it. The order's refundedDkk is the ledger's refunds and credits, written from it, except
// the refunds of item edits, which lower the total instead (total − refunded stays what the ledger holds).
import type { Db } from "../../core/db.ts";
import type { Order } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";

export const ENTRY_KINDS = ["payment", "refund", "store_credit"] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export interface Entry {
  kind: EntryKind;
  /** card, mobilepay, bank_transfer, gift_card, manual … */
  method: string;
  amountDkk: bigint;
  reference?: string | null;
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
