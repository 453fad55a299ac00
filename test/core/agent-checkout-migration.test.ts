// The retire_agent_checkout_flag migration: the never-enforced agent_checkout flag's row goes, whatever it said, the
// other flags stay, and agentAccess stays as the shop had it (agents kept buying, so nothing they do changes). On PGlite,
// and PostgreSQL when set.
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/core/db.ts";
import { migrate, readMigrations } from "../../src/core/migrate.ts";
import { emptyDatabase as emptyTestDatabase } from "../support/postgres.ts";

const MIGRATION = "20261128130000_retire_agent_checkout_flag";
const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const drop of drops.splice(0).reverse()) await drop();
});

/** A database of its own with no tables at all, dropped after the test. */
async function emptyDatabase(): Promise<Database> {
  const { database, drop } = await emptyTestDatabase();
  drops.push(drop);
  return database;
}

describe("the retire_agent_checkout_flag migration", () => {
  it.each([false, true])("removes the agent_checkout flag (enabled: %s), keeps the other flags and the agent access", async (enabled) => {
    const database = await emptyDatabase();
    const all = readMigrations();
    const index = all.findIndex((migration) => migration.name === MIGRATION);
    expect(index).toBeGreaterThan(0);
    await migrate(database, all.slice(0, index));
    await database.exec(`INSERT INTO "FeatureFlag" ("key", "enabled", "description", "updatedAt") VALUES
      ('agent_checkout', ${enabled}, 'Checkout by external AI agents (ACP checkout sessions).', now()),
      ('newsletter', true, 'Newsletter sign-up and campaigns.', now())`);
    await database.exec(`INSERT INTO "Setting" ("section", "value", "updatedAt") VALUES ('commerce', '{"currency":"DKK","agentAccess":"signed"}', now())`);
    expect(await migrate(database, all)).toContain(MIGRATION);
    expect(await database.query<{ key: string }>(`SELECT "key" FROM "FeatureFlag" ORDER BY "key"`)).toEqual([{ key: "newsletter" }]);
    expect(await database.query<{ value: unknown }>(`SELECT "value" FROM "Setting" WHERE "section" = 'commerce'`)).toEqual([{ value: { currency: "DKK", agentAccess: "signed" } }]);
  });
});
