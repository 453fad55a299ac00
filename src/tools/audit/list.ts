// audit.list: audit entries, newest first, filtered by tool, subject, actor and time; without the big snapshots.
import { z } from "zod";
import { limit } from "../fields.ts";
import { defineTool, READ } from "../tool.ts";
import { auditSummary } from "./schemas.ts";
import { summaries } from "./entries.ts";

export default defineTool({
  name: "audit.list",
  description:
    "Audit log (who changed what, by which tool and door), newest first. Returns [{id, tool, actor, door, agent, " +
    "subject*, createdAt, revertedAt, revertible}].",
  input: z.strictObject({
    tool: z.string().min(1).max(100).optional().describe("E.g. \"discounts.update\"."),
    subjectType: z.string().min(1).max(100).optional().describe("E.g. product."),
    subjectId: z.string().min(1).max(200).optional().describe("Subject id (settings: section; flags: key)."),
    actor: z.string().min(1).max(200).optional().describe("E.g. \"key:<id>\"."),
    agent: z.string().min(1).max(300).optional().describe("AI agent, as listed."),
    fromDate: z.iso.datetime().optional().describe("From this time."),
    toDate: z.iso.datetime().optional().describe("Up to this time."),
    limit: limit(100, 50),
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
