// The first start, with real server processes: a start killed mid-seed restarts to the complete demo shop, two
// processes starting at once on an empty PostgreSQL database both come up (seeding once), a missing database is
// created, and a start that cannot work fails with one clear line.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/core/db.ts";
import { DEMO_SEED_STEP } from "../../src/setup.ts";
import { databaseUrl } from "../support/postgres.ts";
import { logEntries, spawnShop, type ShopProcess } from "../support/process.ts";
import { testDatabase } from "../support/server.ts";

const pgBase = process.env.TEST_DATABASE_URL;
const started: ShopProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  await Promise.all(started.map((shop) => shop.stop()));
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function shop(env: Record<string, string>): ShopProcess {
  const process = spawnShop(env);
  started.push(process);
  return process;
}

/** Row counts of everything the demo seed writes. */
async function seededCounts(database: Database): Promise<Record<string, number>> {
  const tables = ["Category", "Product", "ProductImage", "ProductVariant", "Page", "ServiceOffering", "Discount", "FeatureFlag", "Customer", "Order", "OrderItem", "OrderStatusChange", "Campaign", "Subscriber", "SetupStep"];
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = Number((await database.query<{ n: number | bigint }>(`SELECT count(*)::int AS n FROM "${table}"`))[0]!.n);
  counts.settings = Number((await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Setting" WHERE section <> 'session_secret'`))[0]!.n);
  return counts;
}

/** The counts of a complete demo shop: the test template went through the same first start. */
let complete: Record<string, number>;
beforeAll(async () => {
  const { database, drop } = await testDatabase();
  complete = await seededCounts(database);
  await drop();
  expect(complete.Product).toBeGreaterThan(0);
  expect(complete.SetupStep).toBe(1);
});

/** Starts a process, kills it with SIGKILL while it seeds, and checks that it did die inside the seed transaction. */
async function killMidSeed(env: Record<string, string>, insideTransaction?: () => Promise<boolean>): Promise<void> {
  const first = shop(env);
  await first.line(/seeding the demo shop/);
  await new Promise((resolve) => setTimeout(resolve, 150));
  if (insideTransaction) expect(await insideTransaction()).toBe(true);
  first.child.kill("SIGKILL");
  expect(await first.exited).toBe("SIGKILL");
  expect(first.output()).not.toMatch(/demo shop seeded/);
}

/** A started server answers with the demo catalogue. */
async function expectServing(process: ShopProcess): Promise<void> {
  const url = await process.url();
  const response = await fetch(`${url}/api/v1/tools/products.get`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"slug":"gucci-oversize-bold-74"}' });
  expect(response.status).toBe(200);
}

describe("first start on the embedded database", () => {
  it("killed mid-seed, restarts to the complete demo shop (and takes over the dead process's data-directory lock)", { timeout: 240_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-first-start-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    await killMidSeed({ DATA_DIR: dataDir });
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, "shop.lock"), "utf8"))).toMatchObject({ what: "server" });

    const second = shop({ DATA_DIR: dataDir });
    await expectServing(second);
    await second.stop();
    expect(fs.existsSync(path.join(dataDir, "shop.lock"))).toBe(false);
    const database = await openDatabase({ dataDir });
    try {
      expect(await seededCounts(database)).toEqual(complete);
      expect(await database.prisma.setupStep.findUnique({ where: { name: DEMO_SEED_STEP } })).not.toBeNull();
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(!pgBase)("first start on PostgreSQL", () => {
  /** A database name nobody has created yet, dropped after the test. */
  function freshDatabase(): string {
    const name = `shop_fs_${crypto.randomBytes(5).toString("hex")}`;
    cleanups.push(async () => {
      const admin = await openDatabase({ databaseUrl: pgBase! });
      await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    });
    return databaseUrl(pgBase!, name);
  }

  it("creates the database DATABASE_URL names when it does not exist; killed mid-seed, restarts complete", { timeout: 240_000 }, async () => {
    const url = freshDatabase();
    const name = new URL(url).pathname.slice(1);
    const admin = await openDatabase({ databaseUrl: pgBase! });
    cleanups.push(() => admin.close());
    await killMidSeed({ DATABASE_URL: url }, async () => {
      const open = await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND xact_start IS NOT NULL`, [name]);
      return open[0]!.n > 0;
    });
    const second = shop({ DATABASE_URL: url });
    await expectServing(second);
    const database = await openDatabase({ databaseUrl: url });
    try {
      expect(await seededCounts(database)).toEqual(complete);
    } finally {
      await database.close();
    }
  });

  it("brings up two processes started at once on an empty database, seeding the demo shop once", { timeout: 240_000 }, async () => {
    const url = freshDatabase();
    const [a, b] = [shop({ DATABASE_URL: url }), shop({ DATABASE_URL: url })];
    await Promise.all([expectServing(a), expectServing(b)]);
    expect([a.output(), b.output()].filter((output) => /demo shop seeded/.test(output))).toHaveLength(1);
    const database = await openDatabase({ databaseUrl: url });
    try {
      expect(await seededCounts(database)).toEqual(complete);
    } finally {
      await database.close();
    }
  });
});

describe("a start that cannot work", () => {
  it("fails with one clear line, not a stack trace", { timeout: 120_000 }, async () => {
    const unreachable = shop({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/shop" });
    expect(await unreachable.exited).toBe(1);
    const [failure, ...more] = logEntries(unreachable.output());
    expect(failure).toMatchObject({ level: "error", message: expect.stringMatching(/^cannot start: Cannot connect to PostgreSQL at 127\.0\.0\.1:1: .*\.$/) });
    expect(more).toEqual([]);
    // nodemailer loads only with the first e-mail, so a bad SMTP_URL is caught by the configuration, not the first order.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-smtp-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const mail = shop({ DATA_DIR: dataDir, SMTP_URL: "mail.example.com:587" });
    expect(await mail.exited).toBe(1);
    expect(logEntries(mail.output()).map((entry) => entry.message)).toEqual(['cannot start: SMTP_URL must be an smtp:// or smtps:// URL, got "mail.example.com:587"']);
  });
});
