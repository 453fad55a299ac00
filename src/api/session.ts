// Storefront sessions: a signed cookie (HMAC-SHA256) naming a StorefrontSession row, the resolver the Authenticator
// uses, and the session routes: POST /api/v1/session (start or resume), POST /api/v1/session/login (e-mail a one-time
// code) and POST /api/v1/session/verify (sign in: the session moves to a new id and cookie).
import crypto from "node:crypto";
import express, { type Request, type Response, type Router } from "express";
import { z } from "zod";
import type { Background } from "../core/background.ts";
import type { Database, Prisma } from "../core/db.ts";
import { Invalid, Refused } from "../core/errors.ts";
import { illFormed } from "../core/wellformed.ts";
import { fieldErrors, type Executor } from "../tools/executor.ts";
import type { SessionRef } from "../tools/context.ts";
import { sessionCaller } from "./auth.ts";
import { readCookie } from "./cookies.ts";
import { admit, requestId, sendProblem, type Gate } from "./http.ts";

export const SESSION_COOKIE = "shop_session";
const COOKIE_MAX_AGE_S = 365 * 24 * 3600;
const TOUCH_EVERY_MS = 5 * 60_000;
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

export class SessionManager {
  private readonly database: Pick<Database, "prisma" | "query">;
  private readonly secret: string;
  private readonly secure: boolean;
  private readonly background: Background;

  constructor(database: Pick<Database, "prisma" | "query">, secret: string, secure: boolean, background: Background) {
    this.database = database;
    this.secret = secret;
    this.secure = secure;
    this.background = background;
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
    if (row.stale) this.background.track(this.database.prisma.storefrontSession.updateMany({ where: { id }, data: { lastSeenAt: new Date() } }));
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

  /** The session as the session routes show it: its id and, once signed in, the customer. */
  async view(session: SessionRef, created: boolean) {
    const customer = session.customerId
      ? await this.database.prisma.customer.findUnique({ where: { id: session.customerId }, select: { id: true, email: true, name: true } })
      : null;
    return { sessionId: session.id, created, customer };
  }
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const hostile = illFormed(body);
  if (hostile.length) throw new Invalid("The request body holds values no route accepts.", hostile);
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new Invalid("The request body does not match the schema.", fieldErrors(parsed.error));
  return parsed.data;
}

/** The session routes: thin doors over user.request_login_code and user.verify_login_code; `gate` rate-limits them per address. */
export function sessionRouter(sessions: SessionManager, executor: Executor, gate: Gate): Router {
  const router = express.Router();
  const json = express.json({ limit: "16kb", strict: false, type: () => true });
  const route = (handler: (req: Request, res: Response, id: string) => Promise<{ status: number; result: unknown }>) => async (req: Request, res: Response) => {
    const id = requestId(req);
    try {
      await admit(gate, req, res);
      const { status, result } = await handler(req, res, id);
      res.status(status).type("json").send(JSON.stringify({ ok: true, result }));
    } catch (error) {
      sendProblem(res, error, id, gate.log);
    }
  };
  const asSession = (req: Request, session: SessionRef) => sessionCaller(session, req.ip ?? req.socket.remoteAddress ?? "unknown");
  const inputOf = (name: string) => executor.registry.get(name)!.input;

  /** Starts a session (sets the cookie) or returns the current one. */
  router.post("/api/v1/session", route(async (req, res) => {
    const { session, created } = await sessions.ensure(req, res);
    return { status: created ? 201 : 200, result: await sessions.view(session, created) };
  }));

  /** E-mails a 6-digit code (10 minutes, 5 attempts) when a customer has this e-mail; answers 202 either way. */
  router.post("/api/v1/session/login", json, route(async (req, res, id) => {
    const input = parse(inputOf("user.request_login_code"), req.body);
    const { session } = await sessions.ensure(req, res);
    const sent = await executor.invoke({ name: "user.request_login_code", input, caller: asSession(req, session), door: "rest", requestId: id });
    return { status: 202, result: { ...(sent as object), detail: "If a customer has this e-mail, a 6-digit code is on its way." } };
  }));

  /** Checks the code and signs the session in under a new id (a new cookie). */
  router.post("/api/v1/session/verify", json, route(async (req, res, id) => {
    const input = parse(inputOf("user.verify_login_code"), req.body);
    const session = await sessions.resolve(req);
    if (!session) throw new Refused("invalid_code", "No storefront session: request the code with POST /api/v1/session/login in the same session.");
    const signedIn = (await executor.invoke({
      name: "user.verify_login_code",
      input,
      caller: asSession(req, session),
      door: "rest",
      requestId: id,
      onSessionReplaced: (next) => res.append("Set-Cookie", gate.sessionCookie(next)),
    })) as { sessionId: string; customer: { id: string; email: string; name: string | null } };
    return { status: 200, result: { sessionId: signedIn.sessionId, created: false, customer: signedIn.customer } };
  }));

  return router;
}
