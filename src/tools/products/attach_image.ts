// products.attach_image: append one https image to a product; idempotent when the URL is already there.
import { z } from "zod";
import { defineTool } from "../tool.ts";
import { slugInput } from "./schemas.ts";
import { lockVisibleProduct, productSnapshot } from "./product-rows.ts";

const total = z.number().int().min(1).describe("Number of images on the product now.");

export default defineTool({
  name: "products.attach_image",
  description:
    "Append an image to a product (e.g. from images.search_stock_photos). Returns {ok, slug, attached or " +
    "alreadyAttached, totalImages}.",
  errors: [{ status: 404, when: "unknown or deleted product" }],
  input: z.strictObject({
    slug: slugInput,
    imageUrl: z.url({ protocol: /^https$/ }).describe("The image URL (https)."),
    alt: z.string().max(200).optional().describe("Alt text."),
    sourceId: z.string().min(1).max(200).optional().describe("Photo id at its source."),
  }),
  output: z.union([
    z.strictObject({ ok: z.literal(true), slug: z.string(), alreadyAttached: z.literal(true), totalImages: total }),
    z.strictObject({ ok: z.literal(true), slug: z.string(), attached: z.url().describe("The URL just attached."), totalImages: total }),
  ]),
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  examples: [{ slug: "vogue-clubmaster-sommer-2", imageUrl: "https://images.nordlys-optik.dk/products/vogue-clubmaster-sommer-2-3.jpg", alt: "Set fra siden" }],
  async handler({ slug, imageUrl, alt, sourceId }, ctx) {
    const id = await lockVisibleProduct(ctx.db, slug);
    const before = await productSnapshot(ctx.db, id);
    if (before.images.some((image) => image.url === imageUrl)) {
      ctx.unchanged();
      return { ok: true as const, slug, alreadyAttached: true as const, totalImages: before.images.length };
    }
    const position = Math.max(-1, ...before.images.map((image) => image.position)) + 1;
    await ctx.db.productImage.create({ data: { productId: id, url: imageUrl, alt: alt ?? null, sourceId: sourceId ?? null, position } });
    const after = await productSnapshot(ctx.db, id);
    await ctx.audit({ subjectType: "product", subjectId: id, before, after });
    await ctx.collaborators.catalog.changed(ctx, { productIds: [id], keepsCategories: true });
    return { ok: true as const, slug, attached: imageUrl, totalImages: after.images.length };
  },
});
