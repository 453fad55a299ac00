// giftcards.redeem: pay (part of) an unpaid order from a gift card; the order becomes paid once nothing is outstanding.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { formatMoney } from "../../core/format.ts";
import { book, outstandingOf } from "../money/ledger.ts";
import { orderId } from "../orders/schemas.ts";
import { changeStatus, lockOrder } from "../orders/order-writes.ts";
import { UNPAID } from "../orders/transitions.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { defineTool, WRITE } from "../tool.ts";
import { codeHint, giftCardCode } from "../money/gift-card-codes.ts";
import { spend } from "../money/gift-cards.ts";

export default defineTool({
  name: "giftcards.redeem",
  description:
    "Pay an unpaid order from a gift card (paid once nothing is left to pay). Returns {code, balanceDkk, orderId, " +
    "orderStatus, outstandingDkk}.",
  errors: [
    { status: 422, code: "giftcard_insufficient_balance" },
    { status: 422, code: "giftcard_expired" },
    { status: 422, code: "amount_exceeds_outstanding" },
    { status: 422, code: "order_not_unpaid" },
    { status: 422, code: "partial_payment_unsupported", when: "card orders: all or nothing" },
    { status: 404, when: "unknown code or order" },
  ],
  input: z.strictObject({
    code: giftCardCode,
    amountDkk: z.number().int().min(1).max(MAX_INT).describe("Øre to take from the card."),
    orderId,
  }),
  output: z.strictObject({
    code: z.string(),
    balanceDkk: z.number().int().min(0).describe("Left on the card, øre."),
    orderId: z.string(),
    orderStatus: z.string(),
    outstandingDkk: z.number().int().min(0).describe("Still to pay on the order, øre."),
  }),
  scope: "giftcards:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{ code: "KXRT-7M2Q-PB4N-Z8WA", amountDkk: 1000, orderId: "demo-order-20" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    if (!UNPAID.has(order.status)) throw new Refused("order_not_unpaid", `Order ${order.id} is "${order.status}": only an unpaid order can be paid with a gift card.`);
    const amount = BigInt(input.amountDkk);
    const outstanding = await outstandingOf(ctx.db, order);
    if (amount > outstanding) throw new Refused("amount_exceeds_outstanding", `Order ${order.id} has ${formatMoney(outstanding, order.currency)} left to pay; ${formatMoney(amount, order.currency)} is more than that.`);
    // A card payment session at Stripe is for the whole total: paying part of it here would have the shopper pay twice.
    if (order.paymentProvider === "stripe" && amount < outstanding) {
      throw new Refused("partial_payment_unsupported", `Order ${order.id} is paid by card at Stripe: a gift card can pay all of the ${formatMoney(outstanding, order.currency)} outstanding, not part of it.`);
    }
    const card = await spend(ctx, input.code, amount, order.id);
    await book(ctx, order.id, { kind: "payment", method: "gift_card", amountDkk: amount, reference: codeHint(card.code) });
    const left = outstanding - amount;
    const status = left === 0n ? (await changeStatus(ctx, order, { to: "paid", reason: `gift card ${codeHint(card.code)}`, data: { paymentMethod: order.paymentMethod ?? "gift_card" } })).status : order.status;
    return { code: card.code, balanceDkk: Number(card.balanceDkk), orderId: order.id, orderStatus: status, outstandingDkk: Number(left) };
  },
});
