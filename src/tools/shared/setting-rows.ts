// Setting rows as the process last read them. Every sale, checkout and agent request asked for the commerce, shipping
// and contact sections again, and they change a few times a year: a process keeps the rows it read (SettingRows) and
// forgets them on any change — a trigger on "Setting" notifies every process, whoever writes (migration
// 20261205500000_settings_webhooks_notify), and a writing tool also forgets on its own commit, before it answers — or
// after REREAD_MS at the latest, which bounds what a lost LISTEN connection could leave stale. A transaction that
// writes settings reads its own rows from then on; one not made by the executor reads each section once.
import type { Database, Db } from "../../core/db.ts";
import { NotifiedMemo } from "../../core/notified-memo.ts";
import type { Setting } from "../../generated/prisma/client.ts";
import type { ChangeScope } from "../change-scope.ts";

const SETTINGS_CHANNEL = "shop_settings";
const REREAD_MS = 10_000;

/**
 * The rows one process keeps. A miss reads through the asking client (a transaction's own connection), and only a
 * finished read is kept: a transaction never waits for a read on another connection, which may itself wait for a
 * connection that transaction holds (PGlite has one; a pool runs out).
 */
export class SettingRows {
  private readonly memo: NotifiedMemo<string, Setting | null>;

  constructor(database: Pick<Database, "listen">) {
    this.memo = new NotifiedMemo(database, SETTINGS_CHANNEL, REREAD_MS);
  }

  start(): Promise<void> {
    return this.memo.start();
  }

  stop(): Promise<void> {
    return this.memo.stop();
  }

  /** Every section is read again at its next use. */
  forget(): void {
    this.memo.forget();
  }

  row(db: Db, section: string): Promise<Setting | null> {
    return this.memo.get(section, () => db.setting.findUnique({ where: { section } }));
  }
}

/** The process's rows, by the clients that may use them: the shared client and the executor's transactions. */
const kept = new WeakMap<Db, SettingRows>();
/** Rows a transaction read itself: one made outside the executor, or one that wrote settings. */
const seen = new WeakMap<Db, Map<string, Promise<Setting | null>>>();
const wrote = new WeakSet<Db>();

/** Lets `db` (the shared client, or a transaction on it) use the process's rows. */
export function keepSettingRows(db: Db, rows: SettingRows): void {
  kept.set(db, rows);
}

/** A transaction on `parent` uses the rows `parent` uses. */
export function shareSettingRows(tx: Db, parent: Db): void {
  const rows = kept.get(parent);
  if (rows) kept.set(tx, rows);
}

/** The stored row of a section, or null. */
export function settingRow(db: Db, section: string): Promise<Setting | null> {
  const rows = kept.get(db);
  if (rows && !wrote.has(db)) return rows.row(db, section);
  // Only the shared client has $connect; a transaction's client is made for one transaction and dropped after it.
  if (typeof (db as { $connect?: unknown }).$connect === "function") return db.setting.findUnique({ where: { section } });
  let read = seen.get(db);
  if (!read) seen.set(db, (read = new Map()));
  let row = read.get(section);
  if (!row) read.set(section, (row = db.setting.findUnique({ where: { section } })));
  return row;
}

/** A transaction that writes a section reads its rows afresh afterwards. */
export function forgetSettingRows(db: Db): void {
  seen.delete(db);
  wrote.add(db);
}

/** A tool wrote settings: its transaction reads them afresh, and this process forgets its rows on commit. */
export function settingsChanged(ctx: ChangeScope): void {
  forgetSettingRows(ctx.db);
  const rows = kept.get(ctx.db);
  if (rows) ctx.afterCommit(() => rows.forget());
}
