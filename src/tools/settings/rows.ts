// Setting rows as a write tool's transaction reads them: each section once per transaction (pricing, the order, the
// payment and the protocol doors each asked for the commerce and shipping sections again). The shared client reads every
// time, since another process may have written meanwhile.
import type { Db } from "../../core/db.ts";
import type { Setting } from "../../generated/prisma/client.ts";

const seen = new WeakMap<Db, Map<string, Promise<Setting | null>>>();

/** The stored row of a section, or null. */
export function settingRow(db: Db, section: string): Promise<Setting | null> {
  // Only the shared client has $connect; a transaction's client is made for one transaction and dropped after it.
  if (typeof (db as { $connect?: unknown }).$connect === "function") return db.setting.findUnique({ where: { section } });
  let rows = seen.get(db);
  if (!rows) seen.set(db, (rows = new Map()));
  let row = rows.get(section);
  if (!row) rows.set(section, (row = db.setting.findUnique({ where: { section } })));
  return row;
}

/** A transaction that writes a section reads it afresh afterwards. */
export function forgetSettingRows(db: Db): void {
  seen.delete(db);
}
