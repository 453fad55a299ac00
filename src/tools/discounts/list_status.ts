// discounts.list_status: whether each of some codes can be applied right now, or why not.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { codeInput } from "./schemas.ts";
import { DISCOUNT_STATUSES, discountStatus, normalizeCode } from "./discount-rules.ts";

export default defineTool({
  name: "discounts.list_status",
  description:
    "Whether each code applies now (as discounts.try_apply and checkout judge), per distinct code in order. Returns " +
    "[{code, status}].",
  input: z.strictObject({
    codes: z.array(codeInput).min(1).max(100).describe("Any case."),
  }),
  output: z.array(
    z.strictObject({
      code: z.string().describe("The code, uppercase."),
      status: z.enum([...DISCOUNT_STATUSES, "unknown"]).describe("active: applies now; inactive: switched off; expired: past validUntil; used_up: usageLimit reached; unknown: no such code."),
    }),
  ),
  scope: "discounts:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ codes: ["VELKOMMEN10", "SOMMER200"] }],
  async handler({ codes }, ctx) {
    const wanted = [...new Set(codes.map(normalizeCode))];
    const rows = await ctx.db.discount.findMany({ where: { code: { in: wanted } } });
    const byCode = new Map(rows.map((row) => [row.code, row]));
    const now = ctx.now();
    return wanted.map((code) => {
      const row = byCode.get(code);
      return { code, status: row ? discountStatus(row, now) : ("unknown" as const) };
    });
  },
});
