// The storefront session rows and the shop secret, as the session plumbing (src/http/session.ts) reads and writes them:
// the one place below the doors that holds their SQL.
import crypto from "node:crypto";
import type { Database, Prisma } from "../../core/db.ts";

const SECRET_SECTION = "session_secret";

/**
 * The secret kept in the Setting row "session_secret": one generated on first use, inserted only if absent, so every
 * process and restart agrees on it.
 */
export async function storedSecret(prisma: Prisma): Promise<string> {
  const fresh = crypto.randomBytes(32).toString("base64url");
  await prisma.setting.createMany({ data: [{ section: SECRET_SECTION, value: { secret: fresh } }], skipDuplicates: true });
  const row = await prisma.setting.findUniqueOrThrow({ where: { section: SECRET_SECTION } });
  const secret = (row.value as { secret?: unknown }).secret;
  if (typeof secret !== "string" || secret.length < 16) throw new Error(`The Setting row "${SECRET_SECTION}" holds no usable secret.`);
  return secret;
}

/**
 * The secret that signs session cookies and payment links: SESSION_SECRET, else one generated on first start and
 * kept in the Setting row "session_secret" (insert-if-absent, so every process and restart agrees on it).
 */
export async function sessionSecret(prisma: Prisma, configured: string): Promise<string> {
  return configured || storedSecret(prisma);
}

/** A session row as the session plumbing needs it: its customer, and whether lastSeenAt is older than `staleSeconds`. */
export async function findSession(database: Pick<Database, "query">, id: string, staleSeconds: number): Promise<{ customerId: string | null; stale: boolean } | undefined> {
  // Plain SQL: every storefront request and chat turn asks this, and Prisma costs more than the lookup itself.
  // lastSeenAt is UTC without a time zone, as Prisma writes it; the database compares it with its own clock.
  const [row] = await database.query<{ customerId: string | null; stale: boolean }>(
    `SELECT "customerId", "lastSeenAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $2) AS stale FROM "StorefrontSession" WHERE id = $1`,
    [id, staleSeconds],
  );
  return row;
}

/** Marks the session as seen now. */
export async function touchSession(prisma: Prisma, id: string): Promise<void> {
  await prisma.storefrontSession.updateMany({ where: { id }, data: { lastSeenAt: new Date() } });
}

/** A new, anonymous session row; its id. */
export async function createSession(prisma: Prisma): Promise<string> {
  const row = await prisma.storefrontSession.create({ data: {} });
  return row.id;
}

/** The customer a session is signed in as, as the session routes show it. */
export function sessionCustomer(prisma: Prisma, customerId: string): Promise<{ id: string; email: string; name: string | null } | null> {
  return prisma.customer.findUnique({ where: { id: customerId }, select: { id: true, email: true, name: true } });
}

/**
 * The storefront session rows behind one database: what the session plumbing (src/http/session.ts) calls, so the cookie
 * code holds no Prisma.
 */
export class StorefrontSessions {
  private readonly database: Pick<Database, "prisma" | "query">;

  constructor(database: Pick<Database, "prisma" | "query">) {
    this.database = database;
  }

  find(id: string, staleSeconds: number): Promise<{ customerId: string | null; stale: boolean } | undefined> {
    return findSession(this.database, id, staleSeconds);
  }

  touch(id: string): Promise<void> {
    return touchSession(this.database.prisma, id);
  }

  create(): Promise<string> {
    return createSession(this.database.prisma);
  }

  customer(customerId: string): Promise<{ id: string; email: string; name: string | null } | null> {
    return sessionCustomer(this.database.prisma, customerId);
  }
}
