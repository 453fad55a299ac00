// webhooks.resend: a delivery goes out again (same webhook-id and body, fresh attempts), e.g. after a receiver was fixed.
import { z } from "zod";
import { NotFound, Refused } from "../../core/errors.ts";
import { oneOffReceiver } from "../../core/outbox/outbox.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { deliveryView } from "./schemas.ts";
import { describeDelivery } from "./endpoints.ts";

export default defineTool({
  name: "webhooks.resend",
  description:
    "Send a delivery again with fresh attempts (same webhook-id and body), disabled endpoints too. Returns the " +
    "delivery.",
  errors: [{ status: 422, code: "delivery_pending", when: "while a retry awaits" }],
  input: z.strictObject({ deliveryId: z.string().min(1).max(100).describe("Delivery id.") }),
  output: deliveryView,
  scope: "webhooks:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ deliveryId: "demo-webhook-delivery" }],
  async handler({ deliveryId }, ctx) {
    await ctx.db.$queryRaw`SELECT id FROM "OutboxEvent" WHERE id = ${deliveryId} AND "endpointId" IS NOT NULL FOR UPDATE`;
    const row = await ctx.db.outboxEvent.findFirst({ where: { id: deliveryId, endpointId: { not: null } } });
    if (!row) throw new NotFound(`No webhook delivery with id "${deliveryId}".`);
    if (row.status === "pending") throw new Refused("delivery_pending", `Delivery ${deliveryId} is still waiting for attempt ${row.attempts + 1}; it needs no resend.`);
    const after = await ctx.db.outboxEvent.update({
      where: { id: deliveryId },
      // A resent event goes out at once, beside its endpoint's queue: it is old, so it has no place in that order.
      data: {
        status: "pending",
        attempts: 0,
        nextAttemptAt: ctx.now(),
        leaseUntil: null,
        maxAttempts: ctx.collaborators.outbox.maxAttempts,
        retryUntil: ctx.collaborators.outbox.retryUntil(ctx.now()),
        receiver: oneOffReceiver(),
      },
      include: { tries: { orderBy: [{ startedAt: "asc" }, { number: "asc" }] } },
    });
    await ctx.collaborators.outbox.notify(ctx);
    const { body: _b, ...before } = row;
    await ctx.audit({ subjectType: "webhookDelivery", subjectId: deliveryId, before, after: { status: "pending", attempts: 0 } });
    return describeDelivery(after);
  },
});
