// products.compare: 2 to 4 visible products side by side, with their comparison facts merged by key.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { oere } from "../shared/amounts.ts";

export default defineTool({
  name: "products.compare",
  description:
    "Compare products side by side. Returns {products (in the order given), facts: [{key, values by slug}]}.",
  errors: [{ status: 404, when: "an unknown or deleted slug" }],
  input: z.strictObject({
    slugs: z.array(z.string().min(1)).min(2).max(4).refine((s) => new Set(s).size === s.length, "Slugs must be distinct").describe("Distinct product slugs."),
  }),
  output: z.strictObject({
    products: z.array(
      z.strictObject({
        slug: z.string(),
        name: z.string(),
        brand: z.string().nullable(),
        priceDkk: oere("Price incl. VAT"),
        stock: z.number().int(),
        frameColor: z.string().nullable(),
        lensColor: z.string().nullable(),
        categorySlug: z.string(),
      }),
    ),
    facts: z.array(
      z.strictObject({
        key: z.string().describe("Fact name, e.g. \"vægt\"."),
        values: z.record(z.string(), z.string().nullable()).describe("Value per product slug; null when that product lacks the fact."),
      }),
    ).describe("Comparison facts merged by key, in order of first appearance."),
  }),
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ slugs: ["oakley-aviator-coast-1", "persol-oversize-vinter-5"] }],
  async handler({ slugs }, ctx) {
    const rows = await ctx.db.product.findMany({ where: { slug: { in: slugs }, deletedAt: null, draft: false }, include: { category: { select: { slug: true } } } });
    const missing = slugs.filter((slug) => !rows.some((row) => row.slug === slug));
    if (missing.length) throw new NotFound(`No product with slug ${missing.map((slug) => `"${slug}"`).join(", ")}.`);
    const ordered = slugs.map((slug) => rows.find((row) => row.slug === slug)!);
    const keys = [...new Set(ordered.flatMap((row) => Object.keys(row.comparisonFacts as Record<string, string>)))];
    return {
      products: ordered.map((row) => ({
        slug: row.slug,
        name: row.name,
        brand: row.brand,
        priceDkk: Number(row.priceDkk),
        stock: Number(row.stock),
        frameColor: row.frameColor,
        lensColor: row.lensColor,
        categorySlug: row.category.slug,
      })),
      facts: keys.map((key) => ({
        key,
        values: Object.fromEntries(ordered.map((row) => [row.slug, (row.comparisonFacts as Record<string, string>)[key] ?? null])),
      })),
    };
  },
});
