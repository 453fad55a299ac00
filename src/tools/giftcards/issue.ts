// giftcards.issue: staff issue a gift card (a goodwill gesture, a prize, a card sold over the counter).
import { z } from "zod";
import { MAX_INT } from "../shared/amounts.ts";
import { defineTool, WRITE } from "../tool.ts";
import { issueCard } from "../money/gift-cards.ts";

export default defineTool({
  name: "giftcards.issue",
  description:
    "Issue a gift card valid 3 years, e-mailed to customerEmail if given. Its code is a secret like cash, shown " +
    "only here and in that e-mail. Returns {code, balanceDkk}.",
  input: z.strictObject({
    amountDkk: z.number().int().min(100).max(MAX_INT).describe("The balance, øre."),
    customerEmail: z.email().max(254).optional().describe("Gets the code by e-mail."),
    reason: z.string().trim().min(1).max(500).optional().describe("Why (audit log)."),
  }),
  output: z.strictObject({
    code: z.string().describe("XXXX-XXXX-XXXX-XXXX."),
    balanceDkk: z.number().int().min(0).describe("Balance, øre."),
  }),
  scope: "giftcards:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{ amountDkk: 50000, customerEmail: "mette@example.dk", reason: "Undskyld for ventetiden" }],
  async handler(input, ctx) {
    const card = await issueCard(ctx, { amountDkk: BigInt(input.amountDkk), customerEmail: input.customerEmail ?? null, reason: input.reason ?? null, source: "issued" });
    return { code: card.code, balanceDkk: Number(card.balanceDkk) };
  },
});
