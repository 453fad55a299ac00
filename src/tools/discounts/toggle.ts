// discounts.toggle: switch a discount code on or off (to the given state, or the opposite of the current one).
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { codeInput } from "./schemas.ts";
import { findDiscount } from "./discount-rules.ts";

export default defineTool({
  name: "discounts.toggle",
  description: "Activate or deactivate a discount code. Returns {code, active}.",
  input: z.strictObject({
    code: codeInput,
    active: z.boolean().optional().describe("Omit to flip it."),
  }),
  output: z.strictObject({ code: z.string(), active: z.boolean() }),
  scope: "discounts:write",
  anonymous: false,
  audited: true,
  annotations: { ...UPDATE, idempotentHint: false },
  examples: [{ code: "velkommen10", active: true }],
  async handler({ code, active }, ctx) {
    const before = await findDiscount(ctx.db, code);
    const after = await ctx.db.discount.update({ where: { id: before.id }, data: { active: active ?? !before.active } });
    await ctx.audit({ subjectType: "discount", subjectId: after.id, before, after });
    return { code: after.code, active: after.active };
  },
});
