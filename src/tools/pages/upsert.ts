// pages.upsert: create a page or replace its title and body (status: new → published, existing → unchanged, unless given).
import { z } from "zod";
import { markupText } from "../fields.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { pageSlug, pageStatus } from "./schemas.ts";
import { pageStatusOf } from "./page-queries.ts";

export default defineTool({
  name: "pages.upsert",
  description:
    "Create or update (by slug) a content page at /info/<slug>; new pages default to published; a layout " +
    "(pages.set_layout) replaces the body. Returns {id, slug, title, status}.",
  input: z.strictObject({
    slug: pageSlug,
    title: z.string().min(2).max(200).describe("Page title."),
    body: z.string().min(10).max(100_000).describe(markupText("Page text")),
    status: pageStatus.optional(),
  }),
  output: z.strictObject({ id: z.string(), slug: z.string(), title: z.string(), status: pageStatus }),
  scope: "pages:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ slug: "levering", title: "Levering", body: "## Levering\n\nVi sender med GLS inden for 1-3 hverdage.", status: "draft" }],
  async handler({ slug, title, body, status }, ctx) {
    const before = await ctx.db.page.findUnique({ where: { slug } });
    const after = before
      ? await ctx.db.page.update({ where: { id: before.id }, data: { title, body, ...(status ? { status } : {}) } })
      : await ctx.db.page.create({ data: { slug, title, body, status: status ?? "published" } });
    await ctx.audit({ subjectType: "page", subjectId: after.id, before, after });
    return { id: after.id, slug: after.slug, title: after.title, status: pageStatusOf(after) };
  },
});
