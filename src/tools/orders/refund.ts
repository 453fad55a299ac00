// orders.refund: record a full or partial refund; the status becomes refunded or partial_refund.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { orderId } from "./schemas.ts";
import { recordRefund } from "../money/refunds.ts";
import { assertTransition, changeStatus, lockOrder } from "./order-writes.ts";

export default defineTool({
  name: "orders.refund",
  description:
    "Record a refund on a paid order (bookkeeping; no money moves): refunded at the total, else partial_refund. " +
    "Returns {id, status, refundedDkk, remainingDkk}.",
  errors: [
    { status: 422, code: "refund_exceeds_paid" },
    { status: 422, code: "illegal_transition" },
  ],
  input: z.strictObject({
    orderId,
    amountDkk: z.number().int().min(1).max(MAX_INT).optional().describe("Øre; default all that is left."),
    reason: z.string().trim().min(1).max(500).optional().describe("Why (status history)."),
  }),
  output: z.strictObject({
    id: z.string(),
    status: z.enum(["refunded", "partial_refund"]),
    refundedDkk: z.number().int().min(0).describe("Total refunded so far, øre."),
    remainingDkk: z.number().int().min(0).describe("Paid and not yet refunded, øre."),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ orderId: "demo-order-23", amountDkk: 10000, reason: "Ridse i glasset" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    // What is still to collect on it was never paid.
    const remaining = order.totalDkk - order.refundedDkk - order.outstandingDkk;
    const amount = input.amountDkk === undefined ? remaining : BigInt(input.amountDkk);
    const to: "refunded" | "partial_refund" = amount >= remaining ? "refunded" : "partial_refund";
    assertTransition(order, to, "refund");
    if (amount > remaining || amount <= 0n) {
      throw new Refused("refund_exceeds_paid", `Order ${order.id} has ${remaining} øre left to refund; ${amount} øre is more than that.`);
    }
    const refunded = order.refundedDkk + amount;
    await recordRefund(ctx, order, amount);
    await changeStatus(ctx, order, { to, reason: input.reason ?? null, data: { refundedDkk: refunded } });
    return { id: order.id, status: to, refundedDkk: Number(refunded), remainingDkk: Number(remaining - amount) };
  },
});
