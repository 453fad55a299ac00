// products.list_variants: the variants (sizes, colours …) of one visible product, from the read model.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { slugInput, variantOutput } from "./schemas.ts";
import { catalogProduct } from "./service.ts";

export default defineTool({
  name: "products.list_variants",
  description:
    "List a product's variants (e.g. sizes): id, sku, attributes, priceDkk (øre override, null = the product's price) and " +
    "stock, in creation order. An empty list means the product is sold without variants. 404 if the product does not exist or is deleted.",
  input: z.strictObject({ slug: slugInput }),
  output: z.array(variantOutput),
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ slug: "vogue-clubmaster-sommer-2" }],
  async handler({ slug }, ctx) {
    const product = catalogProduct(ctx, slug);
    return (await ctx.services.catalog.productDetails(product.id)).variants;
  },
});
