// Storefront sessions: a signed cookie (HMAC-SHA256) naming a StorefrontSession row, and the resolver the
// Authenticator uses. The session routes (POST /api/v1/session …) are a door: src/api/session-routes.ts.
import crypto from "node:crypto";
import type { Request, Response } from "express";
import type { Background } from "../core/background.ts";
import type { SessionRef } from "../tools/context.ts";
import type { StorefrontSessions } from "../tools/user/session-store.ts";
import { readCookie } from "./cookies.ts";

export const SESSION_COOKIE = "shop_session";
const COOKIE_MAX_AGE_S = 365 * 24 * 3600;
const TOUCH_EVERY_MS = 5 * 60_000;

export class SessionManager {
  /** The session rows: this class keeps the cookie, the store the SQL. */
  private readonly store: StorefrontSessions;
  private readonly secret: string;
  private readonly secure: boolean;
  private readonly background: Background;

  /** The composition root builds the store and resolves the secret (sessionSecret): this plumbing holds no database handle. */
  constructor(store: StorefrontSessions, secret: string, secure: boolean, background: Background) {
    this.store = store;
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
    const row = await this.store.find(id, TOUCH_EVERY_MS / 1000);
    if (!row) return undefined;
    if (row.stale) this.background.track(this.store.touch(id));
    return { id, customerId: row.customerId, persistent: true };
  }

  /** The request's session, or a new one with its cookie set on the response. */
  async ensure(req: Request, res: Response): Promise<{ session: SessionRef; created: boolean }> {
    const existing = await this.resolve(req);
    if (existing) return { session: existing, created: false };
    const id = await this.store.create();
    res.append("Set-Cookie", this.cookie(id));
    return { session: { id, customerId: null, persistent: true }, created: true };
  }

  /** The session as the session routes show it: its id and, once signed in, the customer. */
  async view(session: SessionRef, created: boolean) {
    const customer = session.customerId ? await this.store.customer(session.customerId) : null;
    return { sessionId: session.id, created, customer };
  }
}
