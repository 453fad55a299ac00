// First run: while no staff user can sign in, a one-time link (/admin/setup?token=…) creates the first one from the
// browser. (An invited user who has not chosen a password yet cannot sign in, so they do not count.)
import crypto from "node:crypto";
import type { Db, Prisma } from "../../core/db.ts";
import { Refused } from "../../core/errors.ts";
import { hashToken } from "./sessions.ts";
import type { AdminUser } from "../../generated/prisma/client.ts";
import { createStaff } from "./staff-users.ts";

/** How long a printed setup link stays valid. */
export const SETUP_TTL_MS = 60 * 60_000;
/** Serialises redemptions, so two links used at the same moment cannot both create a "first" user. */
const SETUP_LOCK = 720_011;

export class SetupLinkInvalid extends Refused {
  constructor() {
    super("setup_link_invalid", "This setup link is not valid: it was used already, it has expired, or the shop already has a staff user.");
  }
}

/** Whether some staff user has a password, and so can sign in. */
async function hasStaff(db: Db): Promise<boolean> {
  return (await db.adminUser.count({ where: { passwordHash: { not: null } } })) > 0;
}

/** A fresh setup token when no staff user can sign in yet, else null. */
export async function issueSetupToken(prisma: Prisma, now: Date): Promise<string | null> {
  if (await hasStaff(prisma)) return null;
  const token = crypto.randomBytes(24).toString("base64url");
  await prisma.staffSetupToken.create({ data: { tokenHash: hashToken(token), createdAt: now, expiresAt: new Date(now.getTime() + SETUP_TTL_MS) } });
  return token;
}

/** Whether the token may still create the first staff user (shown before the form is filled in). */
export async function setupTokenUsable(prisma: Prisma, token: string, now: Date): Promise<boolean> {
  if (!token || token.length > 100) return false;
  const row = await prisma.staffSetupToken.findUnique({ where: { tokenHash: hashToken(token) } });
  return Boolean(row && !row.usedAt && row.expiresAt > now && !(await hasStaff(prisma)));
}

/**
 * Spends the token and creates the first staff user (scope "*"), in the caller's transaction (staff.redeem_setup's):
 * all or nothing.
 */
export async function redeemSetupToken(tx: Db, token: string, input: { email: string; password: string }, now: Date): Promise<AdminUser> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`);
  if (await hasStaff(tx)) throw new SetupLinkInvalid();
  const spent = await tx.staffSetupToken.updateMany({
    where: { tokenHash: hashToken(token), usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (spent.count !== 1) throw new SetupLinkInvalid();
  return createStaff(tx, { ...input, scopes: ["*"] });
}
