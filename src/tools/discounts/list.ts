// discounts.list: discount codes with their usage, newest first, optionally only the usable ones.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { discountRow } from "./schemas.ts";
import { discountView } from "./service.ts";

export default defineTool({
  name: "discounts.list",
  description:
    "List discount codes, newest first: code, type (percent/fixed), value (percent or øre), expiry, usage limit and count, active flag. " +
    "Set onlyActive to get only codes that are active, not expired and not used up.",
  input: z.strictObject({
    onlyActive: z.boolean().optional().describe("Only codes that can be applied right now (active, not expired, usage left)."),
    limit: z.number().int().min(1).max(100).default(50).describe("Maximum number of codes, 1 to 100 (default 50)."),
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
