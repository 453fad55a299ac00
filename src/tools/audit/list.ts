// audit.list: audit entries, newest first, filtered by tool, subject, actor and time; without the big snapshots.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { auditSummary } from "./schemas.ts";
import { summaries } from "./service.ts";

export default defineTool({
  name: "audit.list",
  description:
    "List audit-log entries (who changed what, through which tool and door), newest first. Filter by tool, subjectType and subjectId " +
    "(e.g. product + its id), actor, and a fromDate/toDate window. Each entry says whether audit.revert can undo it; use audit.get for the " +
    "before/after snapshots.",
  input: z.strictObject({
    tool: z.string().min(1).max(100).optional().describe("Only entries written by this tool, e.g. \"discounts.update\"."),
    subjectType: z.string().min(1).max(100).optional().describe("Only entries about this kind of subject: product, category, discount, page, setting, featureFlag, order …"),
    subjectId: z.string().min(1).max(200).optional().describe("Only entries about this subject id (section name for settings, key for feature flags)."),
    actor: z.string().min(1).max(200).optional().describe("Only entries by this actor, e.g. \"key:<id>\"."),
    agent: z.string().min(1).max(300).optional().describe("Only entries made by this AI agent, e.g. \"Claude Code/2.1.0\" (as listed)."),
    fromDate: z.iso.datetime().optional().describe("Only entries at or after this time (ISO 8601 UTC)."),
    toDate: z.iso.datetime().optional().describe("Only entries at or before this time (ISO 8601 UTC)."),
    limit: z.number().int().min(1).max(100).default(50).describe("Maximum number of entries, 1 to 100 (default 50)."),
  }),
  output: z.array(auditSummary),
  scope: "audit:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { subjectType: "discount", limit: 10 }],
  async handler(input, ctx) {
    const entries = await ctx.db.auditEntry.findMany({
      where: {
        tool: input.tool,
        subjectType: input.subjectType,
        subjectId: input.subjectId,
        actor: input.actor,
        agent: input.agent,
        createdAt: { gte: input.fromDate ? new Date(input.fromDate) : undefined, lte: input.toDate ? new Date(input.toDate) : undefined },
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: input.limit,
    });
    return summaries(ctx.db, entries);
  },
});
