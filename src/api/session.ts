// Storefront sessions: a signed cookie (HMAC-SHA256) naming a StorefrontSession row, the resolver the Authenticator
// uses, and the session routes: POST /api/v1/session (start or resume), POST /api/v1/session/login (e-mail a one-time
// code) and POST /api/v1/session/verify (bind the session to that customer).
import crypto from "node:crypto";
import express, { type Request, type Response, type Router } from "express";
import { z } from "zod";
import type { Database, Prisma } from "../core/db.ts";
import { Invalid, ToolError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import { illFormed } from "../core/wellformed.ts";
import type { Mailer } from "../core/mail.ts";
import { fieldErrors } from "../tools/executor.ts";
import type { SessionRef } from "../tools/context.ts";
import { readCookie } from "./cookies.ts";
import { admit, requestId, sendProblem, type Gate } from "./http.ts";

export const SESSION_COOKIE = "shop_session";
const COOKIE_MAX_AGE_S = 365 * 24 * 3600;
const TOUCH_EVERY_MS = 5 * 60_000;
export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_MAX_ATTEMPTS = 5;
const SECRET_SECTION = "session_secret";

/**
 * The secret that signs session cookies and payment links: SESSION_SECRET, else one generated on first start and
 * kept in the Setting row "session_secret" (insert-if-absent, so every process and restart agrees on it).
 */
export async function sessionSecret(prisma: Prisma, configured: string): Promise<string> {
  if (configured) return configured;
  const fresh = crypto.randomBytes(32).toString("base64url");
  await prisma.setting.createMany({ data: [{ section: SECRET_SECTION, value: { secret: fresh } }], skipDuplicates: true });
  const row = await prisma.setting.findUniqueOrThrow({ where: { section: SECRET_SECTION } });
  const secret = (row.value as { secret?: unknown }).secret;
  if (typeof secret !== "string" || secret.length < 16) throw new Error(`The Setting row "${SECRET_SECTION}" holds no usable secret.`);
  return secret;
}

class Refusal extends ToolError {
  constructor(code: string, detail: string) {
    super(422, code, "Refused by a shop rule", detail);
  }
}

export class SessionManager {
  private readonly pending = new Set<Promise<unknown>>();

  private readonly database: Pick<Database, "prisma" | "query">;
  private readonly secret: string;
  private readonly secure: boolean;
  private readonly log: Logger;

  constructor(database: Pick<Database, "prisma" | "query">, secret: string, secure: boolean, log: Logger) {
    this.database = database;
    this.secret = secret;
    this.secure = secure;
    this.log = log;
  }

  private mac(value: string): string {
    return crypto.createHmac("sha256", this.secret).update(value).digest("base64url");
  }

  /** Cookie value `<id>.<hmac>`. */
  sign(id: string): string {
    return `${id}.${this.mac(`session:${id}`)}`;
  }

  /** The session id of a signed value, or null when it was tampered with. */
  verify(value: string): string | null {
    const dot = value.lastIndexOf(".");
    if (dot <= 0) return null;
    const id = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(this.mac(`session:${id}`));
    return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? id : null;
  }

  /** The Set-Cookie value for a session. */
  cookie(id: string): string {
    return `${SESSION_COOKIE}=${this.sign(id)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${COOKIE_MAX_AGE_S}${this.secure ? "; Secure" : ""}`;
  }

  /**
   * The session id the request's cookie proves (valid signature), without reading the database: enough to bind a
   * CSRF token or decide whether to start a session; whether the row still exists is `resolve`'s question.
   */
  idOf(req: Request): string | undefined {
    return this.idOfCookie(req.headers.cookie);
  }

  private idOfCookie(cookieHeader: string | undefined): string | undefined {
    const raw = readCookie(cookieHeader, SESSION_COOKIE);
    return (raw && this.verify(raw)) || undefined;
  }

  /** The request's session (valid signature, row still there), else undefined: the Authenticator's resolver. */
  resolve(req: Request): Promise<SessionRef | undefined> {
    return this.resolveCookie(req.headers.cookie);
  }

  /** The session of a Cookie header (the socket.io handshake has no express Request). */
  async resolveCookie(cookieHeader: string | undefined): Promise<SessionRef | undefined> {
    const id = this.idOfCookie(cookieHeader);
    if (!id) return undefined;
    // Plain SQL: every storefront request and chat turn asks this, and Prisma costs more than the lookup itself.
    // lastSeenAt is UTC without a time zone, as Prisma writes it; the database compares it with its own clock.
    const [row] = await this.database.query<{ customerId: string | null; stale: boolean }>(
      `SELECT "customerId", "lastSeenAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $2) AS stale FROM "StorefrontSession" WHERE id = $1`,
      [id, TOUCH_EVERY_MS / 1000],
    );
    if (!row) return undefined;
    if (row.stale) this.track(this.database.prisma.storefrontSession.updateMany({ where: { id }, data: { lastSeenAt: new Date() } }));
    return { id, customerId: row.customerId, persistent: true };
  }

  /** The request's session, or a new one with its cookie set on the response. */
  async ensure(req: Request, res: Response): Promise<{ session: SessionRef; created: boolean }> {
    const existing = await this.resolve(req);
    if (existing) return { session: existing, created: false };
    const row = await this.database.prisma.storefrontSession.create({ data: {} });
    res.append("Set-Cookie", this.cookie(row.id));
    return { session: { id: row.id, customerId: null, persistent: true }, created: true };
  }

  /** Unbinds the session from its customer (signing out keeps the cart). */
  async signOut(id: string): Promise<void> {
    await this.database.prisma.storefrontSession.updateMany({ where: { id }, data: { customerId: null } });
  }

  codeHash(sessionId: string, email: string, code: string): string {
    return this.mac(`login:${sessionId}:${email}:${code}`);
  }

  /** Background work (last-seen touches, login mails); tests await it. */
  track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.log.error("session background work failed", { error: String(error) })).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  async idle(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

const loginBody = z.strictObject({ email: z.email().max(254).describe("The customer's e-mail address.") });
const verifyBody = z.strictObject({
  email: z.email().max(254).describe("The e-mail the code was sent to."),
  code: z.string().regex(/^\d{6}$/, "The code is 6 digits").describe("The 6-digit code from the e-mail."),
});

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const hostile = illFormed(body);
  if (hostile.length) throw new Invalid("The request body holds values no route accepts.", hostile);
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new Invalid("The request body does not match the schema.", fieldErrors(parsed.error));
  return parsed.data;
}

async function sessionView(prisma: Prisma, session: SessionRef, created: boolean) {
  const customer = session.customerId ? await prisma.customer.findUnique({ where: { id: session.customerId } }) : null;
  return { sessionId: session.id, created, customer: customer ? { id: customer.id, email: customer.email, name: customer.name } : null };
}

async function sendLoginCode(prisma: Prisma, mailer: Mailer, to: string, code: string): Promise<void> {
  const subject = `Din login-kode: ${code}`;
  const text = `Hej\n\nDin engangskode er ${code}. Den gælder i 10 minutter.\n\nHar du ikke bedt om koden, kan du se bort fra denne e-mail.\n`;
  const sent = await mailer.send({ to, subject, text });
  await prisma.emailMessage.create({ data: { to, subject, kind: "login_code", transport: sent.transport, messageId: sent.messageId } });
}

/**
 * Stores a login code for this session and e-mails it when a customer has the address (the answer is the same
 * either way, so it reveals nobody). Shared by POST /api/v1/session/login and the storefront's account page.
 */
export async function requestLoginCode(sessions: SessionManager, prisma: Prisma, mailer: Mailer, session: SessionRef, address: string) {
  const email = address.toLowerCase();
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
  const expiresAt = new Date(Date.now() + LOGIN_CODE_TTL_MS);
  await prisma.loginCode.create({ data: { sessionId: session.id, email, codeHash: sessions.codeHash(session.id, email, code), expiresAt } });
  const customer = await prisma.customer.findUnique({ where: { email } });
  if (customer) sessions.track(sendLoginCode(prisma, mailer, email, code));
  return { email, expiresAt: expiresAt.toISOString() };
}

/**
 * Checks a code (at most LOGIN_CODE_MAX_ATTEMPTS tries, constant-time) and binds the session to the customer;
 * returns the customer id, or refuses with 422 invalid_code / too_many_attempts.
 */
export async function verifyLoginCode(sessions: SessionManager, prisma: Prisma, session: SessionRef, address: string, code: string): Promise<string> {
  const email = address.toLowerCase();
  const row = await prisma.loginCode.findFirst({
    where: { sessionId: session.id, email, usedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
  });
  if (!row) throw new Refusal("invalid_code", "There is no valid code for this e-mail in this session (expired or never requested).");
  const counted = await prisma.loginCode.updateMany({ where: { id: row.id, attempts: { lt: LOGIN_CODE_MAX_ATTEMPTS } }, data: { attempts: { increment: 1 } } });
  if (counted.count === 0) throw new Refusal("too_many_attempts", "Too many wrong attempts; request a new code.");
  const expected = Buffer.from(row.codeHash);
  const given = Buffer.from(sessions.codeHash(session.id, email, code));
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) throw new Refusal("invalid_code", "The code is wrong.");
  const customer = await prisma.customer.findUnique({ where: { email } });
  const used = await prisma.loginCode.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (!customer || used.count === 0) throw new Refusal("invalid_code", "The code is not valid.");
  await prisma.storefrontSession.update({ where: { id: session.id }, data: { customerId: customer.id } });
  return customer.id;
}

/** The session routes; `gate` rate-limits them like anonymous tool calls. */
export function sessionRouter(sessions: SessionManager, prisma: Prisma, mailer: Mailer, gate: Gate): Router {
  const router = express.Router();
  const json = express.json({ limit: "16kb", strict: false, type: () => true });
  const route = (handler: (req: Request, res: Response) => Promise<{ status: number; result: unknown }>) => async (req: Request, res: Response) => {
    const id = requestId(req);
    try {
      await admit(gate, req, res);
      const { status, result } = await handler(req, res);
      res.status(status).type("json").send(JSON.stringify({ ok: true, result }));
    } catch (error) {
      sendProblem(res, error, id, gate.log);
    }
  };

  /** Starts a session (sets the cookie) or returns the current one. */
  router.post("/api/v1/session", route(async (req, res) => {
    const { session, created } = await sessions.ensure(req, res);
    return { status: created ? 201 : 200, result: await sessionView(prisma, session, created) };
  }));

  /** E-mails a 6-digit code (10 minutes, 5 attempts) when a customer has this e-mail; answers 202 either way. */
  router.post("/api/v1/session/login", json, route(async (req, res) => {
    const email = parse(loginBody, req.body).email;
    const { session } = await sessions.ensure(req, res);
    const sent = await requestLoginCode(sessions, prisma, mailer, session, email);
    return { status: 202, result: { ...sent, detail: "If a customer has this e-mail, a 6-digit code is on its way." } };
  }));

  /** Checks the code and binds the session to the customer. */
  router.post("/api/v1/session/verify", json, route(async (req) => {
    const body = parse(verifyBody, req.body);
    const session = await sessions.resolve(req);
    if (!session) throw new Refusal("invalid_code", "No storefront session: request the code with POST /api/v1/session/login in the same session.");
    const customerId = await verifyLoginCode(sessions, prisma, session, body.email, body.code);
    return { status: 200, result: await sessionView(prisma, { ...session, customerId }, false) };
  }));

  return router;
}
