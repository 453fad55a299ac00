// webhooks.list: the webhook endpoints with their event types and health, never a secret.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { endpointView } from "./schemas.ts";
import { describeEndpoint } from "./endpoints.ts";

export default defineTool({
  name: "webhooks.list",
  description:
    "Webhook endpoints, oldest first, without secrets; repeated failure disables one. Returns [{id, url, events, " +
    "enabled, disabled*, failureStreak, …}].",
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
