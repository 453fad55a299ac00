// analytics.summary: revenue, orders, average order value, new customers and the AI-generated share for a date range.
import { z } from "zod";
import { MAX_INT } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { rangeFields, rangeOutput, resolveRange, REVENUE_RULE, REVENUE_STATUSES, toInt } from "./revenue-rules.ts";

const count = (what: string) => z.number().int().min(0).max(MAX_INT).describe(what);

export default defineTool({
  name: "analytics.summary",
  description:
    `Key figures over a range of days. ${REVENUE_RULE} Returns {fromDate, toDate, revenueDkk, orderCount, ` +
    "averageOrderValueDkk, newCustomers, aiGeneratedOrderCount, aiGeneratedRevenueDkk, aiGeneratedShare}.",
  input: z.strictObject(rangeFields),
  output: z.strictObject({
    ...rangeOutput,
    revenueDkk: count("Revenue in øre (totals minus refunds of the counted orders)."),
    orderCount: count("Orders counted as revenue."),
    averageOrderValueDkk: count("revenueDkk / orderCount rounded to whole øre; 0 without orders."),
    newCustomers: count("Customers created in the range."),
    aiGeneratedOrderCount: count("Counted orders placed by an AI agent."),
    aiGeneratedRevenueDkk: count("Revenue of those orders, øre."),
    aiGeneratedShare: z.number().min(0).max(1).describe("aiGeneratedRevenueDkk / revenueDkk, 0..1 (0 without revenue)."),
  }),
  scope: "analytics:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { fromDate: "2026-01-01", toDate: "2026-01-31" }],
  async handler(input, ctx) {
    const range = resolveRange(input, ctx.now());
    const orders = { createdAt: { gte: range.from, lt: range.to }, status: { in: [...REVENUE_STATUSES] } };
    const sums = { _sum: { totalDkk: true, refundedDkk: true }, _count: { _all: true } } as const;
    const [all, ai, newCustomers] = await Promise.all([
      ctx.db.order.aggregate({ where: orders, ...sums }),
      ctx.db.order.aggregate({ where: { ...orders, isAiGenerated: true }, ...sums }),
      ctx.db.customer.count({ where: { createdAt: { gte: range.from, lt: range.to } } }),
    ]);
    const revenueDkk = toInt(all._sum.totalDkk) - toInt(all._sum.refundedDkk);
    const aiGeneratedRevenueDkk = toInt(ai._sum.totalDkk) - toInt(ai._sum.refundedDkk);
    const orderCount = all._count._all;
    return {
      fromDate: range.fromDate,
      toDate: range.toDate,
      revenueDkk,
      orderCount,
      averageOrderValueDkk: orderCount ? Math.round(revenueDkk / orderCount) : 0,
      newCustomers,
      aiGeneratedOrderCount: ai._count._all,
      aiGeneratedRevenueDkk,
      aiGeneratedShare: revenueDkk > 0 ? aiGeneratedRevenueDkk / revenueDkk : 0,
    };
  },
});
