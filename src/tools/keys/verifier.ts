// Verifies the API key of every authenticated request: a hash lookup, its verdict cached briefly per secret, the last
// use stamped at most once a minute. A key tool that revokes or narrows a key makes this process forget its verdicts
// on commit; other processes follow within the cache time.
import type { Db } from "../../core/db.ts";
import type { ChangeScope } from "../change-scope.ts";
import { findActiveKey, touchKey, type VerifiedKey } from "./key-secrets.ts";

const CACHE_MS = 2_000;
const TOUCH_EVERY_MS = 60_000;
const MAX_CACHED = 10_000;

export class KeyVerifier {
  private readonly cache = new Map<string, { key: VerifiedKey | null; until: number }>();
  private readonly touched = new Map<string, number>();

  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** Whether this process verified the secret as a valid key within the cache time. */
  knows(secret: string): boolean {
    return Boolean(this.cache.get(secret)?.key);
  }

  /** The key's id and scopes when valid (cached briefly), else null. */
  async verify(secret: string): Promise<VerifiedKey | null> {
    const now = Date.now();
    const cached = this.cache.get(secret);
    let key: VerifiedKey | null;
    if (cached && cached.until > now) {
      key = cached.key;
    } else {
      key = await findActiveKey(this.db, secret);
      if (this.cache.size > MAX_CACHED) this.cache.clear();
      this.cache.set(secret, { key, until: now + CACHE_MS });
    }
    if (key && (this.touched.get(key.id) ?? 0) + TOUCH_EVERY_MS < now) {
      this.touched.set(key.id, now);
      touchKey(this.db, key.id).catch(() => undefined);
    }
    return key;
  }

  /** Declares a key change inside a write tool's transaction: this process forgets its verdicts on commit. */
  changed(ctx: ChangeScope): void {
    ctx.afterCommit(() => this.forget());
  }

  /** Drops every cached verdict (a key was revoked or changed, here or by `shop keys …` through the CLI channel). */
  forget(): void {
    this.cache.clear();
  }
}
