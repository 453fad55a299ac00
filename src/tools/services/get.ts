// services.get: one offering with every field, drafts included.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { serviceDetail, serviceSlug } from "./schemas.ts";
import { findService, toDetail } from "./offerings.ts";

export default defineTool({
  name: "services.get",
  description: "One service offering, drafts included. Returns the services.list fields plus body, heroImage, features, createdAt.",
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
