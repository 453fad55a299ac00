// discounts.try_apply: put a discount code on the session cart if it applies now, or say why not.
import { z } from "zod";
import { CartStore, sessionOf, summarize } from "../cart/cart-store.ts";
import { cartSummary } from "../cart/schemas.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { oere } from "../shared/amounts.ts";
import { evaluateDiscount, normalizeCode } from "./discount-rules.ts";

export default defineTool({
  name: "discounts.try_apply",
  description:
    "Try a discount code on the shopper's cart; it replaces an earlier code if it applies. Returns {applied: true, " +
    "code, discountDkk, summary} or {applied: false, code, reason, detail} (cart unchanged).",
  input: z.strictObject({ code: z.string().trim().min(1).max(100).describe("Any case.") }),
  output: z.discriminatedUnion("applied", [
    z.strictObject({
      applied: z.literal(true),
      code: z.string().describe("The code as stored (uppercase)."),
      discountDkk: oere("Discount on the current cart"),
      summary: cartSummary,
    }),
    z.strictObject({
      applied: z.literal(false),
      code: z.string(),
      reason: z.enum(["unknown", "inactive", "expired", "used_up"]).describe("Why the code does not apply."),
      detail: z.string().describe("Explanation for the shopper."),
    }),
  ]),
  scope: "cart:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ code: "VELKOMMEN10" }],
  async handler({ code }, ctx) {
    const cart = await CartStore.open(ctx, true);
    const before = cart.state.cartId ? await ctx.db.cart.findUnique({ where: { id: cart.state.cartId } }) : null;
    const current = await summarize(ctx.db, cart.state, ctx.now());
    const evaluation = await evaluateDiscount(ctx.db, code, current.subtotalDkk, ctx.now());
    if (!evaluation.ok) return { applied: false as const, code: normalizeCode(code), reason: evaluation.reason, detail: evaluation.detail };
    await cart.setDiscount(evaluation.discount.code);
    if (before) {
      const after = await ctx.db.cart.findUniqueOrThrow({ where: { id: before.id } });
      await ctx.audit({ subjectType: "cart", subjectId: before.id, before, after });
    } else {
      await ctx.audit({ subjectType: "cart", subjectId: sessionOf(ctx).id, before: null, after: { discountCode: evaluation.discount.code } });
    }
    const summary = await summarize(ctx.db, cart.state, ctx.now());
    return { applied: true as const, code: evaluation.discount.code, discountDkk: summary.discountDkk, summary };
  },
});
