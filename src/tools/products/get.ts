// products.get: one visible product with images and category, from the read model.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { productDetail, slugInput } from "./schemas.ts";
import { allowDrafts, draftsInput } from "./product-rows.ts";

export default defineTool({
  name: "products.get",
  description:
    "One product with its images and category. Returns {id, slug, name, brand, description, priceDkk, stock, featured, " +
    "*Color, images, category, createdAt}.",
  errors: [{ status: 404, when: "unknown, deleted or a draft" }],
  input: z.strictObject({ slug: slugInput, drafts: draftsInput }),
  output: productDetail,
  scope: "catalog:read",
  anonymous: true,
  audited: false,
  annotations: READ,
  cache: "catalog",
  examples: [{ slug: "gucci-oversize-bold-74" }],
  async handler({ slug, drafts }, ctx) {
    const catalog = ctx.collaborators.catalog;
    const product = await catalog.product(slug, allowDrafts(ctx, drafts));
    const category = product && catalog.category(product.categoryId);
    if (!product || !category) throw new NotFound(`No product with slug "${slug}".`);
    return {
      id: product.id,
      slug: product.slug,
      name: product.name,
      brand: product.brand,
      description: product.description,
      priceDkk: product.priceDkk,
      stock: product.stock,
      featured: product.featured,
      frameColor: product.frameColor,
      lensColor: product.lensColor,
      images: product.images,
      category: { slug: category.slug, name: category.name, description: category.description },
      createdAt: product.createdAt,
    };
  },
});
