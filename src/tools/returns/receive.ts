// returns.receive: the parcel is back: restock it and, in the same transaction, refund it or ship the exchange.
import { z } from "zod";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { destinationOf, refundAccount, refundTo, refundUpTo, type Destination, type Returned } from "../money/refunds.ts";
import { usable } from "../money/gift-cards.ts";
import type { ToolContext } from "../context.ts";
import { assertTransition, changeStatus } from "../orders/order-writes.ts";
import { mailExchanged, mailRefunded } from "./emails.ts";
import { priceExchange, shipReplacement, type Replacement } from "./exchange.ts";
import { returnId, returnReference, returnSnapshot, returnView, toReturnView, withItems, type ReturnWithItems } from "./schemas.ts";
import { assertMove, completesWithdrawal, lockReturn, netPaidFor, restockReturn } from "./return-rules.ts";

export default defineTool({
  name: "returns.receive",
  description:
    "Book an approved return received: restock and refund its units (shipping too on a whole order's last " +
    "withdrawal) where the request asked unless refundTo says, or make an exchange's replacement order. Returns the return.",
  errors: [
    { status: 422, code: "illegal_transition" },
    { status: 422, code: "refund_failed" },
    { status: 422, code: "giftcard_expired", when: "the refund's card has expired" },
    { status: 404, when: "unknown return or refundTo card" },
  ],
  input: z.strictObject({
    returnId,
    refundTo,
    refundAccount,
    restock: z.boolean().optional().describe("Default: withdrawal yes, complaint no."),
  }),
  output: returnView,
  scope: "returns:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ returnId: "demo-return-2", refundAccount: "1234 0012345678" }],
  async handler(input, ctx) {
    const { ret, order } = await lockReturn(ctx, input.returnId);
    assertMove(ret, "received", "receive");
    if (order.status !== "refunded") assertTransition(order, "partial_refund", "refund a return of");
    const to = input.refundTo === undefined ? await askedDestination(ctx, ret) : await destinationOf(ctx, input.refundTo);
    const account = input.refundAccount ?? null;
    if (input.restock ?? ret.kind === "withdrawal") await restockReturn(ctx, ret);
    const netPaid = await netPaidFor(ctx, order, ret);
    let replacement: Replacement | null = null;
    let returned: Returned;
    if (ret.exchangeVariantId) {
      // A cheaper variant's difference goes back first, so the newest money paid (a dearer replacement's own) is what
      // returns, and what the goods were paid moves on to the replacement toward its price.
      const priced = await priceExchange(ctx, ret, netPaid);
      returned = await refundUpTo(ctx, order, netPaid > priced.valueDkk ? netPaid - priced.valueDkk : 0n, to, account);
      replacement = await shipReplacement(ctx, order, ret, priced, netPaid < priced.valueDkk ? netPaid : priced.valueDkk);
    } else {
      const shipping = (await completesWithdrawal(ctx, order, ret)) ? order.shippingDkk : 0n;
      returned = await refundUpTo(ctx, order, netPaid + shipping, to, account);
    }
    // What moved on to a replacement has left this order as surely as a refund: its refundedDkk and status count both.
    const given = returned.amountDkk + (replacement?.movedDkk ?? 0n);
    if (given > 0n) {
      const refunded = order.refundedDkk + given;
      await changeStatus(ctx, order, { to: refunded >= order.totalDkk ? "refunded" : "partial_refund", reason: `Retur ${returnReference(ret)}`, data: { refundedDkk: refunded } });
    }
    const now = ctx.now();
    const after = await ctx.db.returnRequest.update({
      where: { id: ret.id },
      data: {
        status: returned.amountDkk > 0n ? "refunded" : "received",
        receivedAt: now,
        refundDkk: returned.amountDkk,
        refundTo: to.to,
        refundGiftCardId: to.to === "gift_card" ? to.card.id : null,
        replacementOrderId: replacement?.order.id ?? null,
        updatedAt: now,
      },
      include: withItems,
    });
    await ctx.audit({ subjectType: "return", subjectId: ret.id, before: returnSnapshot(ret), after: returnSnapshot(after) });
    if (replacement) mailExchanged(ctx, order, after, { number: replacement.order.number, dueDkk: replacement.dueDkk, paymentUrl: replacement.paymentUrl }, returned);
    else mailRefunded(ctx, order, after, returned);
    return toReturnView(after);
  },
});

/** Where the return asked its refund to go (original when it did not say); a named card must still be valid. */
async function askedDestination(ctx: ToolContext, ret: ReturnWithItems): Promise<Destination> {
  if (ret.refundTo === "store_credit") return { to: "store_credit" };
  if (ret.refundTo === "gift_card" && ret.refundGiftCardId) {
    return { to: "gift_card", card: usable(ctx, await ctx.db.giftCard.findUniqueOrThrow({ where: { id: ret.refundGiftCardId } })) };
  }
  return { to: "original" };
}
