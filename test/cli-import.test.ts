// `shop import products` as a real process on a copy of the demo shop (PGlite data directory, or a PostgreSQL database):
// a JSON Lines file and a Shopify product CSV with good and refused lines, each imported twice (a re-run skips what exists).
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/core/db.ts";
import { processDatabase } from "./support/server.ts";

const run = promisify(execFile);
const FIXTURES = path.resolve("test/fixtures/import");
let env: NodeJS.ProcessEnv;
/** The PostgreSQL database the CLI writes; on PGlite the data directory is opened between CLI runs instead. */
let postgres: Database | undefined;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  // On PostgreSQL the database stays open for reading; on PGlite it is the run's template unpacked into a directory.
  const own = await processDatabase(async (database) => database);
  env = { ...process.env, DATABASE_URL: "", ...own.env, LOG_LEVEL: "silent" };
  postgres = "DATABASE_URL" in own.env ? own.arranged : undefined;
  cleanup = own.drop;
});
afterAll(() => cleanup());

/** Runs `shop import products FILE`: exit code, stdout and stderr (refused lines exit 1). */
async function importFile(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = ["bin/shop.js", "import", "products", path.join(FIXTURES, file)];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { env, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Reads the database the CLI wrote (on PGlite between CLI runs: one process holds a data directory at a time). */
async function withReader<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  if (postgres) return fn(postgres);
  const db = await openDatabase({ dataDir: env.DATA_DIR! });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describe("shop import products", () => {
  it("imports JSON Lines, reports refused lines with their numbers, and skips what exists when run again", { timeout: 300_000 }, async () => {
    const first = await importFile("products.jsonl");
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout).toMatch(/^Imported 2 products from products\.jsonl \(jsonl\) in [\d.]+ s \(\d+\/s\); 1 skipped \(their slugs exist\), 4 lines refused\.$/m);
    const refusals = first.stdout.split("\n").filter((line) => line.startsWith("line "));
    expect(refusals).toEqual([
      expect.stringMatching(/^line 3: not JSON/),
      expect.stringMatching(/^line 4: priceDkk: /),
      'line 7: No category with id "no-such-category".',
      "line 8: variants: Variant SKUs must be distinct",
    ]);
    const written = await withReader(async (db) => {
      const products = await db.prisma.product.findMany({ where: { slug: { in: ["fjord-panto-import", "skagen-solbrille-import"] } }, include: { variants: { orderBy: { sku: "asc" } }, images: { orderBy: { position: "asc" } }, category: true }, orderBy: { slug: "asc" } });
      const entries = await db.prisma.auditEntry.findMany({ where: { tool: "products.import" } });
      return { products, entries, count: await db.prisma.product.count() };
    });
    expect(written.products.map((p) => [p.slug, p.category.slug, p.featured, p.variants.map((v) => [v.sku, v.priceDkk, v.stock]), p.images.map((i) => i.url)])).toEqual([
      ["fjord-panto-import", "importerede-stel", false, [["fjord-panto-48", null, 2n], ["fjord-panto-51", 92900n, 3n]], ["https://cdn.example.dk/fjord-panto-1.jpg", "https://cdn.example.dk/fjord-panto-2.jpg"]],
      ["skagen-solbrille-import", "solbriller", true, [], []],
    ]);
    expect(written.products[0]!.category.name).toBe("Importerede stel");
    // One entry for the batch and one for the category it created.
    expect(written.entries.map((entry) => [entry.actor, entry.door, entry.subjectType]).sort()).toEqual([["system:cli", "cli", "category"], ["system:cli", "cli", "productImport"]]);

    const again = await importFile("products.jsonl");
    expect(again.stdout).toMatch(/^Imported 0 products from products\.jsonl \(jsonl\) in [\d.]+ s \(\d+\/s\); 3 skipped \(their slugs exist\), 4 lines refused\.$/m);
    expect(await withReader((db) => db.prisma.product.count())).toBe(written.count);
  });

  it("imports Shopify's product CSV: variants by option, prices in kroner, HTML as text, drafts, refusals by column", { timeout: 300_000 }, async () => {
    const first = await importFile("shopify-products.csv");
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout).toMatch(/^Imported 2 products from shopify-products\.csv \(shopify\) in [\d.]+ s \(\d+\/s\); 0 skipped \(their slugs exist\), 2 lines refused\.$/m);
    expect(first.stdout.split("\n").filter((line) => line.startsWith("line "))).toEqual([
      expect.stringMatching(/^line 6: Body \(HTML\): /),
      'line 7: Variant Price "gratis" is no amount (e.g. 199.95).',
    ]);
    const [kasket, etui] = await withReader((db) =>
      db.prisma.product.findMany({ where: { slug: { in: ["nordisk-kasket", "enkelt-etui"] } }, include: { variants: { orderBy: { sku: "asc" } }, images: { orderBy: { position: "asc" } }, category: true }, orderBy: { slug: "desc" } }),
    );
    expect(kasket).toMatchObject({ name: "Nordisk Kasket", description: "Varm kasket i uld & bomuld.\nSyet i Danmark.", brand: "Fjord", priceDkk: 19995n, stock: 7n, draft: false, attributes: { tags: "vinter, uld" } });
    expect(kasket!.category).toMatchObject({ slug: "hovedbeklaedning", name: "Hovedbeklædning" });
    expect(kasket!.variants.map((v) => [v.sku, v.attributes, v.priceDkk, v.stock])).toEqual([["KASKET-M", { Størrelse: "M" }, 20995n, 4n], ["KASKET-S", { Størrelse: "S" }, null, 3n]]);
    expect(kasket!.images.map((i) => [i.url, i.alt])).toEqual([["https://cdn.example.dk/kasket-1.jpg", "Kasket forfra"], ["https://cdn.example.dk/kasket-2.jpg", "Kasket fra siden"]]);
    expect(etui).toMatchObject({ priceDkk: 9900n, stock: 10n, draft: true, variants: [] });
    expect(etui!.category.slug).toBe("tilbehoer");

    const again = await importFile("shopify-products.csv");
    expect(again.stdout).toMatch(/Imported 0 products .*; 2 skipped \(their slugs exist\), 2 lines refused\./);
  });
});
