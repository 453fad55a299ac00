// Sign-in throttling per client address and per account, kept in the database so every process (and a restart) sees
// the same counts. Attempts are counted before the password is checked, so parallel guesses cannot slip through.
import crypto from "node:crypto";
import type { Db } from "../../core/db.ts";
import { normalizeEmail } from "./service.ts";

export interface ThrottlePolicy {
  windowMs: number;
  perAccount: number;
  perAddress: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = { windowMs: 15 * 60_000, perAccount: 10, perAddress: 30 };

export interface ThrottleVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

function bucketOf(kind: "address" | "account", value: string): string {
  return crypto.createHash("sha256").update(`${kind}:${value}`).digest("hex");
}

function bucketsOf(address: string, email: string) {
  return { address: bucketOf("address", address), account: bucketOf("account", normalizeEmail(email)) };
}

/** Counts one attempt in both buckets (a window starts at its first attempt); refused once either is over its limit. */
export async function countAttempt(db: Db, policy: ThrottlePolicy, address: string, email: string, now: Date): Promise<ThrottleVerdict> {
  const buckets = bucketsOf(address, email);
  const windowStart = new Date(now.getTime() - policy.windowMs);
  await db.loginThrottle.deleteMany({ where: { bucket: { in: [buckets.address, buckets.account] }, windowStart: { lte: windowStart } } });
  const hit = (bucket: string) =>
    db.loginThrottle.upsert({ where: { bucket }, create: { bucket, attempts: 1, windowStart: now }, update: { attempts: { increment: 1 } } });
  const byAddress = await hit(buckets.address);
  const byAccount = await hit(buckets.account);
  const over = [
    byAddress.attempts > policy.perAddress ? byAddress : undefined,
    byAccount.attempts > policy.perAccount ? byAccount : undefined,
  ].filter((row) => row !== undefined);
  if (over.length === 0) return { allowed: true, retryAfterSeconds: 0 };
  const resetAt = Math.max(...over.map((row) => row.windowStart.getTime() + policy.windowMs));
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)) };
}

/** After a successful sign-in: the account starts afresh and the attempt no longer counts against the address. */
export async function forgiveAttempt(db: Db, address: string, email: string): Promise<void> {
  const buckets = bucketsOf(address, email);
  await db.loginThrottle.deleteMany({ where: { bucket: buckets.account } });
  await db.loginThrottle.updateMany({ where: { bucket: buckets.address, attempts: { gt: 0 } }, data: { attempts: { decrement: 1 } } });
}
