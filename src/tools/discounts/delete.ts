// discounts.delete: remove a discount code for good (orders keep the code they were placed with).
import { z } from "zod";
import { confirmDeletion } from "../fields.ts";
import { DESTRUCTIVE, defineTool } from "../tool.ts";
import { codeInput } from "./schemas.ts";
import { findDiscount } from "./discount-rules.ts";

export default defineTool({
  name: "discounts.delete",
  description: "Delete a discount code for good (pause: discounts.toggle); orders keep theirs. Returns {ok, code}.",
  input: z.strictObject({
    code: codeInput,
    confirm: confirmDeletion,
  }),
  output: z.strictObject({ ok: z.literal(true), code: z.string() }),
  scope: "discounts:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ code: "UDLOBET", confirm: true }],
  async handler({ code }, ctx) {
    const before = await findDiscount(ctx.db, code);
    await ctx.db.discount.delete({ where: { id: before.id } });
    await ctx.audit({ subjectType: "discount", subjectId: before.id, before, after: null });
    return { ok: true as const, code: before.code };
  },
});
