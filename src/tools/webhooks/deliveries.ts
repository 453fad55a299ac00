// webhooks.deliveries: an endpoint's delivery log, newest first, with every attempt.
import { z } from "zod";
import { limit } from "../fields.ts";
import { defineTool, READ } from "../tool.ts";
import { deliveryView, endpointId } from "./schemas.ts";
import { describeDelivery, findEndpoint } from "./endpoints.ts";

export default defineTool({
  name: "webhooks.deliveries",
  description:
    "An endpoint's delivery log, newest first (resend a dead one: webhooks.resend). Returns [{id, type, status, " +
    "attempts, nextAttemptAt, last*, payload, tries}].",
  input: z.strictObject({
    id: endpointId,
    limit: limit(100, 20),
  }),
  output: z.array(deliveryView),
  scope: "webhooks:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ id: "demo-webhook-erp" }],
  async handler({ id, limit }, ctx) {
    await findEndpoint(ctx.db, id);
    const rows = await ctx.db.outboxEvent.findMany({
      where: { endpointId: id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      include: { tries: { orderBy: [{ startedAt: "asc" }, { number: "asc" }] } },
    });
    return rows.map(describeDelivery);
  },
});
