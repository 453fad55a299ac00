// giftcards.get: a gift card's balance, for whoever holds its code (the code is the secret).
import { z } from "zod";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { findCard, giftCardCode } from "../money/gift-card-codes.ts";

export default defineTool({
  name: "giftcards.get",
  description: "A gift card or store credit by code. Returns {code, balanceDkk, currency, expiresAt}.",
  input: z.strictObject({ code: giftCardCode }),
  output: z.strictObject({
    code: z.string(),
    balanceDkk: z.number().int().min(0).describe("Balance left, øre."),
    currency: z.string(),
    expiresAt: isoDateTime.nullable().describe("Last moment it can be used, or null."),
  }),
  scope: "giftcards:read",
  anonymous: true,
  audited: false,
  annotations: READ,
  examples: [{ code: "KXRT-7M2Q-PB4N-Z8WA" }],
  async handler(input, ctx) {
    const card = await findCard(ctx.db, input.code);
    return { code: card.code, balanceDkk: Number(card.balanceDkk), currency: card.currency, expiresAt: card.expiresAt?.toISOString() ?? null };
  },
});
