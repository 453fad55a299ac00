// categories.get: one category with its number of visible products, read from the database.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { categoryRow } from "./list.ts";

export default defineTool({
  name: "categories.get",
  description: "One category. Returns {id, slug, name, description, productCount (visible)}.",
  input: z.strictObject({ slug: z.string().min(1).describe("Category slug.") }),
  output: categoryRow,
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ slug: "solbriller" }],
  async handler({ slug }, ctx) {
    const category = await ctx.db.category.findUnique({ where: { slug } });
    if (!category) throw new NotFound(`No category with slug "${slug}".`);
    const productCount = await ctx.db.product.count({ where: { categoryId: category.id, deletedAt: null, draft: false } });
    return { id: category.id, slug: category.slug, name: category.name, description: category.description, productCount };
  },
});
