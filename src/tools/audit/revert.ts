// audit.revert: undo one audited change by restoring its before-state, in one transaction with its own audit entry.
import { z } from "zod";
import { NotFound, Refused } from "../../core/errors.ts";
import { DESTRUCTIVE, defineTool } from "../tool.ts";
import { lockRow, modelOf } from "./model.ts";
import { restore } from "./restore.ts";
import { entryId } from "./schemas.ts";
import { laterChange, staticRefusal } from "./entries.ts";

export default defineTool({
  name: "audit.revert",
  description:
    "Undo an audited change: a creation is deleted, a deletion recreated, a change reversed. Returns {ok, entryId, " +
    "revertEntryId, subjectType, subjectId, action}.",
  errors: [
    { status: 422, code: "already_reverted" },
    { status: 422, code: "not_revertible", when: "generic entries, reverts, order changes other than status" },
    { status: 422, code: "changed_since", when: "changed again later: revert the later entry first" },
    { status: 422, code: "illegal_transition" },
    { status: 422, code: "has_dependents" },
    { status: 422, code: "missing_reference" },
    { status: 409, when: "the slug or code is taken again" },
  ],
  input: z.strictObject({ id: entryId }),
  output: z.strictObject({
    ok: z.literal(true),
    entryId: z.string().describe("The reverted entry."),
    revertEntryId: z.string().describe("The audit entry recording this revert."),
    subjectType: z.string(),
    subjectId: z.string(),
    action: z.enum(["deleted", "recreated", "restored"]).describe("deleted: the created subject was removed; recreated: the deleted one is back; restored: changed fields were put back."),
  }),
  scope: "audit:revert",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ id: "demo-audit-sommer200" }],
  async handler({ id }, ctx) {
    const entry = await ctx.db.auditEntry.findUnique({ where: { id } });
    if (!entry) throw new NotFound(`No audit entry "${id}".`);
    const refusal = staticRefusal(ctx.db, entry);
    if (refusal) throw new Refused(refusal.code, refusal.detail);
    const subjectType = entry.subjectType!;
    const subjectId = entry.subjectId!;
    const model = modelOf(ctx.db, subjectType)!;
    await lockRow(ctx.db, model, subjectId);
    const later = await laterChange(ctx.db, entry);
    if (later) {
      throw new Refused("changed_since", `${entry.subjectType} ${entry.subjectId} was changed later by ${later.tool} (entry ${later.id}); revert that entry first.`);
    }
    const claimed = await ctx.db.auditEntry.updateMany({ where: { id, revertedAt: null }, data: { revertedAt: ctx.now(), revertedBy: ctx.caller.actor } });
    if (claimed.count === 0) throw new Refused("already_reverted", `Entry ${id} was already reverted.`);
    const restored = await restore(ctx, entry, model);
    if (subjectType === "product") await ctx.collaborators.catalog.changed(ctx, { productIds: [subjectId] });
    if (subjectType === "category") await ctx.collaborators.catalog.changed(ctx, { categories: true });
    if (subjectType === "featureFlag") ctx.collaborators.flags.changed(ctx);
    const revertEntryId = await ctx.audit({ subjectType, subjectId, before: restored.before, after: restored.after, revertOfId: id });
    return { ok: true as const, entryId: id, revertEntryId, subjectType, subjectId, action: restored.action };
  },
});
