// The database: embedded PGlite under DATA_DIR by default, PostgreSQL with DATABASE_URL; both behind one Prisma client.
// Each backend lives in its own module, loaded only when opened: a deployment does not pay for the driver it does not use.
import type { Database, OpenOptions } from "./db-types.ts";
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
