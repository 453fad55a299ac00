// Who is calling: a Bearer API key (verified against its hash, cached briefly), a storefront session, or nobody.
import type { Request } from "express";
import { RateLimited, Unauthorized } from "../core/errors.ts";
import type { Caller, SessionRef } from "../tools/context.ts";
import type { VerifiedKey } from "../tools/keys/key-secrets.ts";
import type { KeyVerifier } from "../tools/keys/verifier.ts";
import { SESSION_SCOPES } from "../tools/scopes.ts";
import { storedToolsets } from "../tools/toolsets.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { requestAddress } from "./address.ts";

/** Resolves the storefront session of a request (cookie), when the storefront is wired in. */
export type SessionResolver = (req: Request) => Promise<SessionRef | undefined>;

/** Resolves the signed-in staff user of a Cookie header (the `shop_admin` cookie), when the admin web is wired in. */
export type StaffResolver = (cookieHeader: string | undefined) => Promise<Caller | undefined>;

/** The caller of a storefront session: its fixed shopper scopes, never the wildcard. */
export function sessionCaller(session: SessionRef, address: string): Caller {
  return { kind: "session", actor: `session:${session.id}`, scopes: new Set(SESSION_SCOPES), session, address };
}

/** The caller of a request without key or session: rate limited by its client address. */
export function anonymousCaller(address: string): Caller {
  return { kind: "anonymous", actor: "anonymous", scopes: new Set(), address };
}

/** The caller of a verified API key: its scopes, and its toolsets when it is limited to some. */
export function keyCaller(key: VerifiedKey, address: string): Caller {
  const caller: Caller = { kind: "key", actor: `key:${key.id}`, scopes: new Set(key.scopes), keyId: key.id, address };
  const toolsets = storedToolsets(key.toolsets);
  if (toolsets) caller.toolsets = toolsets;
  return caller;
}

export class Authenticator {
  sessions: SessionResolver | undefined;
  staff: StaffResolver | undefined;

  private readonly keys: KeyVerifier;
  private readonly limiter: RateLimiter | undefined;

  /** `limiter` budgets failed authentications per client address (none: unlimited, for tools such as the CLI). */
  constructor(keys: KeyVerifier, limiter?: RateLimiter) {
    this.keys = keys;
    this.limiter = limiter;
  }

  /**
   * The caller of an HTTP request; throws 401 for a malformed, unknown or revoked key, 429 once an address guessed too
   * often. The staff cookie is deliberately not consulted: the admin web is server-rendered and calls the executor
   * itself, so REST and MCP stay Bearer-only for staff and a cookie can never be ridden into a tool call from another site.
   */
  async caller(req: Request): Promise<Caller> {
    const address = requestAddress(req);
    const header = req.headers.authorization;
    const session = this.sessions ? await this.sessions(req) : undefined;
    if (header !== undefined) {
      const secret = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
      const key = await this.verifyFrom(address, secret);
      if (!key) throw new Unauthorized(secret ? "The API key is invalid or has been revoked." : "The Authorization header must be `Bearer <API key>`.");
      const caller = keyCaller(key, address);
      if (session) caller.session = session;
      return caller;
    }
    if (session) return sessionCaller(session, address);
    return anonymousCaller(address);
  }

  /**
   * A key presented by a client address (every door that takes keys uses this): the key when valid, else null, counted
   * against the address's failed-authentication budget; once that is used up, 429 before any lookup. A key this process
   * has verified skips the budget, so valid keys are never slowed down.
   */
  async verifyFrom(address: string, secret: string | undefined): Promise<VerifiedKey | null> {
    if (!(secret && this.keys.knows(secret)) && this.limiter) {
      const retryAfter = await this.limiter.authBlocked(address);
      if (retryAfter !== null) throw new RateLimited(retryAfter);
    }
    const key = secret ? await this.keys.verify(secret) : null;
    if (!key) await this.limiter?.authFailed(address);
    return key;
  }
}
