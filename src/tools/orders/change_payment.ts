// orders.change_payment: a paid, unshipped order is paid another way. A gift card or store credit pays it at once and
// the old method's money goes back in the same transaction; a payment link leaves the whole amount outstanding, and the
// old money goes back when the link is paid (src/tools/money/collect.ts settleCollection). One transaction on the locked
// order row, so two changes queue and each sees what the other wrote: never charged or refunded twice.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { collect, chargeGiftCard, short } from "../money/collect.ts";
import { findCard } from "../money/gift-card-codes.ts";
import { usable } from "../money/gift-cards.ts";
import { balanceOf } from "../money/ledger.ts";
import { refundAccount, refundToOriginal } from "../money/refunds.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { sendPaymentLink } from "./emails.ts";
import { assertUnshipped, lockOrder, orderRow } from "./order-writes.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.change_payment",
  description:
    "Pay a paid unshipped order another way; the old payment is refunded once the new one has paid.",
  errors: [
    { status: 422, code: "already_shipped" },
    { status: 422, code: "not_paid", when: "unpaid: use its payment link or giftcards.redeem" },
    { status: 422, code: "insufficient_balance" },
    { status: 422, code: "giftcard_expired" },
    { status: 422, code: "payment_in_progress" },
    { status: 422, code: "refund_failed" },
  ],
  input: z.strictObject({
    orderId,
    payWith: z.union([z.literal("payment_link"), z.strictObject({ giftCardCode: z.string().trim().min(16).max(40) })]).describe("The new method"),
    refundAccount,
  }),
  output: z.strictObject({
    orderId: z.string(),
    status: z.string(),
    paidDkk: oere("Paid now by the new method"),
    returnedDkk: oere("Given back now to the old one"),
    outstandingDkk: oere("Still to pay (the link)"),
    paymentUrl: z.string().nullable(),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  sensitive: ["giftCardCode"],
  annotations: DESTRUCTIVE,
  examples: [{ orderId: "demo-order-16", payWith: "payment_link" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    assertUnshipped(order, "its payment");
    if (!order.paidAt) throw new Refused("not_paid", `Order ${order.id} is not paid yet: it is paid through its own payment link, or by a gift card with giftcards.redeem.`);
    const before = orderRow(order);
    const amount = order.totalDkk - order.refundedDkk;
    const { paidDkk, returnedDkk } = await balanceOf(ctx.db, order.id);
    const held = paidDkk - returnedDkk;
    let result;
    if (input.payWith === "payment_link") {
      const collected = await collect(ctx, order, amount, "payment_link");
      result = { paidDkk: 0n, returnedDkk: 0n, outstandingDkk: collected.outstandingDkk, paymentUrl: collected.paymentUrl };
    } else {
      const code = input.payWith.giftCardCode;
      // The card's row is locked before the old money goes back, so the balance read here is still there to spend.
      const card = usable(ctx, await findCard(ctx.db, code));
      await ctx.db.$queryRaw`SELECT id FROM "GiftCard" WHERE id = ${card.id} FOR UPDATE`;
      const balance = (await ctx.db.giftCard.findUniqueOrThrow({ where: { id: card.id }, select: { balanceDkk: true } })).balanceDkk;
      if (balance < amount - onCard(await ctx.db.giftCardMovement.findMany({ where: { orderId: order.id, giftCardId: card.id } }))) {
        throw short(card.code, balance, amount, order.currency);
      }
      await collect(ctx, order, 0n, "payment_link");
      if (held > 0n) await refundToOriginal(ctx, order, held, input.refundAccount ?? null);
      await chargeGiftCard(ctx, order, code, amount);
      result = { paidDkk: amount, returnedDkk: held > 0n ? held : 0n, outstandingDkk: 0n, paymentUrl: null };
    }
    const after = await ctx.db.order.findUniqueOrThrow({ where: { id: order.id } });
    await ctx.audit({ subjectType: "order", subjectId: order.id, before, after, note: input.payWith === "payment_link" ? "payment link" : "gift card" });
    const link = result.paymentUrl;
    if (link) ctx.afterCommit(() => sendPaymentLink(ctx.collaborators.db, ctx.collaborators.mailer, order.id, amount, link, ctx.now()));
    return {
      orderId: order.id,
      status: after.status,
      paidDkk: Number(result.paidDkk),
      returnedDkk: Number(result.returnedDkk),
      outstandingDkk: Number(result.outstandingDkk),
      paymentUrl: result.paymentUrl,
    };
  },
});

/** What the order still holds of a card (its spends less what went back): re-credited to it before it pays again. */
function onCard(movements: Array<{ amountDkk: bigint }>): bigint {
  const net = -movements.reduce((sum, movement) => sum + movement.amountDkk, 0n);
  return net > 0n ? net : 0n;
}
