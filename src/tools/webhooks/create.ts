// webhooks.create: a new endpoint receiving the chosen event types, signed with a whsec_ secret shown in this answer only.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { endpointView, eventList } from "./schemas.ts";
import { checkReceiver, describeEndpoint, endpointSnapshot, newSecret } from "./endpoints.ts";
import { subscriptionsChanged } from "./subscribed.ts";

export default defineTool({
  name: "webhooks.create",
  description:
    "Register a webhook endpoint: its events are POSTed as JSON {type, timestamp, data}, signed per Standard Webhooks, " +
    "retried for a day. Returns {id, secret (shown once), endpoint}.",
  errors: [{ status: 422, code: "receiver_not_allowed", when: "a private address" }],
  input: z.strictObject({
    url: z.string().trim().url().max(2000).describe("On a public address."),
    events: eventList,
  }),
  output: z.strictObject({
    id: z.string(),
    secret: z.string().describe("The signing secret (\"whsec_…\"), shown only now: give it to the receiver's verifier."),
    endpoint: endpointView,
  }),
  scope: "webhooks:write",
  anonymous: false,
  audited: true,
  sensitive: ["secret"],
  annotations: WRITE,
  examples: [{ url: "https://erp.example.dk/hooks/shop", events: ["order.paid", "order.shipped"] }],
  async handler({ url, events }, ctx) {
    await checkReceiver(url, ctx.config.webhooksAllowLocal);
    const row = await ctx.db.webhookEndpoint.create({ data: { url, events, secret: newSecret(), createdAt: ctx.now() } });
    subscriptionsChanged(ctx);
    await ctx.audit({ subjectType: "webhookEndpoint", subjectId: row.id, before: null, after: endpointSnapshot(row) });
    return { id: row.id, secret: row.secret, endpoint: describeEndpoint(row) };
  },
});
