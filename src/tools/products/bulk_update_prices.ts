// products.bulk_update_prices: percent or fixed price change for products selected by category, brand and/or slugs.
import { z } from "zod";
import { NotFound, Refused } from "../../core/errors.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { changedPrice, productSnapshots } from "./product-rows.ts";
import { emitProductUpdated } from "./webhook-events.ts";

const MAX_PRODUCTS = 1000;

const input = z
  .strictObject({
    categorySlug: z.string().min(1).optional().describe("Category slug."),
    brand: z.string().min(1).optional().describe("Brand (any case)."),
    slugs: z.array(z.string().min(1)).min(1).max(MAX_PRODUCTS).optional().describe("Product slugs; each must exist."),
    mode: z.enum(["percent", "fixed"]).describe("percent: by value %; fixed: add value øre."),
    value: z.number().describe("percent: -90..1000, steps of 0.01; fixed: øre, not 0."),
    dryRun: z.boolean().default(false).describe("Preview only; nothing written."),
  })
  .refine((i) => i.categorySlug !== undefined || i.brand !== undefined || i.slugs !== undefined, { message: "Give at least one selector: categorySlug, brand or slugs", path: ["categorySlug"] })
  .refine((i) => i.mode !== "percent" || (i.value >= -90 && i.value <= 1000 && Math.abs(i.value * 100 - Math.round(i.value * 100)) < 1e-6 && i.value !== 0), { message: "percent value must be -90..1000 in steps of 0.01, not 0", path: ["value"] })
  .refine((i) => i.mode !== "fixed" || (Number.isInteger(i.value) && Math.abs(i.value) <= MAX_INT && i.value !== 0), { message: "fixed value must be a non-zero integer (øre)", path: ["value"] });

export default defineTool({
  name: "products.bulk_update_prices",
  description:
    "Change the price of every product matching all given selectors. Returns {dryRun, matched, changed, products}.",
  errors: [
    { status: 422, code: "too_many_products", when: "over 1000" },
    { status: 422, code: "price_out_of_range", when: "a price below 1 øre" },
    { status: 404, when: "unknown category or slug" },
  ],
  input,
  output: z.strictObject({
    dryRun: z.boolean(),
    matched: z.number().int().min(0).describe("Products selected."),
    changed: z.number().int().min(0).describe("Products whose price changes (or would change, in a dry run)."),
    products: z.array(z.strictObject({ slug: z.string(), oldPriceDkk: z.number().int(), newPriceDkk: z.number().int() })).describe("Selected products by slug, prices in øre."),
  }),
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ categorySlug: "tilbehoer", mode: "percent", value: 10, dryRun: true }],
  async handler({ categorySlug, brand, slugs, mode, value, dryRun }, ctx) {
    if (categorySlug && !(await ctx.db.category.findUnique({ where: { slug: categorySlug } }))) throw new NotFound(`No category with slug "${categorySlug}".`);
    if (slugs) {
      const found = new Set((await ctx.db.product.findMany({ where: { slug: { in: slugs }, deletedAt: null }, select: { slug: true } })).map((p) => p.slug));
      const missing = slugs.filter((slug) => !found.has(slug));
      if (missing.length) throw new NotFound(`No product with slug ${missing.map((slug) => `"${slug}"`).join(", ")}.`);
    }
    const rows = await ctx.db.$queryRaw<Array<{ id: string; slug: string; priceDkk: bigint }>>`
      SELECT p.id, p.slug, p."priceDkk" FROM "Product" p JOIN "Category" c ON c.id = p."categoryId"
       WHERE p."deletedAt" IS NULL
         AND (${categorySlug ?? null}::text IS NULL OR c.slug = ${categorySlug ?? null})
         AND (${brand ?? null}::text IS NULL OR lower(p.brand) = lower(${brand ?? null}))
         AND (${slugs ?? null}::text[] IS NULL OR p.slug = ANY(${slugs ?? null}::text[]))
       ORDER BY p.slug LIMIT ${MAX_PRODUCTS + 1} FOR UPDATE OF p`;
    if (rows.length > MAX_PRODUCTS) throw new Refused("too_many_products", `More than ${MAX_PRODUCTS} products match; narrow the selection.`);
    const preview = rows.map((row) => ({ id: row.id, slug: row.slug, old: BigInt(row.priceDkk), next: changedPrice(BigInt(row.priceDkk), mode, value) }));
    const outOfRange = preview.filter((p) => p.next < 1n || p.next > BigInt(MAX_INT));
    if (outOfRange.length) {
      throw new Refused("price_out_of_range", `The change would take ${outOfRange.length} price(s) below 1 øre or above the maximum: ${outOfRange.slice(0, 10).map((p) => p.slug).join(", ")}.`);
    }
    const changes = preview.filter((p) => p.next !== p.old);
    if (dryRun || !changes.length) ctx.unchanged();
    else {
      const ids = changes.map((p) => p.id);
      const before = await productSnapshots(ctx.db, ids);
      for (const p of changes) await ctx.db.product.update({ where: { id: p.id }, data: { priceDkk: p.next } });
      const after = await productSnapshots(ctx.db, ids);
      for (const [i, snapshot] of after.entries()) await ctx.audit({ subjectType: "product", subjectId: snapshot.id, before: before[i], after: snapshot });
      await ctx.collaborators.catalog.changed(ctx, { productIds: ids, keepsCategories: true });
      await emitProductUpdated(ctx, ...after);
    }
    const products = preview.map((p) => ({ slug: p.slug, oldPriceDkk: Number(p.old), newPriceDkk: Number(p.next) }));
    return { dryRun, matched: rows.length, changed: changes.length, products };
  },
});
