// A database of its own with no tables at all, for migration tests (the test template is already migrated and seeded):
// embedded PGlite, or a new database on TEST_DATABASE_URL's server.
import crypto from "node:crypto";
import { openDatabase, type Database } from "../../src/core/db.ts";
import { databaseUrl } from "./postgres.ts";

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
