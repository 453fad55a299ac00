// products.update: change any write field of a visible product except its slug.
import { z } from "zod";
import { undescribed } from "../fields.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { imageList, productFields as f, productRef, slugInput } from "./schemas.ts";
import { lockVisibleProduct, productSnapshot, replaceImages, resolveCategory } from "./product-rows.ts";
import { emitIfLow, emitProductUpdated } from "./webhook-events.ts";

/** A field as products.create describes it (the patch says so once). */
const same = <T extends z.ZodType>(schema: T) => undescribed(schema).optional();

const patch = z
  .strictObject({
    name: same(f.name),
    description: same(f.description),
    priceDkk: same(f.priceDkk),
    stock: same(f.stock),
    frameColor: same(f.frameColor),
    lensColor: same(f.lensColor),
    brand: same(f.brand),
    attributes: same(f.attributes),
    answerSummary: same(f.answerSummary),
    faq: same(f.faq),
    useCases: same(f.useCases),
    comparisonFacts: same(f.comparisonFacts),
    categoryId: same(f.categoryId),
    categorySlug: same(f.categorySlug),
    giftCard: same(f.giftCard),
    featured: same(f.featured),
    draft: z.boolean().optional().describe("true: hide from shoppers; false: publish."),
    returnable: z.boolean().optional().describe("false: no withdrawal (made to order); complaints still apply."),
    images: imageList.optional().describe("Whole list, in order (add one: products.attach_image)."),
  })
  .refine((value) => Object.keys(value).length > 0, "The patch must change at least one field")
  .describe("Fields to change (as products.create); omitted ones stay.");

export default defineTool({
  name: "products.update",
  description: "Change a product's fields (the slug is permanent). Returns {id, slug}.",
  errors: [{ status: 404, when: "unknown or deleted product, or unknown category" }],
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
    const moved = category !== undefined || patch.draft !== undefined;
    await ctx.collaborators.catalog.changed(ctx, { productIds: [id], ...(!moved && { keepsCategories: true }) });
    await emitProductUpdated(ctx, after);
    await emitIfLow(ctx, { productId: id, slug, sku: null, before: Number(before.stock), after: Number(after.stock) });
    return { id, slug };
  },
});
