// Fixed-window rate limits per API key or per client address; counters in memory or in Redis (shared by all processes).
import type { Redis } from "ioredis";
import type { Logger } from "../core/log.ts";

const WINDOW_SECONDS = 60;

export interface Hit {
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface RateLimitStore {
  hit(bucket: string): Promise<Hit>;
  /** The bucket's count in the current window, without counting this look. */
  peek(bucket: string): Promise<Hit>;
  close(): Promise<void>;
}

export interface RateLimitState {
  policy: "anonymous" | "key";
  limit: number;
  remaining: number;
  resetSeconds: number;
  allowed: boolean;
}

export class MemoryStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private sweepAt = 0;

  async hit(bucket: string): Promise<Hit> {
    const now = Date.now();
    if (now > this.sweepAt) this.sweep(now);
    let window = this.windows.get(bucket);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + WINDOW_SECONDS * 1000 };
      this.windows.set(bucket, window);
    }
    window.count++;
    return { count: window.count, resetMs: window.resetAt - now };
  }

  async peek(bucket: string): Promise<Hit> {
    const now = Date.now();
    const window = this.windows.get(bucket);
    return window && window.resetAt > now ? { count: window.count, resetMs: window.resetAt - now } : { count: 0, resetMs: WINDOW_SECONDS * 1000 };
  }

  private sweep(now: number): void {
    for (const [bucket, window] of this.windows) if (window.resetAt <= now) this.windows.delete(bucket);
    this.sweepAt = now + WINDOW_SECONDS * 1000;
  }

  async close(): Promise<void> {}
}

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

const PEEK_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}`;

export class RedisStore implements RateLimitStore {
  /** Connects to `url`; ioredis is imported here, so a shop without REDIS_URL never loads it. */
  static async connect(url: string, log: Logger, prefix?: string): Promise<RedisStore> {
    const { Redis } = await import("ioredis");
    return new RedisStore(new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }), log, prefix);
  }

  private readonly redis: Redis;
  private readonly log: Logger;
  private readonly prefix: string;

  private constructor(redis: Redis, log: Logger, prefix = "shop:rl:") {
    this.redis = redis;
    this.log = log;
    this.prefix = prefix;
    this.redis.on("error", (error: Error) => this.log.warn("redis error", { error: error.message }));
  }

  async hit(bucket: string): Promise<Hit> {
    try {
      const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + bucket, WINDOW_SECONDS * 1000)) as [number, number];
      return { count, resetMs: ttl };
    } catch (error) {
      // Fail open: a rate-limit outage must not take the shop down.
      this.log.warn("rate limit store unavailable; request allowed", { error: (error as Error).message });
      return { count: 0, resetMs: WINDOW_SECONDS * 1000 };
    }
  }

  async peek(bucket: string): Promise<Hit> {
    try {
      const [count, ttl] = (await this.redis.eval(PEEK_SCRIPT, 1, this.prefix + bucket)) as [number, number];
      return { count, resetMs: ttl > 0 ? ttl : WINDOW_SECONDS * 1000 };
    } catch (error) {
      this.log.warn("rate limit store unavailable; request allowed", { error: (error as Error).message });
      return { count: 0, resetMs: WINDOW_SECONDS * 1000 };
    }
  }

  /** Resolves once connected; rejects after `timeoutMs` (the store keeps reconnecting in the background). */
  async ready(timeoutMs: number): Promise<void> {
    if (this.redis.status === "ready") return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Redis not ready after ${timeoutMs} ms`)), timeoutMs);
      this.redis.once("ready", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

export class RateLimiter {
  readonly store: RateLimitStore;
  readonly anonPerMin: number;
  readonly keyPerMin: number;
  /** Failed key authentications allowed per client address and window (guessing keys is cheap, looking them up is not). */
  readonly authFailuresPerMin: number;

  constructor(store: RateLimitStore, anonPerMin: number, keyPerMin: number, authFailuresPerMin = 20) {
    this.store = store;
    this.anonPerMin = anonPerMin;
    this.keyPerMin = keyPerMin;
    this.authFailuresPerMin = authFailuresPerMin;
  }

  /** Seconds until this address may try a key again, when its failed authentications used up the budget; else null. */
  async authBlocked(address: string): Promise<number | null> {
    const seen = await this.store.peek(`authfail:${address}`);
    return seen.count >= this.authFailuresPerMin ? Math.max(1, Math.ceil(seen.resetMs / 1000)) : null;
  }

  /** Counts one failed key authentication against the address. */
  async authFailed(address: string): Promise<void> {
    await this.store.hit(`authfail:${address}`);
  }

  async check(bucket: string, keyed: boolean): Promise<RateLimitState> {
    const limit = keyed ? this.keyPerMin : this.anonPerMin;
    const hit = await this.store.hit(bucket);
    return {
      policy: keyed ? "key" : "anonymous",
      limit,
      remaining: Math.max(0, limit - hit.count),
      resetSeconds: Math.max(1, Math.ceil(hit.resetMs / 1000)),
      allowed: hit.count <= limit,
    };
  }
}

/** The five RateLimit headers (IETF httpapi-ratelimit-headers, structured and legacy forms). */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Policy": `"${state.policy}";q=${state.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`,
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
}
