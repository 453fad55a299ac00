// products.image_alts (internal): a product's images with their alt texts, in gallery order, for the pages that caption
// them (products.get lists the URLs only, and its output is a contract the MCP listing cannot grow for this).
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { allowDrafts, draftsInput } from "./product-rows.ts";

export default defineTool({
  name: "products.image_alts",
  description: "A product's images in gallery order with their alt texts. Returns [{url, alt}] (alt null when none was given).",
  errors: [{ status: 404, when: "unknown, deleted or a draft (without drafts: true)" }],
  input: z.strictObject({ slug: z.string().min(1).max(200).describe("The product's slug."), drafts: draftsInput }),
  output: z.array(z.strictObject({ url: z.string(), alt: z.string().nullable() })),
  scope: "catalog:read",
  anonymous: true,
  audited: false,
  internal: true,
  annotations: READ,
  examples: [{ slug: "vogue-clubmaster-sommer-2" }],
  async handler({ slug, drafts }, ctx) {
    const draft = allowDrafts(ctx, drafts);
    const product = await ctx.db.product.findFirst({ where: { slug, deletedAt: null, draft }, select: { id: true } });
    if (!product) throw new NotFound(`No product "${slug}".`);
    const images = await ctx.db.productImage.findMany({ where: { productId: product.id }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { url: true, alt: true } });
    return images.map(({ url, alt }) => ({ url, alt: alt?.trim() || null }));
  },
});
