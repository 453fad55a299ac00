// categories.list: every category with its count of visible products, from the read model.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";

export const categoryRow = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  productCount: z.number().int().min(0).describe("Visible (non-deleted) products in the category."),
});

export default defineTool({
  name: "categories.list",
  description: "Categories by name. Returns [{id, slug, name, description, productCount (visible)}].",
  input: z.strictObject({
    includeEmpty: z.boolean().default(true).describe("Also those without visible products."),
  }),
  output: z.array(categoryRow),
  scope: "catalog:read",
  anonymous: true,
  audited: false,
  annotations: READ,
  cache: "catalog",
  examples: [{}, { includeEmpty: false }],
  async handler({ includeEmpty }, ctx) {
    const categories = await ctx.collaborators.catalog.categories();
    return includeEmpty ? categories : categories.filter((category) => category.productCount > 0);
  },
});
