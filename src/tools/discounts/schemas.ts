// Shared shapes of the discounts area (SPEC.md "Discount"): codes are stored uppercase and matched case-insensitively.
import { z } from "zod";
import { MAX_INT } from "../shared/amounts.ts";

export const DISCOUNT_TYPES = ["percent", "fixed"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const codeInput = z.string().min(1).max(64).describe("Any case.");
export const newCode = z
  .string()
  .min(3)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Use letters, digits, \"_\" and \"-\" only")
  .describe("Stored uppercase.");
export const discountValue = z
  .number()
  .int()
  .gt(0)
  .max(MAX_INT)
  .describe("percent: 1-100 % off the subtotal; fixed: øre off.");
export const validUntilInput = z.iso.datetime().describe("Expiry (UTC, Z), in the future.");
export const usageLimitInput = z.number().int().gt(0).max(MAX_INT).describe("Uses allowed.");

export const discountRow = z.strictObject({
  id: z.string(),
  code: z.string().describe("Stored uppercase."),
  type: z.enum(DISCOUNT_TYPES).describe("percent: value is percent off; fixed: value is øre off."),
  value: z.number().int().describe("1 to 100 for percent, øre for fixed."),
  validUntil: z.iso.datetime().nullable().describe("Expiry (UTC), or null for no expiry."),
  usageLimit: z.number().int().nullable().describe("Maximum number of uses, or null for unlimited."),
  usageCount: z.number().int().min(0).describe("Number of orders that used the code so far."),
  active: z.boolean().describe("Inactive codes cannot be applied."),
});
export type DiscountView = z.infer<typeof discountRow>;
