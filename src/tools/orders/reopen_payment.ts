// orders.reopen_payment (internal): a new card payment session for an unpaid order, so a shopper who left the provider's
// page (or whose session expired) can pay from the order's payment page; the old session is closed first, so only one
// can ever be paid.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { replacePaymentSession } from "../money/item-edits.ts";
import { balanceOf } from "../money/ledger.ts";
import { defineTool, WRITE } from "../tool.ts";
import { lockOrder, orderRow } from "./order-writes.ts";
import { orderId } from "./schemas.ts";
import { UNPAID } from "./transitions.ts";

export default defineTool({
  name: "orders.reopen_payment",
  description: "A new card payment session for an unpaid order, closing its old one. Returns {paymentUrl}.",
  errors: [
    { status: 422, code: "not_payable", when: "paid, cancelled, or not paid by card" },
    { status: 422, code: "payment_in_progress", when: "the old session has just been paid" },
    { status: 404, when: "unknown order" },
  ],
  input: z.strictObject({ orderId }),
  output: z.strictObject({ paymentUrl: z.string().describe("Where the shopper pays.") }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  internal: true,
  annotations: WRITE,
  examples: [{ orderId: "demo-order-1" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    const provider = ctx.collaborators.payments;
    if (!UNPAID.has(order.status) || order.paidAt !== null || order.paymentProvider !== "stripe" || provider.name !== "stripe") {
      throw new Refused("not_payable", `Order ${order.id} is "${order.status}" (${order.paymentProvider}): it has no card payment to open again.`);
    }
    const { paidDkk, returnedDkk } = await balanceOf(ctx.db, order.id);
    const paymentUrl = await replacePaymentSession(ctx, order, order, paidDkk - returnedDkk);
    if (paymentUrl === null) throw new Refused("not_payable", `Order ${order.id} has no card payment to open again.`);
    const after = await ctx.db.order.findUniqueOrThrow({ where: { id: order.id } });
    await ctx.audit({ subjectType: "order", subjectId: order.id, before: orderRow(order), after: orderRow(after) });
    return { paymentUrl };
  },
});
