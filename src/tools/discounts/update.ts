// discounts.update: change a code's value, expiry or usage limit (the code and its type are fixed).
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { codeInput, discountRow, discountValue, usageLimitInput, validUntilInput } from "./schemas.ts";
import { discountView, findDiscount } from "./discount-rules.ts";

export default defineTool({
  name: "discounts.update",
  description: "Change a code's value, validUntil or usageLimit. Returns the discount as discounts.get.",
  errors: [
    { status: 422, code: "percent_out_of_range", when: "a percent value over 100" },
    { status: 422, code: "valid_until_in_past" },
    { status: 422, code: "usage_limit_below_count", when: "usageLimit below the uses so far" },
  ],
  input: z.strictObject({
    code: codeInput,
    patch: z
      .strictObject({
        value: discountValue.optional(),
        validUntil: validUntilInput.nullable().optional().describe("In the future; null: none."),
        usageLimit: usageLimitInput.nullable().optional().describe("At least the uses so far; null: no limit."),
      })
      .refine((patch) => Object.keys(patch).length > 0, { message: "Give at least one field to change" })
      .describe("Fields to change; omitted ones stay."),
  }),
  output: discountRow,
  scope: "discounts:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ code: "SOMMER200", patch: { usageLimit: 200 } }],
  async handler({ code, patch }, ctx) {
    const before = await findDiscount(ctx.db, code);
    if (patch.value !== undefined && before.type === "percent" && patch.value > 100) {
      throw new Refused("percent_out_of_range", `${before.code} is a percent discount: value must be 1 to 100, not ${patch.value}.`);
    }
    if (patch.validUntil && new Date(patch.validUntil).getTime() <= ctx.now().getTime()) {
      throw new Refused("valid_until_in_past", `validUntil ${patch.validUntil} is not in the future; use discounts.toggle to stop a code now.`);
    }
    if (patch.usageLimit != null && BigInt(patch.usageLimit) < before.usageCount) {
      throw new Refused("usage_limit_below_count", `${before.code} has been used ${before.usageCount} times; usageLimit cannot be ${patch.usageLimit}.`);
    }
    const after = await ctx.db.discount.update({
      where: { id: before.id },
      data: {
        ...(patch.value !== undefined ? { value: BigInt(patch.value) } : {}),
        ...(patch.validUntil !== undefined ? { validUntil: patch.validUntil === null ? null : new Date(patch.validUntil) } : {}),
        ...(patch.usageLimit !== undefined ? { usageLimit: patch.usageLimit === null ? null : BigInt(patch.usageLimit) } : {}),
      },
    });
    await ctx.audit({ subjectType: "discount", subjectId: after.id, before, after });
    return discountView(after);
  },
});
