// webhooks.delete: an endpoint stops receiving events; its deliveries still waiting are cancelled (the rows stay as history).
import { z } from "zod";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { endpointId } from "./schemas.ts";
import { endpointSnapshot, findEndpoint } from "./endpoints.ts";

export default defineTool({
  name: "webhooks.delete",
  description: "Delete a webhook endpoint; pending retries are cancelled. Returns {id, deleted}.",
  input: z.strictObject({ id: endpointId }),
  output: z.strictObject({ id: z.string(), deleted: z.literal(true) }),
  scope: "webhooks:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ id: "demo-webhook-old" }],
  async handler({ id }, ctx) {
    const row = await findEndpoint(ctx.db, id);
    await ctx.db.outboxEvent.updateMany({ where: { endpointId: id, status: "pending" }, data: { status: "cancelled" } });
    await ctx.db.webhookEndpoint.delete({ where: { id } });
    await ctx.audit({ subjectType: "webhookEndpoint", subjectId: id, before: endpointSnapshot(row), after: null });
    return { id, deleted: true as const };
  },
});
