// Customers as staff see them (order count, total spent, last order computed in SQL) and who may see which customer.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { revenueStatusesSql } from "../analytics/revenue-rules.ts";
import type { Caller } from "../context.ts";
import { isoDateTime } from "../shared/timestamps.ts";

export const customerOutput = z.strictObject({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  createdAt: isoDateTime,
  orderCount: z.number().int().min(0).describe("Orders linked to the customer, in any status."),
  totalSpentDkk: z.number().int().describe("Paid minus refunded, øre, over orders in paid, processing, shipped, delivered, completed or partial_refund."),
  lastOrderAt: isoDateTime.nullable().describe("When the customer's newest order was placed, or null."),
});
export type CustomerOutput = z.input<typeof customerOutput>;

interface Row {
  id: string;
  email: string;
  name: string | null;
  phone: string | null;
  createdAt: string;
  orderCount: bigint | number;
  totalSpentDkk: bigint | number;
  lastOrderAt: string | null;
}

const Z = Prisma.raw(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);

/** Customers matching `where` (a condition on alias c) with their order statistics, newest customer first. */
export async function customerRows(db: Db, where: Prisma.Sql, limit: number, offset = 0): Promise<CustomerOutput[]> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT c.id, c.email, c.name, c.phone, to_char(c."createdAt", ${Z}) AS "createdAt",
           COUNT(o.id)::bigint AS "orderCount",
           COALESCE(SUM(CASE WHEN o.status IN (${revenueStatusesSql}) THEN o."totalDkk" - o."refundedDkk" ELSE 0 END), 0)::bigint AS "totalSpentDkk",
           to_char(MAX(o."createdAt"), ${Z}) AS "lastOrderAt"
    FROM "Customer" c LEFT JOIN "Order" o ON o."userId" = c.id
    WHERE ${where}
    GROUP BY c.id
    ORDER BY c."createdAt" DESC, c.id DESC
    LIMIT ${limit} OFFSET ${offset}`;
  return rows.map((r) => ({ ...r, orderCount: Number(r.orderCount), totalSpentDkk: Number(r.totalSpentDkk) }));
}

/** Staff: an API key (or system) caller; its scope was checked by the executor. A storefront session is never staff. */
function isStaff(caller: Caller): boolean {
  return caller.kind !== "session";
}

/**
 * The one customer a lookup may answer with: staff see anyone, a storefront session only its own bound customer.
 * Someone else's customer is reported exactly like a missing one, so a session never learns who else exists.
 */
export async function visibleCustomer(db: Db, caller: Caller, where: Prisma.Sql, notFound: string): Promise<CustomerOutput> {
  const own = isStaff(caller) ? Prisma.empty : Prisma.sql` AND c.id = ${caller.session?.customerId ?? ""}`;
  const [row] = await customerRows(db, Prisma.sql`${where}${own}`, 1);
  if (!row) throw new NotFound(notFound);
  return row;
}
