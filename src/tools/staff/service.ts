// Staff users of the admin web: e-mail, scrypt password hash and the scope list they act with ("*" by default).
import type { Db } from "../../core/db.ts";
import { Invalid } from "../../core/errors.ts";
import { validateScopes } from "../../core/api-keys.ts";
import { hashPassword, verifyNothing, verifyPassword } from "./passwords.ts";

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 200;

export interface StaffUser {
  id: string;
  email: string;
  scopes: string[];
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new Invalid(`The password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new Invalid(`The password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
}

function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized) || normalized.length > 254) throw new Invalid("That is not an e-mail address.");
  return normalized;
}

/**
 * Creates a staff user, or sets a new password (and scopes, when given) on an existing one; a changed password
 * signs the user out everywhere.
 */
export async function upsertStaff(
  db: Db,
  input: { email: string; password: string; scopes?: string[] | undefined },
  now: Date,
): Promise<StaffUser & { created: boolean }> {
  const email = checkEmail(input.email);
  checkNewPassword(input.password);
  const scopes = input.scopes ? validateScopes(input.scopes) : undefined;
  const passwordHash = await hashPassword(input.password);
  const existing = await db.adminUser.findUnique({ where: { email } });
  if (!existing) {
    const row = await db.adminUser.create({ data: { email, passwordHash, scopes: scopes ?? ["*"] } });
    return { id: row.id, email: row.email, scopes: row.scopes, created: true };
  }
  const row = await db.adminUser.update({ where: { id: existing.id }, data: { passwordHash, ...(scopes ? { scopes } : {}) } });
  await db.staffSession.updateMany({ where: { staffId: row.id, revokedAt: null }, data: { revokedAt: now } });
  return { id: row.id, email: row.email, scopes: row.scopes, created: false };
}

/** The staff user when e-mail and password match; the same work and the same null for an unknown e-mail. */
export async function checkCredentials(db: Db, email: string, password: string): Promise<StaffUser | null> {
  const row = await db.adminUser.findUnique({ where: { email: normalizeEmail(email) } });
  if (!row) return verifyNothing(password).then(() => null);
  if (!(await verifyPassword(password, row.passwordHash))) return null;
  return { id: row.id, email: row.email, scopes: row.scopes };
}

/** E-mail addresses of staff users by id (for showing "staff:<id>" actors as people). */
export async function staffEmails(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.adminUser.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, email: true } });
  return new Map(rows.map((row) => [row.id, row.email]));
}
