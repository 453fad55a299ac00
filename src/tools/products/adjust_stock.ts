// products.adjust_stock: relative (delta) or absolute (set) stock change of a product or one variant, never below 0.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, WRITE } from "../tool.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { sku, slugInput } from "./schemas.ts";
import { changeStock, findVariant, lockVisibleProduct, productSnapshot } from "./product-rows.ts";
import { emitIfLow, emitProductUpdated } from "./webhook-events.ts";

export default defineTool({
  name: "products.adjust_stock",
  description:
    "Change a product's or variant's stock by delta or to set (give one). Returns {ok, slug, sku, previousStock, " +
    "stock}.",
  errors: [
    { status: 422, code: "insufficient_stock", when: "below 0" },
    { status: 404, when: "unknown or deleted product, or unknown sku" },
  ],
  input: z
    .strictObject({
      slug: slugInput,
      sku: sku.optional().describe("Adjust this variant instead."),
      delta: z.number().int().min(-MAX_INT).max(MAX_INT).refine((n) => n !== 0, "delta must not be 0").optional().describe("Units to add (negative removes)."),
      set: z.number().int().min(0).max(MAX_INT).optional().describe("New stock count."),
      reason: z.string().trim().min(1).max(500).describe("E.g. delivery or breakage."),
    })
    .refine((value) => (value.delta === undefined) !== (value.set === undefined), { message: "Give exactly one of delta or set", path: ["delta"] }),
  output: z.strictObject({
    ok: z.literal(true),
    slug: z.string(),
    sku: z.string().nullable().describe("The variant adjusted, or null for the product itself."),
    previousStock: z.number().int().min(0),
    stock: z.number().int().min(0).describe("Stock after the change."),
  }),
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{ slug: "prada-wayfarer-bold-9", delta: 10, reason: "Levering fra leverandør" }],
  async handler({ slug, sku, delta, set, reason }, ctx) {
    const productId = await lockVisibleProduct(ctx.db, slug);
    const variant = sku === undefined ? undefined : await findVariant(ctx.db, productId, slug, sku);
    const before = variant ?? (await productSnapshot(ctx.db, productId));
    const table = variant ? "ProductVariant" : "Product";
    const stock = await changeStock(ctx.db, table, before.id, delta === undefined ? { set: set! } : { delta }, ctx.now());
    if (stock === null) {
      const what = `${sku ? `Variant "${sku}"` : `Product "${slug}"`} has ${before.stock} in stock`;
      if (delta !== undefined && delta < 0) throw new Refused("insufficient_stock", `${what}; removing ${-delta} would go below 0.`);
      throw new Refused("stock_limit", `${what}; adding ${delta} would exceed ${MAX_INT}.`);
    }
    const product = await productSnapshot(ctx.db, productId);
    const after = variant ? await ctx.db.productVariant.findUniqueOrThrow({ where: { id: variant.id } }) : product;
    await ctx.audit({ subjectType: variant ? "productVariant" : "product", subjectId: before.id, before, after, note: reason });
    await ctx.collaborators.catalog.changed(ctx, { stock: [productId] });
    await emitProductUpdated(ctx, product);
    await emitIfLow(ctx, { productId, slug, sku: sku ?? null, before: Number(before.stock), after: stock });
    return { ok: true as const, slug, sku: sku ?? null, previousStock: Number(before.stock), stock };
  },
});
