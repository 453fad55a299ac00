// PostgreSQL URLs for tests: the admin database, and a throwaway database per test file; an empty database of its own
// (PGlite, or a new PostgreSQL database when TEST_DATABASE_URL is set) for migration tests.
import crypto from "node:crypto";
import { openDatabase, type Database } from "../../src/core/db.ts";

export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export function adminUrl(base: string): string {
  return base;
}

/**
 * A database with no tables at all (the test template is already migrated and seeded), and how to drop it: a migration
 * test applies the migrations before the one it tests, writes the rows that migration meets, then applies the rest.
 */
export async function emptyDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const database = await openDatabase({});
    return { database, drop: () => database.close() };
  }
  const name = `shop_t_${crypto.randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ databaseUrl: base });
  await admin.exec(`CREATE DATABASE "${name}"`);
  const database = await openDatabase({ databaseUrl: databaseUrl(base, name) });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    },
  };
}
