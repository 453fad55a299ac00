// giftcards.list: the shop's gift cards and store credit for staff, newest first; codes shown by their last four symbols.
import { z } from "zod";
import { limit } from "../fields.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { codeHint } from "../money/gift-card-codes.ts";
import { SOURCES } from "../money/gift-cards.ts";

export default defineTool({
  name: "giftcards.list",
  description:
    "Gift cards and store credit, newest first, codes masked. Returns [{id, code, balanceDkk, initialDkk, source, " +
    "customerEmail, orderId, expiresAt, …}].",
  input: z.strictObject({
    customerEmail: z.email().max(254).optional().describe("Customer e-mail."),
    source: z.enum(SOURCES).optional().describe("issued by staff, store_credit refunded, purchase bought."),
    withBalance: z.boolean().default(false).describe("Only cards with a balance."),
    limit: limit(100, 50),
  }),
  output: z.array(
    z.strictObject({
      id: z.string(),
      code: z.string().describe("…and the last four symbols."),
      balanceDkk: z.number().int().min(0).describe("Left, øre."),
      initialDkk: z.number().int().min(0).describe("Issued, øre."),
      source: z.enum(SOURCES),
      customerEmail: z.string().nullable(),
      orderId: z.string().nullable().describe("The order refunded (store_credit) or that bought it (purchase)."),
      expiresAt: isoDateTime.nullable(),
      createdAt: isoDateTime,
    }),
  ),
  scope: "giftcards:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { source: "issued", withBalance: true, limit: 10 }],
  async handler(input, ctx) {
    const cards = await ctx.db.giftCard.findMany({
      where: {
        ...(input.customerEmail ? { customerEmail: input.customerEmail.toLowerCase() } : {}),
        ...(input.source ? { source: input.source } : {}),
        ...(input.withBalance ? { balanceDkk: { gt: 0n } } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: input.limit,
    });
    return cards.map((card) => ({
      id: card.id,
      code: codeHint(card.code),
      balanceDkk: Number(card.balanceDkk),
      initialDkk: Number(card.initialDkk),
      source: card.source as (typeof SOURCES)[number],
      customerEmail: card.customerEmail,
      orderId: card.orderId,
      expiresAt: card.expiresAt?.toISOString() ?? null,
      createdAt: card.createdAt.toISOString(),
    }));
  },
});
