// Staff users of the admin web: e-mail, scrypt password hash (none yet for an invited user) and the scope list they act
// with. Created, narrowed, given a new password and deleted by the staff.* tools (and the first-run setup link); a new
// password or a deletion ends the user's sessions, new scopes apply from their next request.
import crypto from "node:crypto";
import type { Db } from "../../core/db.ts";
import { Conflict, Invalid, NotFound, Refused } from "../../core/errors.ts";
import type { AdminUser } from "../../generated/prisma/client.ts";
import { WILDCARD, type Grant } from "../scopes.ts";
import { hashPassword, verifyNothing, verifyPassword } from "./passwords.ts";
import { EMAIL_PATTERN, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, type StaffView } from "./schemas.ts";

export interface StaffUser {
  id: string;
  email: string;
  scopes: string[];
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!EMAIL_PATTERN.test(normalized) || normalized.length > 254) throw new Invalid("That is not an e-mail address.");
  return normalized;
}

function checkNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new Invalid(`The password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new Invalid(`The password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
}

/** A strong random password (144 bits) for a user created or reset without one; shown once. */
export function generatePassword(): string {
  return crypto.randomBytes(18).toString("base64url");
}

/**
 * Creates a staff user; 409 when the e-mail address has one already. Without a password (an invitation) the user
 * cannot sign in until they choose one through an e-mailed link.
 */
export async function createStaff(db: Db, input: { email: string; password: string | null; scopes: readonly Grant[] }): Promise<AdminUser> {
  const email = checkEmail(input.email);
  if (input.password !== null) checkNewPassword(input.password);
  if (await db.adminUser.findUnique({ where: { email }, select: { id: true } })) {
    throw new Conflict(`There is a staff user with the e-mail address ${email} already; staff.reset_password gives it a new password.`);
  }
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  return db.adminUser.create({ data: { email, passwordHash, scopes: [...new Set(input.scopes)] } });
}

export async function findStaff(db: Db, email: string): Promise<AdminUser> {
  const row = await db.adminUser.findUnique({ where: { email: normalizeEmail(email) } });
  if (!row) throw new NotFound(`There is no staff user with the e-mail address ${normalizeEmail(email)}; staff.list lists them.`);
  return row;
}

export async function listStaff(db: Db): Promise<StaffView[]> {
  const rows = await db.adminUser.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(describeStaff);
}

/** Sets a new password and signs the user out everywhere; the number of sessions that ended. */
export async function setPassword(db: Db, id: string, password: string, now: Date): Promise<number> {
  checkNewPassword(password);
  await db.adminUser.update({ where: { id }, data: { passwordHash: await hashPassword(password) } });
  const ended = await db.staffSession.updateMany({ where: { staffId: id, revokedAt: null, expiresAt: { gt: now } }, data: { revokedAt: now } });
  return ended.count;
}

/**
 * Refuses (422) a change that would leave the shop without a staff user holding "*": someone must be able to grant
 * every scope (the CLI can always make one again).
 */
export async function keepAnOwner(db: Db, user: AdminUser, scopesAfter: readonly string[] | null): Promise<void> {
  if (!user.scopes.includes(WILDCARD) || scopesAfter?.includes(WILDCARD)) return;
  const others = await db.adminUser.count({ where: { id: { not: user.id }, scopes: { has: WILDCARD } } });
  if (others === 0) throw new Refused("last_owner", `${user.email} is the only staff user with every scope ("*"); give another user "*" first.`);
}

/** The staff user as tools show it: never the password hash. */
export function describeStaff(row: AdminUser): StaffView {
  return { id: row.id, email: row.email, scopes: row.scopes, createdAt: row.createdAt.toISOString(), lastLoginAt: row.lastLoginAt?.toISOString() ?? null };
}

/** The audit snapshot of a staff user: who it is and what it may do, not when it last signed in. */
export function staffSnapshot(row: AdminUser) {
  return { id: row.id, email: row.email, scopes: row.scopes, createdAt: row.createdAt.toISOString() };
}

/**
 * The staff user when e-mail and password match; the same work and the same null for an unknown e-mail and for an
 * invited user who has no password yet.
 */
export async function checkCredentials(db: Db, email: string, password: string): Promise<StaffUser | null> {
  const row = await db.adminUser.findUnique({ where: { email: normalizeEmail(email) } });
  if (!row?.passwordHash) return verifyNothing(password).then(() => null);
  if (!(await verifyPassword(password, row.passwordHash))) return null;
  return { id: row.id, email: row.email, scopes: row.scopes };
}

/** E-mail addresses of staff users by id (for showing "staff:<id>" actors as people). */
export async function staffEmails(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.adminUser.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, email: true } });
  return new Map(rows.map((row) => [row.id, row.email]));
}
