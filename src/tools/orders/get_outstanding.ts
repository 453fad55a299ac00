// orders.get_outstanding (internal): what is still to be paid on a paid order (an item edit's rise, a change of payment
// method) and the link to pay it, so the shopper's order page offers "Betal resten" and the admin shows it.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.get_outstanding",
  description: "What is still to be paid on a paid order, and the link to pay it. Returns {orderId, outstandingDkk, paymentUrl}.",
  errors: [{ status: 404, when: "unknown order" }],
  input: z.strictObject({ orderId }),
  output: z.strictObject({
    orderId: z.string(),
    outstandingDkk: oere("Still to pay on the paid order"),
    paymentUrl: z.string().nullable().describe("Where to pay it, or null."),
  }),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  internal: true,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-23" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, select: { id: true, outstandingDkk: true, outstandingUrl: true } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    return { orderId: order.id, outstandingDkk: Number(order.outstandingDkk), paymentUrl: order.outstandingDkk > 0n ? order.outstandingUrl : null };
  },
});
