// orders.pending_refund (internal): what of an order's refunds staff have yet to pay out by bank transfer, so the order
// page says the money "refunderes" rather than that it was refunded. The refund-task tools are staff views; this tells
// the order's own shopper only the sum.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.pending_refund",
  description: "The sum of an order's bank-transfer refunds staff have not paid out yet. Returns {orderId, pendingDkk}.",
  errors: [{ status: 404, when: "unknown order" }],
  input: z.strictObject({ orderId }),
  output: z.strictObject({ orderId: z.string(), pendingDkk: oere("Still to transfer: the open refund tasks' sum") }),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  internal: true,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-23" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, select: { id: true } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    const open = await ctx.db.refundTask.aggregate({ where: { orderId: order.id, status: "open" }, _sum: { amountDkk: true } });
    return { orderId: order.id, pendingDkk: Number(open._sum.amountDkk ?? 0n) };
  },
});
