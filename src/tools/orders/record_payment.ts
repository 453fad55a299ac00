// orders.record_payment: staff book the bank transfer of what is outstanding on a paid order (the payment link of a
// shop without a card provider is the bank-transfer page, the order number as reference). What the ledger then holds
// beyond the order's cost (after orders.change_payment: the old method's money) goes back where it came from.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { dropOutstanding, giveBackExcess } from "../money/collect.ts";
import { book } from "../money/ledger.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { lockOrder, orderRow } from "./order-writes.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.record_payment",
  description: "Book a bank transfer of a paid order's outstanding amount.",
  errors: [{ status: 422, code: "nothing_outstanding" }, { status: 422, code: "payment_in_progress" }, { status: 422, code: "refund_failed" }],
  input: z.strictObject({ orderId }),
  output: z.strictObject({ orderId: z.string(), paidDkk: oere("Booked"), returnedDkk: oere("Given back to the old method") }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ orderId: "demo-order-16" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    const amount = order.outstandingDkk;
    if (amount <= 0n || !order.paidAt) throw new Refused("nothing_outstanding", `Nothing is outstanding on paid order ${order.id}.`);
    const before = orderRow(order);
    // A card link still open for it is closed: the money came another way.
    await dropOutstanding(ctx, order);
    await book(ctx, order.id, { kind: "payment", method: "bank_transfer", amountDkk: amount });
    const after = await ctx.db.order.update({ where: { id: order.id }, data: { outstandingDkk: 0n, outstandingUrl: null } });
    const returned = await giveBackExcess(ctx, after);
    await ctx.audit({ subjectType: "order", subjectId: order.id, before, after });
    return { orderId: order.id, paidDkk: Number(amount), returnedDkk: Number(returned) };
  },
});
