// discounts.create: a new percent or fixed discount code (stored uppercase, unique case-insensitively).
import { z } from "zod";
import { Conflict, Refused } from "../../core/errors.ts";
import { defineTool, WRITE } from "../tool.ts";
import { DISCOUNT_TYPES, discountValue, newCode, usageLimitInput, validUntilInput } from "./schemas.ts";
import { normalizeCode } from "./discount-rules.ts";

export default defineTool({
  name: "discounts.create",
  description: "Create a discount code (stored uppercase). Returns {id, code}.",
  errors: [{ status: 409, when: "the code exists, in any case" }],
  input: z
    .strictObject({
      code: newCode,
      type: z.enum(DISCOUNT_TYPES).describe("percent or fixed."),
      value: discountValue,
      validUntil: validUntilInput.optional(),
      usageLimit: usageLimitInput.optional(),
    })
    .refine((input) => input.type !== "percent" || input.value <= 100, { message: "A percent discount is 1 to 100", path: ["value"] }),
  output: z.strictObject({ id: z.string(), code: z.string().describe("The stored (uppercase) code.") }),
  scope: "discounts:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [
    { code: "HOST15", type: "percent", value: 15, validUntil: "2099-12-31T23:59:59Z" },
    { code: "GAVE100", type: "fixed", value: 10000, usageLimit: 50 },
  ],
  async handler(input, ctx) {
    const code = normalizeCode(input.code);
    if (await ctx.db.discount.findUnique({ where: { code } })) throw new Conflict(`The discount code ${code} already exists.`);
    const validUntil = input.validUntil ? new Date(input.validUntil) : null;
    if (validUntil && validUntil.getTime() <= ctx.now().getTime()) {
      throw new Refused("valid_until_in_past", `validUntil ${input.validUntil} is not in the future.`);
    }
    const row = await ctx.db.discount.create({
      data: {
        code,
        type: input.type,
        value: BigInt(input.value),
        validUntil,
        usageLimit: input.usageLimit === undefined ? null : BigInt(input.usageLimit),
      },
    });
    await ctx.audit({ subjectType: "discount", subjectId: row.id, before: null, after: row });
    return { id: row.id, code: row.code };
  },
});
