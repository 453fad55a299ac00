// orders.cancel: cancel an order with a reason where the transition is legal, restocking its items.
import { z } from "zod";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { orderId } from "./schemas.ts";
import { changeStatus, lockOrder } from "./service.ts";

export default defineTool({
  name: "orders.cancel",
  description:
    "Cancel an order, giving the reason (kept on the order and in its history). Allowed from pending_payment, pending, " +
    "flagged_review and processing; otherwise 422 illegal_transition (a paid order that has not gone to processing is " +
    "refunded with orders.refund instead). Puts every line's units back in stock in the same transaction. Returns {id, status}.",
  input: z.strictObject({
    orderId,
    reason: z.string().trim().min(1).max(500).describe("Why the order is cancelled, e.g. \"Kunden fortrød\"."),
  }),
  output: z.strictObject({ id: z.string(), status: z.literal("cancelled") }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ orderId: "demo-order-20", reason: "Kunden fortrød købet" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    await changeStatus(ctx, order, { to: "cancelled", reason: input.reason, data: { cancelReason: input.reason } });
    return { id: order.id, status: "cancelled" as const };
  },
});
