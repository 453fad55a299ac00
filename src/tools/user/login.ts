// Sign-in of a storefront session by a code e-mailed to the customer: the codes, their limits, the e-mail, and the
// new session id a sign-in moves the session to (so an id known before sign-in is worthless after it).
import crypto from "node:crypto";
import { CommittedRefusal, RateLimited, Refused } from "../../core/errors.ts";
import { countAttempt, forgetAttempts } from "../../core/throttle.ts";
import type { SessionRef, ToolContext } from "../context.ts";

const LOGIN_CODE_TTL_MS = 10 * 60_000;
/** Wrong tries one code takes before it is locked. */
const LOGIN_CODE_MAX_ATTEMPTS = 5;
/** Per e-mail address, whatever the sessions and client addresses: codes e-mailed, and guesses checked, per hour. */
export const LOGIN_CODES_PER_EMAIL_PER_HOUR = 10;
export const LOGIN_GUESSES_PER_EMAIL_PER_HOUR = 20;
const HOUR_MS = 3_600_000;

/** The caller's own storefront session (cookie); 422 no_session for API-key and anonymous callers. */
export function ownSession(ctx: ToolContext): SessionRef {
  const session = ctx.caller.session;
  if (!session?.persistent) {
    throw new Refused("no_session", "Signing in binds a storefront session: start one with POST /api/v1/session and send its cookie.");
  }
  return session;
}

function codeHash(ctx: ToolContext, sessionId: string, email: string, code: string): string {
  return ctx.collaborators.sign(`login:${sessionId}:${email}:${code}`);
}

/** Counts an attempt against a bucket; past its limit, 429 (the count stays). */
async function spend(ctx: ToolContext, bucket: string, limit: number, windowMs: number, reason: string): Promise<void> {
  const verdict = await countAttempt(ctx.db, bucket, limit, windowMs, ctx.now());
  if (!verdict.allowed) throw new CommittedRefusal(new RateLimited(verdict.retryAfterSeconds, reason));
}

/**
 * Stores a code for this session and e-mails it when a customer has the address (and, with an order number, when that
 * order was placed with it); the answer and its timing are the same either way (the e-mail leaves in the background),
 * so it reveals nobody and no order.
 */
export async function requestCode(ctx: ToolContext, address: string, orderNumber?: number): Promise<{ email: string; expiresAt: string }> {
  const session = ownSession(ctx);
  const email = address.toLowerCase();
  await spend(ctx, `login-mail:${email}`, LOGIN_CODES_PER_EMAIL_PER_HOUR, HOUR_MS, "Too many codes were requested for this e-mail");
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
  const expiresAt = new Date(ctx.now().getTime() + LOGIN_CODE_TTL_MS);
  await ctx.db.loginCode.create({ data: { sessionId: session.id, email, codeHash: codeHash(ctx, session.id, email, code), expiresAt } });
  const customer = await ctx.db.customer.findUnique({ where: { email }, select: { id: true } });
  // Found by its number, the order must have been placed with this address (a guest proving the order is theirs).
  const order = orderNumber === undefined ? null : await ctx.db.order.findFirst({ where: { number: orderNumber, email }, select: { id: true } });
  if (customer && (orderNumber === undefined || order)) ctx.afterCommit(() => ctx.collaborators.background.track(mailCode(ctx, email, code)));
  return { email, expiresAt: expiresAt.toISOString() };
}

async function mailCode(ctx: ToolContext, to: string, code: string): Promise<void> {
  const subject = `Din login-kode: ${code}`;
  const text = `Hej\n\nDin engangskode er ${code}. Den gælder i 10 minutter.\n\nHar du ikke bedt om koden, kan du se bort fra denne e-mail.\n`;
  const sent = await ctx.collaborators.mailer.send({ to, subject, text });
  await ctx.collaborators.db.emailMessage.create({ data: { to, subject, kind: "login_code", transport: sent.transport, messageId: sent.messageId } });
}

/**
 * Checks a code (constant-time; every guess counted per code and per e-mail before it is checked) and signs the
 * session in under a new id: the cart, chats and codes move along, the old id stops existing. Returns the new id and
 * the customer, or refuses with 422 invalid_code / too_many_attempts, 429 past the e-mail's hourly guesses.
 */
export async function verifyCode(ctx: ToolContext, address: string, code: string) {
  const session = ownSession(ctx);
  const email = address.toLowerCase();
  await spend(ctx, `login-guess:${email}`, LOGIN_GUESSES_PER_EMAIL_PER_HOUR, HOUR_MS, "Too many codes were tried for this e-mail");
  const row = await ctx.db.loginCode.findFirst({
    where: { sessionId: session.id, email, usedAt: null, expiresAt: { gt: ctx.now() } },
    orderBy: { createdAt: "desc" },
  });
  // Every refusal below keeps the guess counted.
  if (!row) throw new CommittedRefusal(new Refused("invalid_code", "There is no valid code for this e-mail in this session (expired or never requested)."));
  const tries = await countAttempt(ctx.db, `login-code:${row.id}`, LOGIN_CODE_MAX_ATTEMPTS, LOGIN_CODE_TTL_MS, ctx.now());
  if (!tries.allowed) throw new CommittedRefusal(new Refused("too_many_attempts", "Too many wrong attempts; request a new code."));
  const expected = Buffer.from(row.codeHash);
  const given = Buffer.from(codeHash(ctx, session.id, email, code));
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) throw new CommittedRefusal(new Refused("invalid_code", "The code is wrong."));
  const customer = await ctx.db.customer.findUnique({ where: { email }, select: { id: true, email: true, name: true } });
  const used = await ctx.db.loginCode.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: ctx.now() } });
  if (!customer || used.count === 0) throw new CommittedRefusal(new Refused("invalid_code", "The code is not valid."));
  const sessionId = crypto.randomBytes(18).toString("base64url");
  // The foreign keys of cart, chats and codes follow the id (ON UPDATE CASCADE).
  await ctx.db.storefrontSession.update({ where: { id: session.id }, data: { id: sessionId, customerId: customer.id, lastSeenAt: ctx.now() } });
  ctx.replaceSession(sessionId);
  await forgetAttempts(ctx.db, `login-guess:${email}`);
  return { sessionId, customer };
}
