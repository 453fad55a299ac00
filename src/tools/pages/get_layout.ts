// pages.get_layout: a page's section tree, or null when it renders from its body.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { layoutSchema, validLayout } from "./layout-sections.ts";
import { pageSlug } from "./schemas.ts";
import { findPage } from "./service.ts";

export default defineTool({
  name: "pages.get_layout",
  description:
    "Get the visual-builder layout of a page: {layout: {sections: [...]}} with at least one section, or {layout: null} when the page " +
    "renders from its body. Each section is {id, type, props}; change it with pages.set_layout. Drafts included; 404 for an unknown slug.",
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
