// products.delete_variant: remove one variant of a product for good.
import { z } from "zod";
import { confirmDeletion } from "../fields.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { sku, slugInput } from "./schemas.ts";
import { findVariant, lockVisibleProduct } from "./product-rows.ts";

export default defineTool({
  name: "products.delete_variant",
  description:
    "Delete a product variant (orders keep their SKU snapshot; audit.revert recreates it). Returns {ok, slug, sku}.",
  errors: [{ status: 404, when: "unknown product or variant" }],
  input: z.strictObject({
    slug: slugInput,
    sku,
    confirm: confirmDeletion,
  }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string(), sku: z.string() }),
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ slug: "gucci-oversize-slim-12", sku: "gucci-oversize-slim-12-l", confirm: true }],
  async handler({ slug, sku }, ctx) {
    const productId = await lockVisibleProduct(ctx.db, slug);
    const variant = await findVariant(ctx.db, productId, slug, sku);
    await ctx.db.productVariant.delete({ where: { id: variant.id } });
    await ctx.audit({ subjectType: "productVariant", subjectId: variant.id, before: variant, after: null });
    await ctx.collaborators.catalog.changed(ctx, { productIds: [productId], keepsCategories: true });
    return { ok: true as const, slug, sku };
  },
});
