// orders.cancel: cancel an order that has not shipped, restocking its items and giving back what was paid.
import { z } from "zod";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { REFUND_TO, refundAll } from "./refunds.ts";
import { orderId } from "./schemas.ts";
import { assertTransition, changeStatus, lockOrder } from "./service.ts";

export default defineTool({
  name: "orders.cancel",
  description:
    "Cancel an unshipped order (pending_payment, pending, flagged_review, paid, processing; else 422 illegal_transition): " +
    "restocks every line and returns what was paid (same transaction) to refundTo: original (card refunded at Stripe, gift " +
    "cards re-credited, bank transfer as a staff refund task) or store_credit (a gift card e-mailed to the shopper). 422 " +
    "refund_failed if the card refund is refused. Returns {id, status}.",
  input: z.strictObject({
    orderId,
    reason: z.string().trim().min(1).max(500).describe("Why it is cancelled."),
    refundTo: z.enum(REFUND_TO).optional().describe("Where a paid order's money goes (default original)."),
    refundAccount: z.string().trim().min(5).max(100).optional().describe("Reg.nr. and account number for a bank-transfer refund."),
  }),
  output: z.strictObject({ id: z.string(), status: z.literal("cancelled") }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  shopper: { order: (input) => input.orderId },
  annotations: DESTRUCTIVE,
  examples: [{ orderId: "demo-order-20", reason: "Kunden fortrød købet" }, { orderId: "demo-order-15", reason: "Udsolgt hos leverandøren", refundTo: "store_credit" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    assertTransition(order, "cancelled", "cancel");
    const returned = await refundAll(ctx, order, input.refundTo ?? "original", input.refundAccount ?? null);
    const data = returned.amountDkk > 0n ? { cancelReason: input.reason, refundedDkk: order.refundedDkk + returned.amountDkk } : { cancelReason: input.reason };
    await changeStatus(ctx, order, { to: "cancelled", reason: input.reason, data });
    return { id: order.id, status: "cancelled" as const };
  },
});
