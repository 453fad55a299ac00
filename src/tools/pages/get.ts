// pages.get: one content page with its body and whether a layout is set.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { pageDetail, pageSlug } from "./schemas.ts";
import { findPage, toPageDetail } from "./page-queries.ts";

export default defineTool({
  name: "pages.get",
  description:
    "One content page, drafts included; with hasLayout it shows its layout (pages.get_layout), not the body. " +
    "Returns {id, slug, title, status, body, hasLayout, publicUrl, createdAt, updatedAt}.",
  input: z.strictObject({ slug: pageSlug }),
  output: pageDetail,
  scope: "pages:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ slug: "om-os" }],
  async handler({ slug }, ctx) {
    return toPageDetail(await findPage(ctx.db, slug), ctx.config.publicBaseUrl);
  },
});
