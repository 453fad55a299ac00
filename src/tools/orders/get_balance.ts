// orders.get_balance: what an order's payment ledger adds up to, so no page or agent sums the entries itself.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { balanceOf } from "../money/ledger.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.get_balance",
  // Short: the MCP listing's budget (test/api/mcp-listing.test.ts) is nearly spent; the output fields say the rest.
  description: "An order's ledger totals. Returns {orderId, paidDkk, returnedDkk, netPaidDkk}.",
  input: z.strictObject({ orderId }),
  output: z.strictObject({
    orderId: z.string(),
    paidDkk: oere("Received: the ledger's payments"),
    returnedDkk: oere("Given back: refunds, store credit and money moved on to an exchange's replacement"),
    netPaidDkk: oere("Paid less given back: what the shop holds of the order's money, and what cancelling gives back"),
  }),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-23" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, select: { id: true } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    const { paidDkk, returnedDkk } = await balanceOf(ctx.db, order.id);
    return { orderId: order.id, paidDkk: Number(paidDkk), returnedDkk: Number(returnedDkk), netPaidDkk: Number(paidDkk - returnedDkk) };
  },
});
