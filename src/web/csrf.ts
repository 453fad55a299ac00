// CSRF protection for web forms, shared by the storefront (keyed on the shop_session id) and the admin (keyed on the
// staff session): an HMAC token bound to a session key and a purpose, plus a Fetch-Metadata/Origin same-origin check.
import crypto from "node:crypto";
import type { Request } from "express";
import { Forbidden } from "../core/errors.ts";
import { html, type Html } from "./html.ts";

/** Name of the hidden form field (and `X-CSRF-Token` for scripts) that carries the token. */
const CSRF_FIELD = "_csrf";
const CSRF_HEADER = "x-csrf-token";
const DEFAULT_MAX_AGE_MS = 24 * 3600_000;

export class Csrf {
  private readonly secret: string;
  private readonly maxAgeMs: number;

  constructor(secret: string, maxAgeMs = DEFAULT_MAX_AGE_MS) {
    this.secret = secret;
    this.maxAgeMs = maxAgeMs;
  }

  private mac(sessionKey: string, purpose: string, issued: string): Buffer {
    return crypto.createHmac("sha256", this.secret).update(`csrf\0${purpose}\0${sessionKey}\0${issued}`).digest();
  }

  /** `<issued seconds, base 36>.<HMAC>`: only someone who knows the session key (the cookie's owner) gets a valid one. */
  token(sessionKey: string, purpose: string, now = Date.now()): string {
    const issued = Math.floor(now / 1000).toString(36);
    return `${issued}.${this.mac(sessionKey, purpose, issued).toString("base64url")}`;
  }

  /** Constant-time check of a token against the session key and purpose; false when forged, foreign or expired. */
  verify(sessionKey: string, purpose: string, token: unknown, now = Date.now()): boolean {
    if (typeof token !== "string" || token.length > 200) return false;
    const dot = token.indexOf(".");
    if (dot <= 0) return false;
    const issued = token.slice(0, dot);
    if (!/^[0-9a-z]{1,12}$/.test(issued)) return false;
    // A minute of clock skew between processes is tolerated for tokens "from the future".
    const age = now - parseInt(issued, 36) * 1000;
    if (age > this.maxAgeMs || age < -60_000) return false;
    const given = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = this.mac(sessionKey, purpose, issued);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  /** The hidden input that carries a fresh token in a form. */
  field(sessionKey: string, purpose: string): Html {
    return html`<input type="hidden" name="${CSRF_FIELD}" value="${this.token(sessionKey, purpose)}">`;
  }

  /**
   * Guards a form POST: refuses cross-site requests (Fetch Metadata or Origin) and, when the request belongs to a
   * session, a missing or wrong token (form field or X-CSRF-Token header). Throws 403 Forbidden.
   */
  check(req: Request, sessionKey: string | undefined, purpose: string, publicBaseUrl?: string): void {
    if (crossSite(req, publicBaseUrl)) throw new Forbidden("The form was sent from another site.");
    if (sessionKey === undefined) return;
    const body = req.body as Record<string, unknown> | undefined;
    const token = body?.[CSRF_FIELD] ?? req.headers[CSRF_HEADER];
    if (!this.verify(sessionKey, purpose, token)) throw new Forbidden("The form has expired or was not issued to this session; reload the page and try again.");
  }
}

/**
 * Whether a browser says the request comes from another site: `Sec-Fetch-Site` when sent (every current browser),
 * else the `Origin` header. Requests with neither (non-browser clients) are not cross-site by this test.
 */
export function crossSite(req: Request, publicBaseUrl?: string): boolean {
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string") return site !== "same-origin" && site !== "none";
  const origin = req.headers.origin;
  if (typeof origin !== "string") return false;
  const own = new Set([`${req.protocol}://${req.headers.host ?? ""}`]);
  if (publicBaseUrl) own.add(new URL(publicBaseUrl).origin);
  return !own.has(origin);
}
