// products.upsert_variant: create or update one variant of a product, keyed by (slug, sku).
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { slugInput, variantFields, variantOutput } from "./schemas.ts";
import { lockVisibleProduct, productSnapshot, variantView } from "./product-rows.ts";
import { emitIfLow, emitProductUpdated } from "./webhook-events.ts";

export default defineTool({
  name: "products.upsert_variant",
  description:
    "Create a variant, or update the one with this sku (omitted fields stay; new: no attributes, the product's price, " +
    "stock 0). Returns {created, variant}.",
  errors: [{ status: 404, when: "unknown or deleted product" }],
  input: z.strictObject({ slug: slugInput, ...variantFields }),
  output: z.strictObject({ created: z.boolean().describe("True when the variant was created."), variant: variantOutput }),
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ slug: "vogue-clubmaster-sommer-2", sku: "vogue-clubmaster-sommer-2-xl", attributes: { size: "XL" }, stock: 3 }],
  async handler({ slug, sku, attributes, priceDkk, stock }, ctx) {
    const productId = await lockVisibleProduct(ctx.db, slug);
    const before = await ctx.db.productVariant.findUnique({ where: { productId_sku: { productId, sku } } });
    const data = {
      ...(attributes !== undefined && { attributes }),
      ...(priceDkk !== undefined && { priceDkk: priceDkk === null ? null : BigInt(priceDkk) }),
      ...(stock !== undefined && { stock: BigInt(stock) }),
    };
    const after = before
      ? await ctx.db.productVariant.update({ where: { id: before.id }, data })
      : await ctx.db.productVariant.create({ data: { productId, sku, ...data } });
    await ctx.audit({ subjectType: "productVariant", subjectId: after.id, before, after });
    await ctx.collaborators.catalog.changed(ctx, { productIds: [productId], keepsCategories: true });
    await emitProductUpdated(ctx, await productSnapshot(ctx.db, productId));
    if (before) await emitIfLow(ctx, { productId, slug, sku, before: Number(before.stock), after: Number(after.stock) });
    return { created: !before, variant: variantView(after) };
  },
});
