// The database: embedded PGlite under DATA_DIR by default, PostgreSQL with DATABASE_URL; both behind one Prisma client.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";

export type Prisma = PrismaClient;
/** A Prisma client or an interactive transaction on it. */
export type Db = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export interface Database {
  kind: "pglite" | "postgres";
  prisma: PrismaClient;
  /** Runs SQL without parameters (several statements allowed): migrations and maintenance. */
  exec(sql: string): Promise<void>;
  /** One parameterised query outside Prisma: rows as plain objects. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Subscribes to NOTIFY on a channel; delivered after the notifying transaction commits. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory (tests clone a migrated template from it). */
  dump?(): Promise<Blob>;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** Directory for PGlite; omitted means in-memory. */
  dataDir?: string;
  /** A PGlite data-dir dump to start from (tests clone a migrated template). */
  loadDataDir?: Blob;
}

/**
 * PGlite runs Postgres inside this process's WASM heap (128 MB declared by the module, grown on demand, never shrunk).
 * Postgres's default 128 MB shared_buffers and 64 MB maintenance_work_mem fill it up and more. Hot reads come from the
 * in-memory read model, so the embedded database needs few buffers; PGlite's own start parameters are kept as they are.
 */
const EMBEDDED_MEMORY = {
  startParams: [
    "--single", "-F", "-O", "-j",
    "-c", "search_path=public", "-c", "exit_on_error=false", "-c", "log_checkpoints=false",
    "-c", "max_worker_processes=0", "-c", "max_parallel_workers=0", "-c", "max_parallel_workers_per_gather=0",
    "-c", "io_method=sync", "-c", "max_parallel_maintenance_workers=0",
    "-c", "shared_buffers=16MB", "-c", "work_mem=2MB", "-c", "maintenance_work_mem=16MB", "-c", "temp_buffers=2MB",
  ],
};

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options);
}

async function openPglite(options: OpenOptions): Promise<Database> {
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, "pglite");
    fs.mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create(dir, {
    extensions: { pg_trgm },
    ...EMBEDDED_MEMORY,
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
  return {
    kind: "pglite",
    prisma,
    async exec(sql) {
      await client.exec(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await client.query<T>(sql, params);
      return result.rows;
    },
    async listen(channel, onMessage) {
      const unlisten = await client.listen(channel, onMessage);
      return async () => unlisten();
    },
    async close() {
      if (client.closed) return;
      await prisma.$disconnect();
      await client.close();
    },
    async dump() {
      return client.dumpDataDir("none");
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
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
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(listeners.splice(0).map((client) => client.end().catch(() => undefined)));
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
