// analytics.channel_breakdown: orders and revenue per sales channel and AI agent source in a date range (SQL groupBy).
import { z } from "zod";
import { MAX_INT } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { rangeFields, rangeOutput, resolveRange, REVENUE_STATUSES, toInt } from "./revenue-rules.ts";

export default defineTool({
  name: "analytics.channel_breakdown",
  description:
    "Orders and revenue (as analytics.summary) per channel, AI agent (null: people) and isAiGenerated, largest first. " +
    "Returns {fromDate, toDate, channels}.",
  input: z.strictObject(rangeFields),
  output: z.strictObject({
    ...rangeOutput,
    channels: z.array(
      z.strictObject({
        channel: z.string(),
        aiAgentSource: z.string().nullable().describe("Name of the AI agent that placed the orders, or null."),
        isAiGenerated: z.boolean(),
        orderCount: z.number().int().min(0),
        revenueDkk: z.number().int().max(MAX_INT).describe("Revenue in øre."),
      }),
    ),
  }),
  scope: "analytics:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { fromDate: "2026-01-01", toDate: "2026-06-30" }],
  async handler(input, ctx) {
    const range = resolveRange(input, ctx.now());
    const groups = await ctx.db.order.groupBy({
      by: ["channel", "aiAgentSource", "isAiGenerated"],
      where: { createdAt: { gte: range.from, lt: range.to }, status: { in: [...REVENUE_STATUSES] } },
      _count: { _all: true },
      _sum: { totalDkk: true, refundedDkk: true },
    });
    const channels = groups
      .map((group) => ({
        channel: group.channel,
        aiAgentSource: group.aiAgentSource,
        isAiGenerated: group.isAiGenerated,
        orderCount: group._count._all,
        revenueDkk: toInt(group._sum.totalDkk) - toInt(group._sum.refundedDkk),
      }))
      .sort((a, b) => b.revenueDkk - a.revenueDkk || b.orderCount - a.orderCount || a.channel.localeCompare(b.channel) || (a.aiAgentSource ?? "").localeCompare(b.aiAgentSource ?? ""));
    return { fromDate: range.fromDate, toDate: range.toDate, channels };
  },
});
