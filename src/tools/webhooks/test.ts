// webhooks.test: sends one "webhook.test" event to an endpoint (even a disabled one), to check the receiver.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { endpointId, TEST_EVENT } from "./schemas.ts";
import { enqueueTo, findEndpoint, payloadOf } from "./endpoints.ts";

export default defineTool({
  name: "webhooks.test",
  description:
    "Queue a signed webhook.test event to one endpoint (disabled too), to check that the receiver verifies it and " +
    "answers 2xx. Returns {id, deliveryId}.",
  input: z.strictObject({ id: endpointId }),
  output: z.strictObject({ id: z.string(), deliveryId: z.string().describe("The queued delivery (webhooks.deliveries shows its attempts).") }),
  scope: "webhooks:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{ id: "demo-webhook-erp" }],
  async handler({ id }, ctx) {
    const endpoint = await findEndpoint(ctx.db, id);
    const deliveryId = await enqueueTo(ctx, endpoint, TEST_EVENT, payloadOf(TEST_EVENT, ctx.now(), { endpointId: id, message: "A test event from the shop." }), false);
    await ctx.audit({ subjectType: "webhookEndpoint", subjectId: id, before: null, after: { deliveryId, type: TEST_EVENT } });
    return { id, deliveryId };
  },
});
