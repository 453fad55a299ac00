// webhooks.enable: an endpoint disabled after repeated failure receives events again.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { endpointId, endpointView } from "./schemas.ts";
import { describeEndpoint, endpointSnapshot, findEndpoint } from "./service.ts";

export default defineTool({
  name: "webhooks.enable",
  description:
    "Turn a disabled webhook endpoint back on (e.g. after its receiver was fixed; check it first with webhooks.test): it " +
    "receives new events again and its failure streak starts over. Events from while it was disabled are not sent (resend " +
    "them with webhooks.resend). Enabling an enabled endpoint changes nothing. Returns the endpoint. 404 for an unknown id.",
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
    await ctx.audit({ subjectType: "webhookEndpoint", subjectId: id, before: endpointSnapshot(row), after: endpointSnapshot(after) });
    return describeEndpoint(after);
  },
});
