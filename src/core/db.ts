// The database: embedded PGlite under DATA_DIR by default, PostgreSQL with DATABASE_URL; both behind one Prisma client.
// Each backend lives in its own module, loaded only when opened: a deployment does not pay for the driver it does not use.
import type { Database, Db, OpenOptions } from "./db-types.ts";
import { traceQueries } from "./db-trace.ts";

export type { Database, Db, OpenOptions, Prisma, Session } from "./db-types.ts";

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import("./db-postgres.ts");
    return traceQueries(await openPostgres(options.databaseUrl));
  }
  const { openPglite } = await import("./db-pglite.ts");
  return traceQueries(await openPglite(options));
}

/** A transaction of its own for work outside a tool call (Collaborators.transaction), with the executor's waits. */
export function transactionOf(database: Database) {
  return <T>(work: (db: Db) => Promise<T>): Promise<T> => database.prisma.$transaction((tx) => work(tx), { maxWait: 10_000, timeout: 30_000 });
}
