// E-mailed password links of staff users (/admin/password?token=…): an invitation to choose a first password (7 days)
// or a reset (1 hour). The token exists only in the e-mail, the row keeps its SHA-256; a new link voids the user's
// older ones, and a link is spent once by a conditional update, so two racing uses cannot both win.
import crypto from "node:crypto";
import { CommittedRefusal, RateLimited, Refused } from "../../core/errors.ts";
import { countAttempt } from "../../core/throttle.ts";
import type { AdminUser } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { getSection } from "../settings/settings-document.ts";
import { hashToken } from "./sessions.ts";
import { normalizeEmail, setPassword, staffSnapshot } from "./staff-users.ts";

export type LinkPurpose = "invite" | "reset";

export const LINK_TTL_MS: Record<LinkPurpose, number> = { invite: 7 * 24 * 3_600_000, reset: 3_600_000 };
/** Reset links asked for anonymously, per e-mail address and per client address, per hour. */
export const RESETS_PER_EMAIL_PER_HOUR = 5;
export const RESETS_PER_ADDRESS_PER_HOUR = 20;
const HOUR_MS = 3_600_000;
/** Spent and expired links are swept this long after they expire. */
const KEEP_EXPIRED_MS = 30 * 24 * 3_600_000;

class InvalidToken extends Refused {
  constructor() {
    super("invalid_token", "This link is not valid: it is unknown, used already or expired. Ask for a new one.");
  }
}

/** Makes a new link for the user (their older links stop working) and e-mails it after commit. */
export async function sendPasswordLink(ctx: ToolContext, user: AdminUser, purpose: LinkPurpose): Promise<void> {
  const now = ctx.now();
  await ctx.db.staffPasswordToken.deleteMany({ where: { OR: [{ staffId: user.id }, { expiresAt: { lt: new Date(now.getTime() - KEEP_EXPIRED_MS) } }] } });
  const token = crypto.randomBytes(32).toString("base64url");
  await ctx.db.staffPasswordToken.create({
    data: { staffId: user.id, tokenHash: hashToken(token), purpose, createdAt: now, expiresAt: new Date(now.getTime() + LINK_TTL_MS[purpose]) },
  });
  const url = `${ctx.config.publicBaseUrl}/admin/password?token=${token}`;
  // In the background: the answer of an anonymous reset request must not take longer when the e-mail has a user.
  ctx.afterCommit(() => ctx.collaborators.background.track(mailLink(ctx, user.email, purpose, url)));
}

async function mailLink(ctx: ToolContext, to: string, purpose: LinkPurpose, url: string): Promise<void> {
  const { shopName } = await getSection(ctx.collaborators.db, "branding");
  const invite = purpose === "invite";
  const subject = invite ? `Du er inviteret til administrationen af ${shopName}` : `Ny adgangskode til administrationen af ${shopName}`;
  const text = [
    "Hej",
    "",
    invite
      ? `Du er oprettet som medarbejder i ${shopName}s administration. Vælg din adgangskode her (linket virker i 7 dage og kun én gang):`
      : "Vi har fået en anmodning om en ny adgangskode til din bruger. Vælg en ny her (linket virker i 1 time og kun én gang):",
    "",
    url,
    "",
    invite ? "Derefter logger du ind med din e-mail og den nye adgangskode." : "Har du ikke bedt om det, kan du se bort fra denne e-mail; din adgangskode er uændret.",
    "",
  ].join("\n");
  const sent = await ctx.collaborators.mailer.send({ to, subject, text });
  await ctx.collaborators.db.emailMessage.create({ data: { to, subject, kind: `staff_${purpose}`, transport: sent.transport, messageId: sent.messageId } });
}

/** Counts one reset request per e-mail and per client address; past either limit, 429 (the counts stay). */
export async function throttleResetRequest(ctx: ToolContext, email: string): Promise<void> {
  const now = ctx.now();
  const byAddress = await countAttempt(ctx.db, `staff-reset-address:${ctx.caller.address ?? ctx.caller.actor}`, RESETS_PER_ADDRESS_PER_HOUR, HOUR_MS, now);
  const byEmail = await countAttempt(ctx.db, `staff-reset-email:${normalizeEmail(email)}`, RESETS_PER_EMAIL_PER_HOUR, HOUR_MS, now);
  if (!byAddress.allowed || !byEmail.allowed) {
    const retryAfter = Math.max(byAddress.retryAfterSeconds, byEmail.retryAfterSeconds);
    throw new CommittedRefusal(new RateLimited(retryAfter, "Too many password links were asked for"));
  }
}

/**
 * Sets the password a link's token allows, spends the token (once, also under a race), voids the user's other links
 * and ends their sessions; audited on the user. InvalidToken (422) for an unknown, used or expired token.
 */
export async function redeemPasswordLink(ctx: ToolContext, token: string, password: string): Promise<{ email: string }> {
  const now = ctx.now();
  const row = await ctx.db.staffPasswordToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { staff: true } });
  if (!row || row.usedAt || row.expiresAt <= now) throw new InvalidToken();
  const spent = await ctx.db.staffPasswordToken.updateMany({ where: { id: row.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (spent.count !== 1) throw new InvalidToken();
  const sessionsEnded = await setPassword(ctx.db, row.staffId, password, now);
  await ctx.db.staffPasswordToken.deleteMany({ where: { staffId: row.staffId, id: { not: row.id } } });
  const snapshot = staffSnapshot(row.staff);
  const note = `Password chosen with ${row.purpose === "invite" ? "an invitation" : "a reset"} link; ${sessionsEnded} session(s) ended.`;
  await ctx.audit({ subjectType: "adminUser", subjectId: row.staffId, before: snapshot, after: snapshot, note });
  return { email: row.staff.email };
}
