// How long the shop keeps what it knows about visitors who did not buy, and the hourly pass that deletes the rest:
// sign-in codes, storefront sessions (with their carts, chats and codes), chats nobody has used for a year and stale
// sign-in throttles. Orders, customers, their addresses and the audit log are business records and are not touched.
import type { Database } from "../../core/db.ts";

/** The windows, in days (docs/operations.md, "What the shop keeps about visitors"). */
export const RETENTION = {
  /** A sign-in code is useless an hour after it expires; its e-mail address goes with it. */
  loginCodeHours: 1,
  /** A visitor who never signed in: their session, cart and chat, this long after their last visit. */
  anonymousSessionDays: 90,
  /** A signed-in session: as long as its cookie (one year) after the last visit. */
  sessionDays: 365,
  /** Any chat (the admin assistant's, an API key's), this long after its last message. */
  chatDays: 365,
  /** A sign-in throttle's window is an hour at most; a day-old row counts nothing. */
  throttleDays: 1,
} as const;

/** Rows deleted per statement, so a first pass over a large backlog never holds long locks. */
const BATCH = 2_000;
/** Statements per table in one pass; the next pass goes on where this one stopped. */
const MAX_BATCHES = 50;

export interface RetentionCounts {
  loginCodes: number;
  sessions: number;
  chats: number;
  throttles: number;
}

/**
 * Deletes what is past its window, in bounded batches. Any process may run it at any time: the statements are
 * idempotent. Times are compared with the database's clock, as Prisma writes them (UTC, no time zone).
 */
export async function pruneVisitorData(database: Pick<Database, "query">): Promise<RetentionCounts> {
  const utcNow = `(now() AT TIME ZONE 'UTC')`;
  const table = (name: string, where: string) => drain(database, name, where);
  return {
    loginCodes: await table("LoginCode", `"expiresAt" < ${utcNow} - make_interval(hours => ${RETENTION.loginCodeHours})`),
    // Carts, chats and sign-in codes of a session go with it (ON DELETE CASCADE); orders keep their customer.
    sessions: await table(
      "StorefrontSession",
      `("customerId" IS NULL AND "lastSeenAt" < ${utcNow} - make_interval(days => ${RETENTION.anonymousSessionDays}))
        OR "lastSeenAt" < ${utcNow} - make_interval(days => ${RETENTION.sessionDays})`,
    ),
    chats: await table("Chat", `"updatedAt" < ${utcNow} - make_interval(days => ${RETENTION.chatDays})`),
    throttles: await table("LoginThrottle", `"windowStart" < ${utcNow} - make_interval(days => ${RETENTION.throttleDays})`),
  };
}

async function drain(database: Pick<Database, "query">, table: string, where: string): Promise<number> {
  const key = table === "LoginThrottle" ? "bucket" : "id";
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const [row] = await database.query<{ n: number }>(
      `WITH gone AS (DELETE FROM "${table}" WHERE "${key}" IN (SELECT "${key}" FROM "${table}" WHERE ${where} LIMIT ${BATCH}) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
    );
    const n = row?.n ?? 0;
    total += n;
    if (n < BATCH) break;
  }
  return total;
}
