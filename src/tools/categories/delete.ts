// categories.delete: delete an empty category; refused while visible products remain in it.
import { z } from "zod";
import { confirmDeletion } from "../fields.ts";
import { dbErrorCode, NotFound, Refused } from "../../core/errors.ts";
import { newSlug } from "../shared/slugs.ts";
import { productSnapshots } from "../products/product-rows.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";

export default defineTool({
  name: "categories.delete",
  description: "Delete a category, purging its soft-deleted products (audit.revert restores them). Returns {ok, slug}.",
  errors: [{ status: 422, code: "category_not_empty", when: "it has visible products" }],
  input: z.strictObject({
    slug: newSlug.describe("Category slug."),
    confirm: confirmDeletion,
  }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string() }),
  scope: "categories:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ slug: "udstillingsmodeller", confirm: true }],
  async handler({ slug }, ctx) {
    // The row lock makes concurrent product writes into this category (which key-share lock it) wait or miss it.
    const locked = await ctx.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM "Category" WHERE slug = ${slug} FOR UPDATE`;
    const category = locked[0] && (await ctx.db.category.findUniqueOrThrow({ where: { id: locked[0].id } }));
    if (!category) throw new NotFound(`No category with slug "${slug}".`);
    const visible = await ctx.db.product.count({ where: { categoryId: category.id, deletedAt: null } });
    if (visible > 0) throw new Refused("category_not_empty", `Category "${slug}" still has ${visible} product(s); move or delete them first.`);
    const deleted = await ctx.db.product.findMany({ where: { categoryId: category.id }, select: { id: true } });
    for (const snapshot of await productSnapshots(ctx.db, deleted.map((p) => p.id))) {
      await ctx.db.product.delete({ where: { id: snapshot.id } });
      await ctx.audit({ subjectType: "product", subjectId: snapshot.id, before: snapshot, after: null });
    }
    try {
      await ctx.db.category.delete({ where: { id: category.id } });
    } catch (error) {
      const code = dbErrorCode(error);
      if (code === "23503" || code === "P2003") throw new Refused("category_not_empty", `Category "${slug}" is still referenced by products.`);
      throw error;
    }
    await ctx.audit({ subjectType: "category", subjectId: category.id, before: category, after: null });
    await ctx.collaborators.catalog.changed(ctx, { categories: true });
    return { ok: true as const, slug };
  },
});
