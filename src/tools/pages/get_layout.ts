// pages.get_layout: a page's section tree, or null when it renders from its body.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { layoutSchema, validLayout } from "./layout-sections.ts";
import { pageSlug } from "./schemas.ts";
import { findPage } from "./page-queries.ts";

export default defineTool({
  name: "pages.get_layout",
  description: "A page's visual-builder layout, drafts included. Returns {layout: {sections}}, or {layout: null} when it shows its body.",
  input: z.strictObject({ slug: pageSlug }),
  output: z.strictObject({ layout: layoutSchema.nullable() }),
  scope: "pages:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ slug: "om-os" }],
  async handler({ slug }, ctx) {
    return { layout: validLayout((await findPage(ctx.db, slug)).layout) };
  },
});
