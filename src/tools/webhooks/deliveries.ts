// webhooks.deliveries: an endpoint's delivery log, newest first, with every attempt.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { deliveryView, endpointId } from "./schemas.ts";
import { describeDelivery, findEndpoint } from "./service.ts";

export default defineTool({
  name: "webhooks.deliveries",
  description:
    "The delivery log of one webhook endpoint, newest first: each event sent (type, payload, status pending/delivered/" +
    "dead/cancelled, attempts, next attempt, last status code or error) with every attempt's time, duration and answer. " +
    "A dead delivery can be sent again with webhooks.resend. 404 for an unknown id.",
  input: z.strictObject({
    id: endpointId,
    limit: z.number().int().min(1).max(100).default(20).describe("Deliveries to return, 1..100 (default 20)."),
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
