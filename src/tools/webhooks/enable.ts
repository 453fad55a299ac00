// webhooks.enable: an endpoint disabled after repeated failure receives events again.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { endpointId, endpointView } from "./schemas.ts";
import { describeEndpoint, endpointSnapshot, findEndpoint } from "./endpoints.ts";
import { subscriptionsChanged } from "./subscribed.ts";

export default defineTool({
  name: "webhooks.enable",
  description:
    "Turn a disabled endpoint back on (test it first: webhooks.test); events missed meanwhile are not sent " +
    "(webhooks.resend them). Returns the endpoint.",
  input: z.strictObject({ id: endpointId }),
  output: endpointView,
  scope: "webhooks:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ id: "demo-webhook-erp" }],
  async handler({ id }, ctx) {
    const row = await findEndpoint(ctx.db, id);
    if (!row.disabledAt) {
      ctx.unchanged();
      return describeEndpoint(row);
    }
    const after = await ctx.db.webhookEndpoint.update({ where: { id }, data: { disabledAt: null, disabledReason: null, failureStreak: 0 } });
    subscriptionsChanged(ctx);
    await ctx.audit({ subjectType: "webhookEndpoint", subjectId: id, before: endpointSnapshot(row), after: endpointSnapshot(after) });
    return describeEndpoint(after);
  },
});
