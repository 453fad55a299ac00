// The start-up work on a database, done once and never half: migrations, then the demo seed in one transaction with
// its SetupStep record, all under the migration lock (several processes may start at once; a killed seed leaves nothing).
import { isEmpty, seedDemo } from "../prisma/seed/demo.ts";
import type { Database, Db, Prisma } from "./core/db.ts";
import type { Logger } from "./core/log.ts";
import { applyMigrations, MIGRATION_LOCK_ID } from "./core/migrate.ts";

export const DEMO_SEED_STEP = "demo-seed";

export interface Prepared {
  applied: string[];
  seeded: boolean;
}

/** Migrates the database and, with `seed: "demo"`, seeds the demo shop into it if it never was and has no catalogue. */
export async function prepareDatabase(database: Database, seed: "demo" | "none", log?: Logger): Promise<Prepared> {
  return database.withLock(MIGRATION_LOCK_ID, async (session) => {
    const applied = await applyMigrations(session);
    if (applied.length) log?.info("migrations applied", { applied });
    const seeded = seed === "demo" && (await seedDemoOnce(database.prisma, log));
    return { applied, seeded };
  });
}

/**
 * Seeds the demo shop and records the step in the same transaction: false when the step was done before or the
 * database already holds a catalogue (someone else's shop). Call it under the migration lock.
 */
export async function seedDemoOnce(prisma: Prisma, log?: Logger): Promise<boolean> {
  return prisma.$transaction((tx) => seedDemoIn(tx, log), { maxWait: 60_000, timeout: 600_000 });
}

/** seedDemoOnce's work in the caller's transaction (also the setup.seed_demo tool's, src/seed-demo-tool.ts). */
export async function seedDemoIn(tx: Db, log?: Logger): Promise<boolean> {
  if (await tx.setupStep.findUnique({ where: { name: DEMO_SEED_STEP } })) return false;
  if (!(await isEmpty(tx))) return false;
  log?.info("seeding the demo shop");
  await seedDemo(tx);
  await tx.setupStep.create({ data: { name: DEMO_SEED_STEP } });
  return true;
}
