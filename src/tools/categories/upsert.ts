// categories.upsert: create a category, or rename / re-describe the one with this slug.
import { z } from "zod";
import { newSlug } from "../shared/slugs.ts";
import { defineTool, UPDATE } from "../tool.ts";

export default defineTool({
  name: "categories.upsert",
  description: "Create a category, or rename and redescribe the one with this slug (slugs never change). Returns {id, slug, name}.",
  input: z.strictObject({
    slug: newSlug.describe("Category slug."),
    name: z.string().trim().min(2).max(200).describe("Display name."),
    description: z.string().max(2000).optional().describe("Shown on the category page."),
  }),
  output: z.strictObject({ id: z.string(), slug: z.string(), name: z.string() }),
  scope: "categories:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ slug: "skibriller", name: "Skibriller", description: "Goggles og briller til sne og fjeld." }],
  async handler({ slug, name, description }, ctx) {
    const before = await ctx.db.category.findUnique({ where: { slug } });
    const after = before
      ? await ctx.db.category.update({ where: { id: before.id }, data: { name, ...(description !== undefined && { description }) } })
      : await ctx.db.category.create({ data: { slug, name, description: description ?? null } });
    await ctx.audit({ subjectType: "category", subjectId: after.id, before, after });
    await ctx.collaborators.catalog.changed(ctx, { categories: true });
    return { id: after.id, slug: after.slug, name: after.name };
  },
});
