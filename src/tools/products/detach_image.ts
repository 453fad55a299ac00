// products.detach_image: remove one image URL from a product; the others keep their order.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { slugInput } from "./schemas.ts";
import { lockVisibleProduct, productSnapshot } from "./product-rows.ts";

export default defineTool({
  name: "products.detach_image",
  description: "Remove one image from a product (the rest keep their order). Returns {ok, slug, removed, totalImages}.",
  errors: [{ status: 404, when: "unknown or deleted product, or the URL is not on it" }],
  input: z.strictObject({
    slug: slugInput,
    imageUrl: z.string().min(1).max(2000).describe("As products.get lists it."),
  }),
  output: z.strictObject({
    ok: z.literal(true),
    slug: z.string(),
    removed: z.string().describe("The URL that was removed."),
    totalImages: z.number().int().min(0).describe("Images left on the product."),
  }),
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ slug: "oakley-aviator-coast-1", imageUrl: "/demo-images/oakley-aviator-coast-1-2.svg" }],
  async handler({ slug, imageUrl }, ctx) {
    const id = await lockVisibleProduct(ctx.db, slug);
    const before = await productSnapshot(ctx.db, id);
    if (!before.images.some((image) => image.url === imageUrl)) throw new NotFound(`Product "${slug}" has no image "${imageUrl}".`);
    await ctx.db.productImage.delete({ where: { productId_url: { productId: id, url: imageUrl } } });
    const rest = before.images.filter((image) => image.url !== imageUrl);
    for (const [position, image] of rest.entries()) {
      if (image.position !== position) {
        await ctx.db.productImage.update({ where: { productId_url: { productId: id, url: image.url } }, data: { position } });
      }
    }
    await ctx.audit({ subjectType: "product", subjectId: id, before, after: await productSnapshot(ctx.db, id) });
    await ctx.collaborators.catalog.changed(ctx, { productIds: [id], keepsCategories: true });
    return { ok: true as const, slug, removed: imageUrl, totalImages: rest.length };
  },
});
