// services.list: every offering, drafts included, in the order of the public /services listing.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { serviceSummary, status } from "./schemas.ts";
import { listServices, toSummary } from "./service.ts";

export default defineTool({
  name: "services.list",
  description:
    "List the service offerings, drafts included, sorted by navOrder then title (the order of the public /services page). " +
    "Filter with status. Each summary has slug, title, short description, price text, status, navOrder and public URL; use services.get for the body.",
  input: z.strictObject({
    status: status.optional().describe("Only offerings with this status (\"draft\" or \"published\"); omit for all."),
    limit: z.number().int().min(1).max(100).default(100).describe("At most this many offerings, 1..100 (default 100)."),
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
