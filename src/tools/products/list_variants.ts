// products.list_variants: the variants (sizes, colours …) of one visible product, from the read model.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { slugInput, variantOutput } from "./schemas.ts";
import { allowDrafts, catalogProduct, draftsInput } from "./product-rows.ts";

export default defineTool({
  name: "products.list_variants",
  description:
    "A product's variants (e.g. sizes); empty if none. Returns [{id, sku, attributes, priceDkk (null: the product's), " +
    "stock}].",
  errors: [{ status: 404, when: "unknown or deleted product" }],
  input: z.strictObject({ slug: slugInput, drafts: draftsInput }),
  output: z.array(variantOutput),
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ slug: "vogue-clubmaster-sommer-2" }],
  async handler({ slug, drafts }, ctx) {
    const product = await catalogProduct(ctx, slug, allowDrafts(ctx, drafts));
    return (await ctx.collaborators.catalog.productDetails(product.id)).variants;
  },
});
