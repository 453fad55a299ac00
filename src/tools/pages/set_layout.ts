// pages.set_layout: set a validated section tree on a page, or clear it (null) so the page renders from its body again.
import { z } from "zod";
import { toJson } from "../../core/json.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { layoutSchema, walk } from "./layout-sections.ts";
import { pageSlug } from "./schemas.ts";
import { findPage } from "./page-queries.ts";

export default defineTool({
  name: "pages.set_layout",
  description:
    "Replace a page's whole section layout (unique section ids), or clear it (null) to show the body again. " +
    "Returns {slug, hasLayout, sectionCount}.",
  input: z.strictObject({
    slug: pageSlug,
    layout: layoutSchema.nullable().describe("The new layout; null removes it."),
  }),
  output: z.strictObject({
    slug: z.string(),
    hasLayout: z.boolean(),
    sectionCount: z.number().int().min(0).describe("Sections in the layout, nested ones included (0 when cleared)."),
  }),
  scope: "pages:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [
    {
      slug: "om-os",
      layout: {
        sections: [
          { id: "top", type: "hero", props: { heading: "Om Nordlys Optik", subheading: "Briller med omtanke siden 1998" } },
          { id: "tekst", type: "text", props: { body: "Vi er en dansk brillebutik.\n\nGode briller til fair priser." } },
          { id: "udvalg", type: "product_grid", props: { title: "Populære solbriller", categorySlug: "solbriller", limit: 4 } },
        ],
      },
    },
  ],
  async handler({ slug, layout }, ctx) {
    const before = await findPage(ctx.db, slug);
    const after = await ctx.db.page.update({
      where: { id: before.id },
      data: { layout: layout === null ? Prisma.DbNull : (toJson(layout) as Prisma.InputJsonObject) },
    });
    await ctx.audit({ subjectType: "page", subjectId: after.id, before, after });
    return { slug: after.slug, hasLayout: layout !== null, sectionCount: layout ? walk(layout.sections).length : 0 };
  },
});
