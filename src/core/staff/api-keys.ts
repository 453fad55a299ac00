// API keys managed by a signed-in staff user (/admin/api-keys): never beyond the user's own scopes, and each create
// or revoke leaves an audit entry with the staff user as actor (keys are not a tool, so this writes the entry itself).
import type { Prisma } from "../db.ts";
import { Forbidden, Invalid } from "../errors.ts";
import { createApiKey, revokeApiKey, validateScopes, type ApiKeyInfo } from "../api-keys.ts";
import { hasScope, isScope, WILDCARD } from "../../tools/scopes.ts";
import type { StaffUser } from "../../tools/staff/service.ts";

/** The `tool` column of the audit entries these write (no registry tool has these names). */
export const KEY_AUDIT = { create: "admin.api_keys.create", revoke: "admin.api_keys.revoke" } as const;

/** Whether a staff user holds a scope themselves, so they may hand it to a key ("*" only from "*"). */
export function mayGrant(staff: StaffUser, scope: string): boolean {
  const granted = new Set(staff.scopes);
  if (scope === WILDCARD) return granted.has(WILDCARD);
  return isScope(scope) && hasScope(granted, scope);
}

function snapshot(info: ApiKeyInfo) {
  return { id: info.id, name: info.name, prefix: info.prefix, scopes: info.scopes, createdAt: info.createdAt, revokedAt: info.revokedAt };
}

export async function createKeyAsStaff(prisma: Prisma, staff: StaffUser, name: string, scopes: string[]): Promise<{ key: string; info: ApiKeyInfo }> {
  if (name.trim().length > 100) throw new Invalid("A key's name may have at most 100 characters.", [{ path: "name", message: "At most 100 characters" }]);
  const wanted = validateScopes(scopes);
  const beyond = wanted.filter((scope) => !mayGrant(staff, scope));
  if (beyond.length) throw new Forbidden(`You cannot give a key scopes you do not have yourself: ${beyond.join(", ")}.`);
  return prisma.$transaction(async (tx) => {
    const created = await createApiKey(tx, name, wanted);
    await tx.auditEntry.create({
      data: { tool: KEY_AUDIT.create, actor: `staff:${staff.id}`, door: "admin", subjectType: "apiKey", subjectId: created.info.id, after: snapshot(created.info) },
    });
    return created;
  });
}

export async function revokeKeyAsStaff(prisma: Prisma, staff: StaffUser, id: string, now: Date): Promise<ApiKeyInfo> {
  return prisma.$transaction(async (tx) => {
    const before = await tx.apiKey.findUnique({ where: { id } });
    if (before && !before.scopes.every((scope) => mayGrant(staff, scope))) {
      throw new Forbidden("This key has scopes you do not have yourself; a staff user with them must revoke it.");
    }
    const wasActive = before !== null && before.revokedAt === null;
    const info = await revokeApiKey(tx, id, now);
    if (wasActive) {
      await tx.auditEntry.create({
        data: {
          tool: KEY_AUDIT.revoke,
          actor: `staff:${staff.id}`,
          door: "admin",
          subjectType: "apiKey",
          subjectId: id,
          before: snapshot({ ...info, revokedAt: null }),
          after: snapshot(info),
        },
      });
    }
    return info;
  });
}
