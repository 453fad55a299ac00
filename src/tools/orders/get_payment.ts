// orders.get_payment: one order as its payment page shows it: whether it is paid, how it is paid, its lines and totals.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { vatOf } from "./pricing.ts";
import { outstandingOf } from "../money/ledger.ts";
import { orderId } from "./schemas.ts";
import { PAID } from "./transitions.ts";

export default defineTool({
  name: "orders.get_payment",
  description:
    "An order's payment state, as its payment page shows it. Returns {orderId, email, status, paid, " +
    "paymentProvider (manual: bank transfer; stripe: card), instructionsEmailed, items, discountCode, *Dkk " +
    "amounts, vatOere}.",
  input: z.strictObject({ orderId }),
  output: z.strictObject({
    orderId: z.string(),
    email: z.string().describe("Where the order's e-mails go."),
    status: z.string().describe("Order status (see orders.update_status for the values)."),
    paid: z.boolean().describe("True in paid, processing, shipped, delivered and completed."),
    paymentProvider: z.enum(["manual", "stripe"]).describe("manual: bank transfer to the shop's account; stripe: card payment at Stripe Checkout."),
    instructionsEmailed: z.boolean().describe("Whether the e-mail with the bank-transfer instructions has gone out."),
    items: z.array(
      z.strictObject({
        productName: z.string().describe("Product name when ordered."),
        variantSku: z.string().nullable().describe("SKU of the chosen variant, or null."),
        quantity: z.number().int().min(1),
        unitPriceDkk: oere("Unit price incl. VAT when ordered"),
        lineTotalDkk: oere("unitPriceDkk × quantity"),
      }),
    ),
    subtotalDkk: oere("Sum of the lines"),
    discountCode: z.string().nullable().describe("The discount code used, or null."),
    discountDkk: oere("Discount"),
    shippingDkk: oere("Shipping"),
    totalDkk: oere("Total to pay, incl. VAT"),
    vatOere: oere("VAT included in the total"),
    giftCardDkk: oere("Paid by gift card"),
    outstandingDkk: oere("Still to pay"),
  }),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ orderId: "demo-order-21" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, include: { items: { orderBy: { id: "asc" } } } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    const emailed = await ctx.db.emailMessage.count({ where: { orderId: order.id, kind: "payment_instructions" } });
    const cards = await ctx.db.paymentEntry.aggregate({ where: { orderId: order.id, kind: "payment", method: "gift_card" }, _sum: { amountDkk: true } });
    return {
      orderId: order.id,
      email: order.email,
      status: order.status,
      paid: PAID.has(order.status),
      paymentProvider: order.paymentProvider === "stripe" ? ("stripe" as const) : ("manual" as const),
      instructionsEmailed: emailed > 0,
      items: order.items.map((item) => ({
        productName: item.productName,
        variantSku: item.variantSku,
        quantity: item.quantity,
        unitPriceDkk: Number(item.unitPriceDkk),
        lineTotalDkk: Number(item.unitPriceDkk * BigInt(item.quantity)),
      })),
      subtotalDkk: Number(order.subtotalDkk),
      discountCode: order.discountCode,
      discountDkk: Number(order.discountDkk),
      shippingDkk: Number(order.shippingDkk),
      totalDkk: Number(order.totalDkk),
      vatOere: Number(order.vatOere ?? vatOf(order.totalDkk)),
      giftCardDkk: Number(cards._sum.amountDkk ?? 0n),
      // A paid order's outstanding amount (an item edit's rise, a change of payment method) is still to pay too.
      outstandingDkk: Number(bigger(await outstandingOf(ctx.db, order), order.outstandingDkk)),
    };
  },
});

const bigger = (a: bigint, b: bigint) => (a > b ? a : b);
