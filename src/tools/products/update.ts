// products.update: change any write field of a visible product except its slug.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { imageList, optional, optionalProductFields, productFields as f, productRef, slugInput } from "./schemas.ts";
import { lockVisibleProduct, productSnapshot, replaceImages, resolveCategory } from "./service.ts";
import { emitIfLow, emitProductUpdated } from "./webhook-events.ts";

const patch = z
  .strictObject({
    name: optional(f.name),
    description: optional(f.description),
    priceDkk: optional(f.priceDkk),
    stock: optional(f.stock),
    ...optionalProductFields,
    featured: optional(f.featured),
    returnable: z.boolean().optional().describe("false: no withdrawal (made to order); complaints still apply."),
    images: imageList.optional().describe("Whole list, in order (add one: products.attach_image)."),
  })
  .refine((value) => Object.keys(value).length > 0, "The patch must change at least one field")
  .describe("Fields to change; omitted ones stay.");

export default defineTool({
  name: "products.update",
  description:
    "Change a product's fields (the slug is permanent). 404 unknown or deleted product, or unknown category. " +
    "Returns {id, slug}.",
  input: z.strictObject({ slug: slugInput, patch }),
  output: productRef,
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ slug: "vogue-clubmaster-sommer-2", patch: { priceDkk: 129900, featured: true } }],
  async handler({ slug, patch }, ctx) {
    const id = await lockVisibleProduct(ctx.db, slug);
    const before = await productSnapshot(ctx.db, id);
    const { categoryId, categorySlug, images, priceDkk, stock, ...fields } = patch;
    const category = categoryId || categorySlug ? await resolveCategory(ctx.db, { categoryId, categorySlug }) : undefined;
    await ctx.db.product.update({
      where: { id },
      data: {
        ...fields,
        ...(priceDkk !== undefined && { priceDkk: BigInt(priceDkk) }),
        ...(stock !== undefined && { stock: BigInt(stock) }),
        ...(category && { categoryId: category.id }),
      },
    });
    if (images) await replaceImages(ctx.db, id, images);
    const after = await productSnapshot(ctx.db, id);
    await ctx.audit({ subjectType: "product", subjectId: id, before, after });
    await ctx.services.catalog.changed(ctx, { productIds: [id] });
    await emitProductUpdated(ctx, after);
    await emitIfLow(ctx, { productId: id, slug, sku: null, before: Number(before.stock), after: Number(after.stock) });
    return { id, slug };
  },
});
