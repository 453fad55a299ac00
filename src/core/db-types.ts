// The shapes of the database handle, shared by src/core/db.ts and its two backends (db-pglite.ts, db-postgres.ts).
import type { PrismaClient } from "../generated/prisma/client.ts";
import type { DataDirLock } from "./data-lock.ts";

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
  /** PostgreSQL only: the connection pool's open, idle and waited-for connections now (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
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
