// webhooks.list: the webhook endpoints with their event types and health, never a secret.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { endpointView } from "./schemas.ts";
import { describeEndpoint } from "./service.ts";

export default defineTool({
  name: "webhooks.list",
  description:
    "Webhook endpoints, oldest first; secrets never shown; endpoints are disabled after repeated failure. Returns [{id, " +
    "url, events, enabled, disabledAt, disabledReason, failureStreak, createdAt}].",
  input: z.strictObject({}),
  output: z.array(endpointView),
  scope: "webhooks:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    const rows = await ctx.db.webhookEndpoint.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map(describeEndpoint);
  },
});
