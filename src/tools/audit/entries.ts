// Audit-log reads and the rules deciding whether an entry can be reverted.
import type { Db } from "../../core/db.ts";
import { iso } from "../../core/json.ts";
import type { AuditEntry } from "../../generated/prisma/client.ts";
import { modelOf } from "./model.ts";

export interface Refusal {
  code: "already_reverted" | "not_revertible" | "changed_since";
  detail: string;
}

/** Why an entry cannot be reverted, judged from the entry alone (no later changes considered), or null. */
export function staticRefusal(db: Db, entry: AuditEntry): Refusal | null {
  if (entry.revertOfId) {
    return { code: "not_revertible", detail: `Entry ${entry.id} is itself a revert (of ${entry.revertOfId}); reverts are not reverted. Make the change again instead.` };
  }
  if (entry.revertedAt) return { code: "already_reverted", detail: `Entry ${entry.id} was already reverted at ${entry.revertedAt.toISOString()}.` };
  if (!entry.subjectType || !entry.subjectId || !modelOf(db, entry.subjectType)) {
    return { code: "not_revertible", detail: `Entry ${entry.id} (${entry.tool}) has no subject snapshot to restore.` };
  }
  // A sign-in or sign-out is a record, not a change to undo: reverting a sign-out would bring an ended session back.
  if (entry.subjectType === "staffSession") return { code: "not_revertible", detail: `Entry ${entry.id} records a staff session (${entry.tool}); sessions are not reverted.` };
  if (entry.before === null && entry.after === null) return { code: "not_revertible", detail: `Entry ${entry.id} has neither a before nor an after snapshot.` };
  if (entry.subjectType === "order" && (entry.before === null || entry.after === null)) {
    return { code: "not_revertible", detail: `Entry ${entry.id}: only status changes of existing orders can be reverted, not order creation or deletion.` };
  }
  if (entry.subjectType === "order" && statusOf(entry.before) === statusOf(entry.after)) {
    return { code: "not_revertible", detail: `Entry ${entry.id} did not change the order's status, and only an order's status can be reverted.` };
  }
  return null;
}

function statusOf(snapshot: unknown): unknown {
  return snapshot && typeof snapshot === "object" ? (snapshot as { status?: unknown }).status : undefined;
}

/** Later changes count when they are neither reverted nor reverts themselves (a reverted change left the state as before it). */
const LATER_FILTER = { revertedAt: null, revertOfId: null } as const;

function isLater(other: { id: string; createdAt: Date }, entry: { id: string; createdAt: Date }): boolean {
  const a = other.createdAt.getTime();
  const b = entry.createdAt.getTime();
  return a > b || (a === b && other.id > entry.id);
}

/** The first later, still-effective entry for the same subject, if any ("changed_since"). */
export async function laterChange(db: Db, entry: AuditEntry): Promise<{ id: string; tool: string } | null> {
  const later = await db.auditEntry.findMany({
    where: { ...LATER_FILTER, subjectType: entry.subjectType, subjectId: entry.subjectId, createdAt: { gte: entry.createdAt }, id: { not: entry.id } },
    select: { id: true, tool: true, createdAt: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return later.find((other) => isLater(other, entry)) ?? null;
}

/** Summaries with `revertible` worked out for a page of entries in one extra query. */
export async function summaries(db: Db, entries: AuditEntry[]) {
  const candidates = entries.filter((entry) => !staticRefusal(db, entry));
  const later = candidates.length
    ? await db.auditEntry.findMany({
        where: {
          ...LATER_FILTER,
          OR: candidates.map((entry) => ({ subjectType: entry.subjectType, subjectId: entry.subjectId, createdAt: { gte: entry.createdAt } })),
        },
        select: { id: true, subjectType: true, subjectId: true, createdAt: true },
      })
    : [];
  const open = new Set(
    candidates
      .filter((entry) => !later.some((other) => other.subjectType === entry.subjectType && other.subjectId === entry.subjectId && isLater(other, entry)))
      .map((entry) => entry.id),
  );
  return entries.map((entry) => summary(entry, open.has(entry.id)));
}

function summary(entry: AuditEntry, revertible: boolean) {
  return {
    id: entry.id,
    tool: entry.tool,
    actor: entry.actor,
    door: entry.door,
    agent: entry.agent,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    createdAt: entry.createdAt.toISOString(),
    revertedAt: iso(entry.revertedAt),
    revertOfId: entry.revertOfId,
    revertible,
  };
}
