// services.list: every offering, drafts included, in the order of the public /services listing.
import { z } from "zod";
import { limit } from "../fields.ts";
import { defineTool, READ } from "../tool.ts";
import { serviceSummary, status } from "./schemas.ts";
import { listServices, toSummary } from "./offerings.ts";

export default defineTool({
  name: "services.list",
  description:
    "Service offerings, drafts included, in /services order (navOrder, title). Returns [{id, slug, title, " +
    "shortDescription, priceString, status, showInNav, navOrder, publicUrl, updatedAt}].",
  input: z.strictObject({
    status: status.optional().describe("Only this status."),
    limit: limit(100, 100),
  }),
  output: z.array(serviceSummary),
  scope: "pages:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { status: "draft" }],
  async handler(input, ctx) {
    const rows = await listServices(ctx.db, input.status);
    return rows.slice(0, input.limit).map((row) => toSummary(row, ctx.config.publicBaseUrl));
  },
});
