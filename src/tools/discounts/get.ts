// discounts.get: one discount code with its usage.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { codeInput, discountRow } from "./schemas.ts";
import { discountView, findDiscount } from "./discount-rules.ts";

export default defineTool({
  name: "discounts.get",
  description: "One discount code. Returns {id, code, type, value, validUntil, usageLimit, usageCount, active}.",
  input: z.strictObject({ code: codeInput }),
  output: discountRow,
  scope: "discounts:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ code: "SOMMER200" }],
  async handler({ code }, ctx) {
    return discountView(await findDiscount(ctx.db, code));
  },
});
