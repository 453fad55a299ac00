// user.list_gift_cards (internal): the signed-in shopper's store credit and gift cards with money left, for "Mine
// ordrer". A card is theirs when it was issued to their e-mail (the login code proved it) or holds a refund of one of
// their orders. Codes are masked to the last four: the code is a bearer secret, and the page is shown on screens.
import { z } from "zod";
import { isoDateTime } from "../shared/timestamps.ts";
import { codeHint } from "../money/gift-card-codes.ts";
import { SOURCES } from "../money/gift-cards.ts";
import { defineTool, READ } from "../tool.ts";
import { sessionCustomerId } from "./own-customer.ts";

export default defineTool({
  name: "user.list_gift_cards",
  description: "The signed-in shopper's gift cards and store credit with a balance, newest first, codes masked.",
  errors: [{ status: 422, code: "no_customer" }],
  input: z.strictObject({}),
  output: z.array(
    z.strictObject({
      code: z.string().describe("…and the last four symbols."),
      balanceDkk: z.number().int().min(0).describe("Left, øre."),
      currency: z.string(),
      source: z.enum(SOURCES),
      expiresAt: isoDateTime.nullable(),
    }),
  ),
  scope: "customer:read",
  anonymous: false,
  audited: false,
  internal: true,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    const customerId = sessionCustomerId(ctx.caller);
    const customer = await ctx.db.customer.findUnique({ where: { id: customerId }, select: { email: true } });
    const orders = await ctx.db.order.findMany({ where: { userId: customerId }, select: { id: true } });
    const cards = await ctx.db.giftCard.findMany({
      where: {
        balanceDkk: { gt: 0n },
        OR: [...(customer ? [{ customerEmail: customer.email.toLowerCase() }] : []), { orderId: { in: orders.map((order) => order.id) }, source: "store_credit" }],
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 50,
    });
    return cards.map((card) => ({
      code: codeHint(card.code),
      balanceDkk: Number(card.balanceDkk),
      currency: card.currency,
      source: card.source as (typeof SOURCES)[number],
      expiresAt: card.expiresAt?.toISOString() ?? null,
    }));
  },
});
