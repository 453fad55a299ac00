// Who is calling: a Bearer API key (verified against its hash, cached briefly), a storefront session, or nobody.
import type { Request } from "express";
import { findActiveKey, revokeApiKey, touchApiKey, type VerifiedKey } from "../core/api-keys.ts";
import type { Database } from "../core/db.ts";
import { Unauthorized } from "../core/errors.ts";
import type { Caller, SessionRef } from "../tools/context.ts";
import { SESSION_SCOPES } from "../tools/scopes.ts";

const CACHE_MS = 2_000;
const TOUCH_EVERY_MS = 60_000;

/** Resolves the storefront session of a request (cookie), when the storefront is wired in. */
export type SessionResolver = (req: Request) => Promise<SessionRef | undefined>;

/** Resolves the signed-in staff user of a Cookie header (the `shop_admin` cookie), when the admin web is wired in. */
export type StaffResolver = (cookieHeader: string | undefined) => Promise<Caller | undefined>;

export class Authenticator {
  private readonly cache = new Map<string, { key: VerifiedKey | null; until: number }>();
  private readonly touched = new Map<string, number>();
  sessions: SessionResolver | undefined;
  staff: StaffResolver | undefined;

  constructor(private readonly database: Database) {}

  /**
   * The caller of an HTTP request; throws 401 for a malformed, unknown or revoked key. The staff cookie is deliberately
   * not consulted: the admin web is server-rendered and calls the executor itself, so REST and MCP stay Bearer-only for
   * staff and a cookie can never be ridden into a tool call from another site.
   */
  async caller(req: Request): Promise<Caller> {
    const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const header = req.headers.authorization;
    const session = this.sessions ? await this.sessions(req) : undefined;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw new Unauthorized("The Authorization header must be `Bearer <API key>`.");
      const key = await this.verify(match[1]!);
      if (!key) throw new Unauthorized("The API key is invalid or has been revoked.");
      const caller: Caller = { kind: "key", actor: `key:${key.id}`, scopes: new Set(key.scopes), keyId: key.id, address };
      if (session) caller.session = session;
      return caller;
    }
    if (session) {
      return { kind: "session", actor: `session:${session.id}`, scopes: new Set(SESSION_SCOPES), session, address };
    }
    return { kind: "anonymous", actor: "anonymous", scopes: new Set(), address };
  }

  async verify(secret: string): Promise<VerifiedKey | null> {
    const now = Date.now();
    const cached = this.cache.get(secret);
    let key: VerifiedKey | null;
    if (cached && cached.until > now) {
      key = cached.key;
    } else {
      key = await findActiveKey(this.database.prisma, secret);
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(secret, { key, until: now + CACHE_MS });
    }
    if (key && (this.touched.get(key.id) ?? 0) + TOUCH_EVERY_MS < now) {
      this.touched.set(key.id, now);
      touchApiKey(this.database.prisma, key.id).catch(() => undefined);
    }
    return key;
  }

  /** Revokes a key and forgets it at once in this process (others follow within the cache time). */
  async revoke(id: string) {
    const info = await revokeApiKey(this.database.prisma, id);
    this.cache.clear();
    return info;
  }
}
