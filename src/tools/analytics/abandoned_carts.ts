// analytics.abandoned_carts: carts with items that never became an order and have been idle for N hours, valued at today's prices.
import { z } from "zod";
import { limit } from "../fields.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { toInt } from "./revenue-rules.ts";

type Row = { id: string; lastActivity: Date; email: string | null; itemCount: unknown; valueDkk: unknown; cartCount: unknown; totalValueDkk: unknown };

export default defineTool({
  name: "analytics.abandoned_carts",
  description:
    "Carts with items idle olderThanHours or more, never checked out, most valuable first (current prices). Returns " +
    "{olderThanHours, cartCount, totalValueDkk (all of them), carts}.",
  input: z.strictObject({
    olderThanHours: z.number().int().min(1).max(720).default(24).describe("Minimum idle hours."),
    limit: limit(100, 20),
  }),
  output: z.strictObject({
    olderThanHours: z.number().int(),
    cartCount: z.number().int().min(0).describe("All abandoned carts, also those beyond the limit."),
    totalValueDkk: z.number().int().min(0).max(MAX_INT).describe("Their total value in øre."),
    carts: z.array(
      z.strictObject({
        cartId: z.string(),
        itemCount: z.number().int().min(1).describe("Units in the cart."),
        valueDkk: z.number().int().min(0).max(MAX_INT).describe("Value at current prices incl. VAT, øre."),
        updatedAt: isoDateTime.describe("Last activity on the cart (UTC)."),
        customerEmail: z.string().nullable(),
      }),
    ),
  }),
  scope: "analytics:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { olderThanHours: 72, limit: 10 }],
  async handler({ olderThanHours, limit }, ctx) {
    const cutoff = new Date(ctx.now().getTime() - olderThanHours * 3_600_000).toISOString();
    const rows = await ctx.db.$queryRaw<Row[]>`
      WITH abandoned AS (
        SELECT c.id, GREATEST(c."updatedAt", MAX(ci."updatedAt")) AS "lastActivity", COALESCE(cu.email, c.shipping->>'email') AS email,
               SUM(ci.quantity)::bigint AS "itemCount",
               COALESCE(SUM(ci.quantity * CASE WHEN p."deletedAt" IS NULL THEN COALESCE(v."priceDkk", p."priceDkk") END), 0)::bigint AS "valueDkk"
        FROM "Cart" c
        JOIN "CartItem" ci ON ci."cartId" = c.id
        JOIN "StorefrontSession" s ON s.id = c."sessionId"
        LEFT JOIN "Customer" cu ON cu.id = s."customerId"
        LEFT JOIN "Product" p ON p.id = ci."productId"
        LEFT JOIN "ProductVariant" v ON v.id = ci."variantId" AND v."productId" = ci."productId"
        WHERE c."orderId" IS NULL AND c."updatedAt" < ${cutoff}::timestamp
        GROUP BY c.id, cu.email
        HAVING GREATEST(c."updatedAt", MAX(ci."updatedAt")) < ${cutoff}::timestamp AND SUM(ci.quantity) > 0
      )
      SELECT *, COUNT(*) OVER ()::bigint AS "cartCount", SUM("valueDkk") OVER ()::bigint AS "totalValueDkk"
      FROM abandoned ORDER BY "valueDkk" DESC, "lastActivity" DESC, id LIMIT ${limit}`;
    return {
      olderThanHours,
      cartCount: toInt(rows[0]?.cartCount),
      totalValueDkk: toInt(rows[0]?.totalValueDkk),
      carts: rows.map((row) => ({
        cartId: row.id,
        itemCount: toInt(row.itemCount),
        valueDkk: toInt(row.valueDkk),
        updatedAt: new Date(row.lastActivity).toISOString(),
        customerEmail: row.email,
      })),
    };
  },
});
