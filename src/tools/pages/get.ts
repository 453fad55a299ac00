// pages.get: one content page with its body and whether a layout is set.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { pageDetail, pageSlug } from "./schemas.ts";
import { findPage, toPageDetail } from "./service.ts";

export default defineTool({
  name: "pages.get",
  description:
    "Get one content page by slug: title, body, status, public URL, createdAt, updatedAt and hasLayout (true when a section layout is set, " +
    "which /info/<slug> renders instead of the body; read it with pages.get_layout). Drafts included; 404 for an unknown slug.",
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
