// products.upsert_variant: create or update one variant of a product, keyed by (slug, sku).
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { MAX_INT, productFields, sku, slugInput, variantOutput } from "./schemas.ts";
import { lockVisibleProduct, productSnapshot, variantView } from "./service.ts";
import { emitIfLow, emitProductUpdated } from "./webhook-events.ts";

export default defineTool({
  name: "products.upsert_variant",
  description:
    "Create a variant of a product, or update it when the product already has a variant with this sku. Omitted fields keep " +
    "their value (new variants: attributes {}, priceDkk null = the product's price, stock 0). Returns the variant and " +
    "created (true when new). 404 if the product does not exist or is deleted.",
  input: z.strictObject({
    slug: slugInput,
    sku,
    attributes: productFields.attributes.optional().describe("Variant attributes, e.g. {\"size\": \"M\"}; replaces the old map."),
    priceDkk: z.number().int().gt(0).max(MAX_INT).nullable().optional().describe("Price override in øre incl. VAT; null removes the override."),
    stock: z.number().int().min(0).max(MAX_INT).optional().describe("Units in stock, 0 or more (use products.adjust_stock for relative changes)."),
  }),
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
    await ctx.services.catalog.changed(ctx, { productIds: [productId] });
    await emitProductUpdated(ctx, await productSnapshot(ctx.db, productId));
    if (before) await emitIfLow(ctx, { productId, slug, sku, before: Number(before.stock), after: Number(after.stock) });
    return { created: !before, variant: variantView(after) };
  },
});
