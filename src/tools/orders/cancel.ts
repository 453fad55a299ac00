// orders.cancel: cancel an order that has not shipped, restocking its items and giving back what was paid.
import { z } from "zod";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { destinationOf, refundAccount, refundAll, refundTo } from "../money/refunds.ts";
import { dropOutstanding } from "../money/collect.ts";
import { orderId } from "./schemas.ts";
import { assertTransition, changeStatus, lockOrder } from "./order-writes.ts";

export default defineTool({
  name: "orders.cancel",
  description:
    "Cancel an unshipped order: restocks it and refunds to refundTo: original (card at Stripe, gift card re-credited, " +
    "bank transfer as a staff task), store_credit (an e-mailed gift card) or a gift card code. Returns {id, status}.",
  errors: [
    { status: 422, code: "illegal_transition", when: "shipped or already closed" },
    { status: 422, code: "refund_failed" },
    { status: 422, code: "payment_in_progress", when: "its outstanding amount was just paid" },
    { status: 422, code: "giftcard_expired", when: "refundTo names an expired card" },
    { status: 404, when: "unknown order or refundTo card" },
  ],
  input: z.strictObject({
    orderId,
    reason: z.string().trim().min(1).max(500).describe("Why it is cancelled."),
    refundTo,
    refundAccount,
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
    // What is still to collect is not refunded (it was never paid): its link is closed first.
    await dropOutstanding(ctx, order);
    const returned = await refundAll(ctx, order, await destinationOf(ctx, input.refundTo), input.refundAccount ?? null);
    const data = returned.amountDkk > 0n ? { cancelReason: input.reason, refundedDkk: order.refundedDkk + returned.amountDkk } : { cancelReason: input.reason };
    await changeStatus(ctx, order, { to: "cancelled", reason: input.reason, data });
    return { id: order.id, status: "cancelled" as const };
  },
});
