// audit.get: one audit entry with its before and after snapshots.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { auditDetail, entryId } from "./schemas.ts";
import { summaries } from "./entries.ts";

export default defineTool({
  name: "audit.get",
  description:
    "One audit entry with its before/after snapshots (JSON; null before a creation, after a deletion). Returns {id, " +
    "tool, actor, door, subject*, createdAt, revertible, before, after, …}.",
  input: z.strictObject({ id: entryId }),
  output: auditDetail,
  scope: "audit:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ id: "demo-audit-sommer200" }],
  async handler({ id }, ctx) {
    const entry = await ctx.db.auditEntry.findUnique({ where: { id } });
    if (!entry) throw new NotFound(`No audit entry "${id}".`);
    const [summary] = await summaries(ctx.db, [entry]);
    return {
      ...summary!,
      requestId: entry.requestId,
      revertedBy: entry.revertedBy,
      before: entry.before as Record<string, unknown> | null,
      after: entry.after as Record<string, unknown> | null,
    };
  },
});
