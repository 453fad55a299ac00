// Applies prisma/migrations/*/migration.sql with Prisma's own `_prisma_migrations` bookkeeping (interchangeable with `prisma migrate deploy`).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, Db, Session } from "./db.ts";

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../prisma/migrations");
/** The advisory lock Prisma Migrate takes: migrations and the first-start seed run under it, so `prisma migrate deploy` waits too. */
export const MIGRATION_LOCK_ID = 72707369;

/**
 * Takes the migration lock for the rest of a tool's transaction (the operator's demo seed and UCP samples import): they
 * wait for a migration or first-start seed in any process, as under Database.withLock, and release it at commit.
 * (On the embedded database one process holds the directory: its start-up is over before any command runs in it.)
 */
export async function lockMigrationsIn(tx: Db): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

/** Applies pending migrations in order, each in its own transaction, under the migration lock; returns the names applied. */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.withLock(MIGRATION_LOCK_ID, (session) => applyMigrations(session, migrations));
}

/**
 * Applies pending migrations on a session that holds the migration lock. Everything runs on that one connection, so a
 * failed migration's ROLLBACK reaches its own BEGIN, and two processes never create the bookkeeping table at once.
 */
export async function applyMigrations(db: Session, migrations = readMigrations()): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  const applied: string[] = [];
  const rows = await db.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
  for (const migration of migrations) {
    const checksum = done.get(migration.name);
    if (checksum !== undefined) {
      if (checksum !== migration.checksum) {
        throw new Error(`Migration ${migration.name} was changed after it was applied (checksum mismatch).`);
      }
      continue;
    }
    const id = crypto.randomUUID();
    const name = migration.name.replace(/'/g, "''");
    await db.exec(`BEGIN;
${migration.sql}
;
INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
VALUES ('${id}', '${migration.checksum}', now(), '${name}', 1);
COMMIT;`).catch(async (error: unknown) => {
      await db.exec("ROLLBACK").catch(() => undefined);
      throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
    });
    applied.push(migration.name);
  }
  return applied;
}
