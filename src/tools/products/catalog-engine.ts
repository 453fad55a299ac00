// The one decision of where the catalogue is searched (docs/operations.md, "Catalogue search"): in the database on
// PostgreSQL, whose indexes make a search cost the same at any catalogue size and keep each process's memory bounded;
// in memory on the embedded PGlite, where every query runs on this process's event loop and the catalogues are small.
import type { Database } from "../../core/db.ts";

export type CatalogEngine = "memory" | "sql";

/**
 * "sql" on PostgreSQL once the catalogue-search migration made its objects there (it makes none where unaccent or an
 * ICU collation is missing, e.g. a server without contrib); "memory" otherwise.
 */
export async function catalogEngine(database: Database): Promise<CatalogEngine> {
  if (database.kind !== "postgres") return "memory";
  const [row] = await database.query<{ ready: boolean }>(
    `SELECT to_regproc('catalog_text') IS NOT NULL AND EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'catalog_order') AS ready`,
  );
  return row?.ready === true ? "sql" : "memory";
}
