// products.list_low_stock: visible products and variants whose stock is at or below a threshold, lowest first.
import { z } from "zod";
import { limit } from "../fields.ts";
import { defineTool, READ } from "../tool.ts";
import { MAX_INT } from "../shared/amounts.ts";

type Row = { slug: string; name: string; sku: string | null; stock: bigint | string; categorySlug: string; total: bigint | string };

export default defineTool({
  name: "products.list_low_stock",
  description:
    "What needs restocking: products and variants at or below threshold, lowest first. Returns {threshold, total, " +
    "items (sku null: a product)}.",
  input: z.strictObject({
    threshold: z.number().int().min(0).max(MAX_INT).default(5).describe("Stock at or below this."),
    includeVariants: z.boolean().default(true).describe("Also list variants."),
    limit: limit(100, 50),
  }),
  output: z.strictObject({
    threshold: z.number().int(),
    total: z.number().int().min(0).describe("All products and variants at or below the threshold."),
    items: z.array(
      z.strictObject({
        slug: z.string().describe("The product's slug."),
        name: z.string(),
        sku: z.string().nullable().describe("The variant's SKU, or null for the product itself."),
        stock: z.number().int().min(0),
        categorySlug: z.string(),
      }),
    ),
  }),
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { threshold: 0, includeVariants: false, limit: 10 }],
  async handler({ threshold, includeVariants, limit }, ctx) {
    const rows = await ctx.db.$queryRaw<Row[]>`
      SELECT slug, name, sku, stock, "categorySlug", count(*) OVER () AS total FROM (
        SELECT p.slug, p.name, NULL::text AS sku, p.stock, c.slug AS "categorySlug"
          FROM "Product" p JOIN "Category" c ON c.id = p."categoryId"
         WHERE p."deletedAt" IS NULL AND p.stock <= ${BigInt(threshold)}
        UNION ALL
        SELECT p.slug, p.name, v.sku, v.stock, c.slug
          FROM "ProductVariant" v JOIN "Product" p ON p.id = v."productId" JOIN "Category" c ON c.id = p."categoryId"
         WHERE ${includeVariants} AND p."deletedAt" IS NULL AND v.stock <= ${BigInt(threshold)}
      ) low ORDER BY stock, name, slug, sku NULLS FIRST LIMIT ${limit}`;
    return {
      threshold,
      total: Number(rows[0]?.total ?? 0),
      items: rows.map(({ slug, name, sku, stock, categorySlug }) => ({ slug, name, sku, stock: Number(stock), categorySlug })),
    };
  },
});
