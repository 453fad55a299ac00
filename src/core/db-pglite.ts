// Embedded PGlite under DATA_DIR (or in memory), loaded by openDatabase only when no DATABASE_URL is given.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.ts";
import { lockDataDirPatiently, type DataDirLock } from "./data-lock.ts";
import type { Database, OpenOptions, Session } from "./db-types.ts";

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
    // A new 16 MB WAL segment is created by writing its last byte, not 16 MB of zeros: that write ran on the event loop,
    // ~20 ms every 16 MB of writes (a chat turn's answers fill one in seconds under load). Recovery reads the unwritten
    // part as zeros either way (the end of the log).
    "-c", "wal_init_zero=off",
  ],
};

export async function openPglite(options: OpenOptions): Promise<Database> {
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
