// orders.payments: an order's payment ledger, oldest entry first.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { oere } from "../shared/amounts.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { ENTRY_KINDS } from "../money/ledger.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.payments",
  description:
    "An order's payment ledger, oldest first, amounts positive: payment, refund (to the original method), " +
    "store_credit (as a gift card). Returns [{kind, method, amountDkk, reference, createdAt}].",
  input: z.strictObject({ orderId }),
  output: z.array(
    z.strictObject({
      kind: z.enum(ENTRY_KINDS),
      method: z.string().describe("card, mobilepay, bank_transfer, gift_card …"),
      amountDkk: oere("Amount"),
      reference: z.string().nullable().describe("The payment provider's id, or the gift card's last characters; or null."),
      createdAt: isoDateTime,
    }),
  ),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-23" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, select: { id: true } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    const entries = await ctx.db.paymentEntry.findMany({ where: { orderId: order.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return entries.map((entry) => ({
      kind: entry.kind as (typeof ENTRY_KINDS)[number],
      method: entry.method,
      amountDkk: Number(entry.amountDkk),
      reference: entry.reference,
      createdAt: entry.createdAt.toISOString(),
    }));
  },
});
