// Staff sign-in throttling per client address and per account, on the shop's attempt counters (core/throttle.ts).
// Attempts are counted before the password is checked, so parallel guesses cannot slip through.
import type { Db } from "../../core/db.ts";
import { countAttempt as countInBucket, forgetAttempts, forgiveOne, type ThrottleVerdict } from "../../core/throttle.ts";
import { normalizeEmail } from "./staff-users.ts";

export interface ThrottlePolicy {
  windowMs: number;
  perAccount: number;
  perAddress: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = { windowMs: 15 * 60_000, perAccount: 10, perAddress: 30 };

/** Counts one attempt per client address and per account (a window starts at its first attempt); refused once either is over its limit. */
export async function countAttempt(db: Db, policy: ThrottlePolicy, address: string, email: string, now: Date): Promise<ThrottleVerdict> {
  const byAddress = await countInBucket(db, `address:${address}`, policy.perAddress, policy.windowMs, now);
  const byAccount = await countInBucket(db, `account:${normalizeEmail(email)}`, policy.perAccount, policy.windowMs, now);
  if (byAddress.allowed && byAccount.allowed) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(byAddress.retryAfterSeconds, byAccount.retryAfterSeconds) };
}

/** After a successful sign-in: the account starts afresh and the attempt no longer counts against the address. */
export async function forgiveAttempt(db: Db, address: string, email: string): Promise<void> {
  await forgetAttempts(db, `account:${normalizeEmail(email)}`);
  await forgiveOne(db, `address:${address}`);
}
