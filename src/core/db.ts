// The database: embedded PGlite under DATA_DIR by default, PostgreSQL with DATABASE_URL; both behind one Prisma client.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import { lockDataDirPatiently, type DataDirLock } from "./data-lock.ts";

export type Prisma = PrismaClient;
/** A Prisma client or an interactive transaction on it. */
export type Db = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** One database session: statements that must share a connection (a session lock, BEGIN … ROLLBACK). */
export interface Session {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  kind: "pglite" | "postgres";
  prisma: PrismaClient;
  /** Runs SQL without parameters (several statements allowed): migrations and maintenance. */
  exec(sql: string): Promise<void>;
  /** One parameterised query outside Prisma: rows as plain objects. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs `fn` while holding the session-level advisory lock `id` on one dedicated session (waiting while another
   * process holds it); `fn` gets that session. Prisma queries inside `fn` run on other connections, still under the lock.
   */
  withLock<T>(id: number, fn: (session: Session) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on a channel; delivered after the notifying transaction commits. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory (tests clone a migrated template from it). */
  dump?(): Promise<Blob>;
  /** PGlite in a data directory only: this process's exclusive lock on it (a server advertises its CLI channel there). */
  lock?: DataDirLock;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** Directory for PGlite; omitted means in-memory. */
  dataDir?: string;
  /** A PGlite data-dir dump to start from (tests clone a migrated template). */
  loadDataDir?: Blob;
  /** Who opens a data directory, named in the lock so another process can say who holds it ("server", "shop keys list"). */
  holder?: string;
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
  let lock: DataDirLock | undefined;
  if (options.dataDir) {
    // Two processes on one PGlite directory corrupt it or lose writes silently: take the directory before opening it.
    lock = await lockDataDirPatiently(options.dataDir, options.holder ?? "a shop process", 30_000);
    dir = path.join(options.dataDir, "pglite");
    fs.mkdirSync(dir, { recursive: true });
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dir, {
      extensions: { pg_trgm },
      ...EMBEDDED_MEMORY,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  yieldBeforeStatements(client);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
  const session: Session = {
    async exec(sql) {
      await client.exec(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await client.query<T>(sql, params);
      return result.rows;
    },
  };
  // PGlite is one session in one process (the DATA_DIR lock keeps other processes out): a queue is the whole lock.
  let locked: Promise<unknown> = Promise.resolve();
  return {
    kind: "pglite",
    prisma,
    ...session,
    withLock<T>(_id: number, fn: (session: Session) => Promise<T>): Promise<T> {
      const run = locked.then(() => fn(session));
      locked = run.catch(() => undefined);
      return run;
    },
    async listen(channel, onMessage) {
      const unlisten = await client.listen(channel, onMessage);
      return async () => unlisten();
    },
    async close() {
      if (client.closed) return;
      await prisma.$disconnect();
      await client.close();
      lock?.release();
    },
    async dump() {
      return client.dumpDataDir("none");
    },
    ...(lock ? { lock } : {}),
  };
}

/**
 * PGlite runs each statement synchronously on the event loop, and a chain of awaited statements never gives the loop
 * back: a request's or a chat turn's statements ran as one block while sockets and other requests waited (a chat's
 * first token queued behind other chats' database work). Each statement and transaction now starts in a macrotask of
 * its own, so pending I/O runs between them; statements inside a transaction run back to back as before.
 */
function yieldBeforeStatements(client: PGlite): void {
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async (...args: Parameters<typeof query>) => {
    await nextMacrotask();
    return query(...args);
  }) as typeof client.query;
  client.transaction = (async (...args: Parameters<typeof transaction>) => {
    await nextMacrotask();
    return transaction(...args);
  }) as typeof client.transaction;
}

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

async function openPostgres(url: string): Promise<Database> {
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
