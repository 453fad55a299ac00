// `shop feed acp DIR`: the ACP product feed as files (metadata.json, products.jsonl) for platforms that ingest snapshots,
// the same bytes GET /acp/feed/… serves, read from a catalogue read model loaded once (never started: no LISTEN).
import fs from "node:fs/promises";
import path from "node:path";
import { AcpFeed } from "../api/acp/feed.ts";
import { loadConfig } from "../core/config.ts";
import type { Database } from "../core/db.ts";
import { createLogger } from "../core/log.ts";
import { CatalogReadModel } from "../tools/products/read-model.ts";

export async function writeAcpFeed(database: Database, dir: string): Promise<{ count: number; files: string[] }> {
  const config = loadConfig();
  const catalog = new CatalogReadModel(database, createLogger(config.logLevel));
  await catalog.reload();
  const files = await new AcpFeed(catalog, database.prisma, config.publicBaseUrl, () => new Date()).files();
  await fs.mkdir(dir, { recursive: true });
  const written = [path.join(dir, "metadata.json"), path.join(dir, "products.jsonl")];
  await fs.writeFile(written[0]!, `${files.metadata}\n`);
  await fs.writeFile(written[1]!, files.products);
  return { count: files.count, files: written };
}
