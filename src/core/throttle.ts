// Attempts counted per bucket in fixed windows, in the database so every process (and a restart) sees the same counts.
// Counted in the caller's transaction, which keeps the count when it refuses (CommittedRefusal) and holds the bucket's
// row lock until it commits, so parallel attempts are counted one after another.
import crypto from "node:crypto";
import type { Db } from "./db.ts";

export interface ThrottleVerdict {
  allowed: boolean;
  /** Seconds until the window ends (0 while allowed). */
  retryAfterSeconds: number;
}

/** Counts one attempt against `name` (a window starts at its first attempt); refused once the window holds more than `limit`. */
export async function countAttempt(db: Db, name: string, limit: number, windowMs: number, now: Date): Promise<ThrottleVerdict> {
  const bucket = bucketOf(name);
  await db.loginThrottle.deleteMany({ where: { bucket, windowStart: { lte: new Date(now.getTime() - windowMs) } } });
  const row = await db.loginThrottle.upsert({ where: { bucket }, create: { bucket, attempts: 1, windowStart: now }, update: { attempts: { increment: 1 } } });
  if (row.attempts <= limit) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((row.windowStart.getTime() + windowMs - now.getTime()) / 1000)) };
}

/** Starts `name` afresh (after a success). */
export async function forgetAttempts(db: Db, name: string): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { bucket: bucketOf(name) } });
}

/** Takes one attempt back from `name` (a success that was counted as an attempt). */
export async function forgiveOne(db: Db, name: string): Promise<void> {
  await db.loginThrottle.updateMany({ where: { bucket: bucketOf(name), attempts: { gt: 0 } }, data: { attempts: { decrement: 1 } } });
}

/** Buckets are stored hashed: the table never holds an e-mail address or a client address in clear. */
function bucketOf(name: string): string {
  return crypto.createHash("sha256").update(name).digest("hex");
}
