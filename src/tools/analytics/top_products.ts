// analytics.top_products: best sellers by item revenue or units sold in a date range, aggregated in SQL.
import { z } from "zod";
import { limit } from "../fields.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { rangeFields, rangeOutput, resolveRange, revenueStatusesSql, toInt, utc } from "./revenue-rules.ts";

type Row = { productId: string; productName: string; units: unknown; revenueDkk: unknown };

export default defineTool({
  name: "analytics.top_products",
  description:
    "Best sellers in the orders analytics.summary counts, by line revenue (incl. VAT, before discounts, shipping, " +
    "refunds) or units. Returns {fromDate, toDate, by, products}.",
  input: z.strictObject({
    ...rangeFields,
    by: z.enum(["revenue", "units"]).default("revenue").describe("Rank by."),
    limit: limit(50, 10),
  }),
  output: z.strictObject({
    ...rangeOutput,
    by: z.enum(["revenue", "units"]),
    products: z.array(
      z.strictObject({
        productId: z.string(),
        productName: z.string(),
        units: z.number().int().min(0).max(MAX_INT).describe("Units sold."),
        revenueDkk: z.number().int().max(MAX_INT).describe("Line revenue in øre."),
      }),
    ),
  }),
  scope: "analytics:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { by: "units", limit: 5, fromDate: "2026-01-01", toDate: "2026-12-31" }],
  async handler({ by, limit, ...dates }, ctx) {
    const range = resolveRange(dates, ctx.now());
    const order = by === "units" ? Prisma.sql`units DESC, "revenueDkk" DESC` : Prisma.sql`"revenueDkk" DESC, units DESC`;
    const rows = await ctx.db.$queryRaw<Row[]>`
      SELECT oi."productId" AS "productId", COALESCE(MAX(p.name), MAX(oi."productName")) AS "productName",
             SUM(oi.quantity)::bigint AS units, SUM(oi."unitPriceDkk" * oi.quantity)::bigint AS "revenueDkk"
      FROM "OrderItem" oi
      JOIN "Order" o ON o.id = oi."orderId"
      LEFT JOIN "Product" p ON p.id = oi."productId"
      WHERE o."createdAt" >= ${utc(range.from)} AND o."createdAt" < ${utc(range.to)} AND o.status IN (${revenueStatusesSql})
      GROUP BY oi."productId"
      ORDER BY ${order}, oi."productId"
      LIMIT ${limit}`;
    const products = rows.map((row) => ({ productId: row.productId, productName: row.productName, units: toInt(row.units), revenueDkk: toInt(row.revenueDkk) }));
    return { fromDate: range.fromDate, toDate: range.toDate, by, products };
  },
});
