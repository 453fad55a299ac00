// The order_numbers migration: existing orders numbered by (createdAt, id) from 1001 and the counter set after them;
// a new shop's first order is 1001; an insert rolled back gives its number back. On PGlite, and PostgreSQL when set.
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/core/db.ts";
import { migrate, readMigrations } from "../../src/core/migrate.ts";
import { emptyDatabase as emptyTestDatabase } from "../support/empty-database.ts";

const MIGRATION = "20261127050000_order_numbers";
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

const insertSql = (id: string, createdAt: string) => `INSERT INTO "Order" ("id", "email", "status", "shippingName", "shippingAddress", "shippingZip", "shippingCity",
    "subtotalDkk", "shippingDkk", "discountDkk", "totalDkk", "createdAt", "updatedAt")
    VALUES ('${id}', 'kunde@example.dk', 'paid', 'Mette Hansen', 'Strøget 12', '1160', 'København K', 10000, 4900, 0, 14900, '${createdAt}', '${createdAt}')`;

const insertOrder = (database: Database, id: string, createdAt: string) => database.exec(insertSql(id, createdAt));

const numbers = (database: Database) => database.query<{ id: string; number: number }>(`SELECT "id", "number" FROM "Order" ORDER BY "number"`);
const counter = async (database: Database) => (await database.query<{ value: number }>(`SELECT "value" FROM "Sequence" WHERE "name" = 'order_number'`))[0]?.value;

describe("the order_numbers migration", () => {
  it("numbers existing orders by creation time, then id, from 1001 and continues after them", async () => {
    const database = await emptyDatabase();
    const all = readMigrations();
    const index = all.findIndex((migration) => migration.name === MIGRATION);
    expect(index).toBeGreaterThan(0);
    await migrate(database, all.slice(0, index));
    await insertOrder(database, "order-b", "2026-03-02T10:00:00Z");
    await insertOrder(database, "order-a", "2026-03-02T10:00:00Z");
    await insertOrder(database, "order-c", "2026-03-01T08:00:00Z");
    expect(await migrate(database, all)).toContain(MIGRATION);
    expect(await numbers(database)).toEqual([{ id: "order-c", number: 1001 }, { id: "order-a", number: 1002 }, { id: "order-b", number: 1003 }]);
    expect(await counter(database)).toBe(1003);

    // One exec, so one connection on PostgreSQL too.
    await database.exec(`BEGIN; ${insertSql("order-rolled-back", "2026-03-03T08:00:00Z")}; ROLLBACK;`);
    await insertOrder(database, "order-d", "2026-03-03T09:00:00Z");
    expect((await numbers(database)).at(-1)).toEqual({ id: "order-d", number: 1004 });
    await expect(database.exec(`UPDATE "Order" SET "number" = 1001 WHERE "id" = 'order-d'`)).rejects.toThrow(/unique|duplicate/i);
  });

  it("starts a new shop at 1001", async () => {
    const database = await emptyDatabase();
    await migrate(database);
    expect(await counter(database)).toBe(1000);
    await insertOrder(database, "first", "2026-03-01T08:00:00Z");
    expect(await numbers(database)).toEqual([{ id: "first", number: 1001 }]);
  });
});
