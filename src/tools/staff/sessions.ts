// Staff sessions: a random token in the `shop_admin` cookie, its SHA-256 in a row with idle and absolute expiry,
// revocable (sign-out, password change) because the server checks the row on every request.
import crypto from "node:crypto";
import type { Db } from "../../core/db.ts";
import type { StaffSession } from "../../generated/prisma/client.ts";
import type { StaffUser } from "./staff-users.ts";

/** Signed out after this long without a request. */
export const IDLE_MS = 60 * 60_000;
/** Signed out this long after signing in, however active. */
export const ABSOLUTE_MS = 12 * 60 * 60_000;
/** lastSeenAt is written at most this often (the idle limit is exact to within it). */
const TOUCH_EVERY_MS = 60_000;
/** Expired rows older than this are swept at sign-in. */
const KEEP_EXPIRED_MS = 30 * 24 * 60 * 60_000;

export interface StaffSessionRef {
  id: string;
  staff: StaffUser;
}

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** A new session for the staff user; the token (for the cookie) exists only in the answer. */
export async function openSession(db: Db, staffId: string, now: Date, client: { address?: string | undefined; userAgent?: string | undefined }): Promise<{ token: string; session: StaffSession }> {
  await db.staffSession.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - KEEP_EXPIRED_MS) } } });
  const token = crypto.randomBytes(32).toString("base64url");
  const session = await db.staffSession.create({
    data: {
      tokenHash: hashToken(token),
      staffId,
      address: client.address?.slice(0, 100) ?? null,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ABSOLUTE_MS),
    },
  });
  await db.adminUser.update({ where: { id: staffId }, data: { lastLoginAt: now } });
  return { token, session };
}

/** The live session of a cookie token (not revoked, not idle, not past its absolute expiry), with its staff user. */
export async function findSession(db: Db, token: string, now: Date): Promise<StaffSessionRef | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = await db.staffSession.findUnique({ where: { tokenHash: hashToken(token) }, include: { staff: true } });
  if (!row || row.revokedAt) return null;
  const at = now.getTime();
  if (at >= row.expiresAt.getTime() || at - row.lastSeenAt.getTime() >= IDLE_MS) return null;
  if (at - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.staffSession.updateMany({ where: { id: row.id, revokedAt: null }, data: { lastSeenAt: now } });
  }
  return { id: row.id, staff: { id: row.staff.id, email: row.staff.email, scopes: row.staff.scopes } };
}

export async function closeSession(db: Db, id: string, now: Date): Promise<void> {
  await db.staffSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
}

/** A session row as the audit log keeps it: never the token's hash, which would let a reader of the log present it. */
export function sessionSnapshot(row: StaffSession) {
  const { tokenHash: _tokenHash, ...rest } = row;
  return rest;
}
