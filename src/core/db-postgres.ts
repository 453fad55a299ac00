// PostgreSQL at DATABASE_URL, loaded by openDatabase only when one is given.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import type { Database } from "./db-types.ts";

export async function openPostgres(url: string): Promise<Database> {
  await ensurePostgresDatabase(url);
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // An idle connection the server closes (restart, failover, DROP DATABASE) must not crash the process;
  // the pool replaces it and the next query reports any real outage as a 503.
  pool.on("error", () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const listeners: pg.Client[] = [];
  let closed = false;
  return {
    kind: "postgres",
    prisma,
    async exec(sql) {
      await pool.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await pool.query(sql, params);
      return result.rows as T[];
    },
    async withLock(id, fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("SELECT pg_advisory_lock($1)", [id]);
        try {
          return await fn({
            async exec(sql) {
              await client.query(sql);
            },
            async query<T>(sql: string, params: unknown[] = []) {
              return (await client.query(sql, params)).rows as T[];
            },
          });
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [id]).catch((error: Error) => (broken = error));
        }
      } finally {
        // A connection whose unlock failed may still hold the lock: close it rather than return it to the pool.
        client.release(broken ?? false);
      }
    },
    async listen(channel, onMessage) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      client.on("notification", (message) => {
        if (message.channel === channel) onMessage(message.payload ?? "");
      });
      client.on("error", () => undefined);
      await client.query(`LISTEN "${channel.replace(/"/g, "")}"`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end().catch(() => undefined);
      };
    },
    poolStats() {
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(listeners.splice(0).map((client) => client.end().catch(() => undefined)));
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

/**
 * Creates the database DATABASE_URL names when it does not exist yet (as `createdb` would, from the server's
 * maintenance database), so a first start needs no manual step; fails with one clear sentence when it may not.
 */
async function ensurePostgresDatabase(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  probe.on("error", () => undefined);
  try {
    await probe.connect();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== "3D000") throw new Error(`Cannot connect to PostgreSQL at ${where(url)}: ${(error as Error).message}.`, { cause: error });
  } finally {
    await probe.end().catch(() => undefined);
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  admin.on("error", () => undefined);
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (error) {
    // Another process starting at the same moment may have created it first: that is success too.
    const code = (error as { code?: string }).code;
    if (code !== "42P04" && code !== "23505") {
      throw new Error(
        `The database "${name}" does not exist on ${where(url)} and could not be created (${(error as Error).message}): ` +
          `create it (createdb "${name}") or point DATABASE_URL at an existing database.`,
        { cause: error },
      );
    }
  } finally {
    await admin.end().catch(() => undefined);
  }
}

function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}`;
}
