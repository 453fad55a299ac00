// discounts.list: discount codes with their usage, newest first, optionally only the usable ones.
import { z } from "zod";
import { limit } from "../fields.ts";
import { defineTool, READ } from "../tool.ts";
import { discountRow } from "./schemas.ts";
import { discountView } from "./discount-rules.ts";

export default defineTool({
  name: "discounts.list",
  description: "Discount codes, newest first, as discounts.get.",
  input: z.strictObject({
    onlyActive: z.boolean().optional().describe("Only codes applicable now."),
    limit: limit(100, 50),
  }),
  output: z.array(discountRow),
  scope: "discounts:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { onlyActive: true, limit: 10 }],
  async handler({ onlyActive, limit }, ctx) {
    const now = ctx.now();
    const rows = await ctx.db.discount.findMany({
      where: onlyActive
        ? {
            active: true,
            AND: [
              { OR: [{ validUntil: null }, { validUntil: { gt: now } }] },
              { OR: [{ usageLimit: null }, { usageCount: { lt: ctx.db.discount.fields.usageLimit } }] },
            ],
          }
        : {},
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    });
    return rows.map(discountView);
  },
});
