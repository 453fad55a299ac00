// services.get: one offering with every field, drafts included.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { serviceDetail, serviceSlug } from "./schemas.ts";
import { findService, toDetail } from "./service.ts";

export default defineTool({
  name: "services.get",
  description:
    "Get one service offering by slug with every field: title, body, short description, price text, hero image, features, " +
    "showInNav, navOrder, status, public URL and timestamps. Drafts are included; 404 for an unknown slug.",
  input: z.strictObject({ slug: serviceSlug }),
  output: serviceDetail,
  scope: "pages:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ slug: "synsproeve" }],
  async handler({ slug }, ctx) {
    return toDetail(await findService(ctx.db, slug), ctx.config.publicBaseUrl);
  },
});
