// The unbind_checkout_sessions migration: a storefront session bound to a customer without a login code of its own for
// that customer's e-mail (a checkout's binding) loses it; a session signed in by code keeps it. On PGlite, and
// PostgreSQL when set.
import { afterEach, describe, expect, it } from "vitest";
import { migrate, readMigrations } from "../../src/core/migrate.ts";
import { emptyDatabase } from "../support/postgres.ts";

const MIGRATION = "20261128200000_unbind_checkout_sessions";
const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const drop of drops.splice(0).reverse()) await drop();
});

describe("the unbind_checkout_sessions migration", () => {
  it("clears bindings no login proved and keeps those a used code of the session proved", async () => {
    const { database, drop } = await emptyDatabase();
    drops.push(drop);
    const all = readMigrations();
    const index = all.findIndex((migration) => migration.name === MIGRATION);
    expect(index).toBeGreaterThan(0);
    await migrate(database, all.slice(0, index));
    await database.exec(`
      INSERT INTO "Customer" ("id", "email", "updatedAt") VALUES
        ('c-mette', 'mette@example.dk', now()), ('c-new', 'ny@example.dk', now()), ('c-other', 'anden@example.dk', now());
      INSERT INTO "StorefrontSession" ("id", "customerId") VALUES
        ('s-checkout', 'c-new'),   -- bound by a guest checkout: no code at all
        ('s-login', 'c-mette'),    -- signed in by code
        ('s-switched', 'c-other'), -- signed in as Mette, signed out, then a checkout with a new address bound it
        ('s-unproven', 'c-mette'), -- a code requested for Mette but never entered, and bound by a checkout
        ('s-guest', NULL);
      INSERT INTO "LoginCode" ("id", "sessionId", "email", "codeHash", "expiresAt", "usedAt") VALUES
        ('l-1', 's-login', 'mette@example.dk', 'h', now(), now()),
        ('l-2', 's-switched', 'mette@example.dk', 'h', now(), now()),
        ('l-3', 's-unproven', 'mette@example.dk', 'h', now(), NULL);
    `);
    expect(await migrate(database, all)).toContain(MIGRATION);
    const rows = await database.query<{ id: string; customerId: string | null }>(`SELECT "id", "customerId" FROM "StorefrontSession" ORDER BY "id"`);
    expect(rows).toEqual([
      { id: "s-checkout", customerId: null },
      { id: "s-guest", customerId: null },
      { id: "s-login", customerId: "c-mette" },
      { id: "s-switched", customerId: null },
      { id: "s-unproven", customerId: null },
    ]);
    // The customers and the codes stay: only the bindings go.
    expect((await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Customer"`))[0]!.n).toBe(3);
    expect((await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM "LoginCode"`))[0]!.n).toBe(3);
  });
});
