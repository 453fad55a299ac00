// `shop import products FILE`: streams a JSON Lines file (one products.create input per line, with its variants) or
// Shopify's product CSV export, checks each product with products.import's schema, and sends the good ones in batches
// to products.import (one transaction each, so a batch is written whole or not at all). Existing slugs are skipped, so
// an interrupted import is run again as it was; refused lines are reported with their line numbers and reasons.
import fs from "node:fs";
import readline from "node:readline";
import { parse } from "csv-parse";
import type { z } from "zod";
import { issuesOf } from "../tools/products/import-batch.ts";
import { importItem } from "../tools/products/schemas.ts";
import { SHOPIFY_COLUMNS, shopifyProduct, type ShopifyRow } from "./shopify-products.ts";

export type ImportFormat = "jsonl" | "shopify";

type Item = z.input<typeof importItem>;

/** What products.import answers for one batch. */
interface BatchResult {
  created: Array<{ index: number }>;
  skipped: Array<{ index: number }>;
  refused: Array<{ index: number; reason: string }>;
}

export interface ImportOptions {
  format: ImportFormat;
  batchSize: number;
  /** How often a progress line is written to `progress`. */
  progressMs: number;
  send(items: Item[]): Promise<BatchResult>;
  progress(line: string): void;
}

export interface ImportSummary {
  created: number;
  skipped: number;
  refused: Array<{ line: number; reason: string }>;
  seconds: number;
}

/** The format of a file: by its extension, else by its first character ("{" for JSON Lines). */
export async function formatOf(file: string): Promise<ImportFormat> {
  if (/\.(jsonl|ndjson|json)$/i.test(file)) return "jsonl";
  if (/\.csv$/i.test(file)) return "shopify";
  const handle = await fs.promises.open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    return buffer.subarray(0, bytesRead).toString("utf8").replace(/^\uFEFF/, "").trimStart().startsWith("{") ? "jsonl" : "shopify";
  } finally {
    await handle.close();
  }
}

export async function importProductFile(file: string, options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const size = (await fs.promises.stat(file)).size;
  const stream = fs.createReadStream(file);
  const summary: ImportSummary = { created: 0, skipped: 0, refused: [], seconds: 0 };
  let line = 0;
  let batch: Array<{ line: number; item: Item }> = [];
  const flush = async () => {
    if (!batch.length) return;
    const sent = batch;
    batch = [];
    const result = await sendTwice(options, sent.map((entry) => entry.item));
    if ("error" in result) {
      summary.refused.push(...sent.map((entry) => ({ line: entry.line, reason: result.error })));
      return;
    }
    summary.created += result.created.length;
    summary.skipped += result.skipped.length;
    summary.refused.push(...result.refused.map((refusal) => ({ line: sent[refusal.index]!.line, reason: refusal.reason })));
  };
  const ticker = setInterval(() => {
    const rate = Math.round(summary.created / Math.max(1, (Date.now() - started) / 1000));
    options.progress(
      `import: line ${line.toLocaleString("en")} (${Math.round((stream.bytesRead / Math.max(1, size)) * 100)} % of the file), ` +
        `${summary.created.toLocaleString("en")} created, ${summary.skipped.toLocaleString("en")} skipped, ${summary.refused.length} refused, ${rate.toLocaleString("en")} products/s`,
    );
  }, options.progressMs);
  try {
    for await (const entry of options.format === "jsonl" ? jsonLines(stream) : shopifyProducts(stream)) {
      line = entry.line;
      if ("reason" in entry) {
        summary.refused.push({ line: entry.line, reason: entry.reason });
        continue;
      }
      const checked = importItem.safeParse(entry.item);
      if (!checked.success) {
        summary.refused.push({ line: entry.line, reason: issuesOf(checked.error, options.format === "shopify" ? SHOPIFY_COLUMNS : {}) });
        continue;
      }
      batch.push({ line: entry.line, item: entry.item as Item });
      if (batch.length >= options.batchSize) await flush();
    }
    await flush();
  } finally {
    clearInterval(ticker);
    stream.destroy();
  }
  summary.seconds = (Date.now() - started) / 1000;
  // Refusals of the schema come as lines are read, the batch's own when its batch is written: in file order.
  summary.refused.sort((a, b) => a.line - b.line);
  return summary;
}

/** Sends a batch; a batch that fails (a slug taken by another writer meanwhile) is sent once more, then given up. */
async function sendTwice(options: ImportOptions, items: Item[]): Promise<BatchResult | { error: string }> {
  try {
    return await options.send(items);
  } catch {
    try {
      return await options.send(items);
    } catch (error) {
      return { error: `its batch was not written: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

type Entry = { line: number; item: unknown } | { line: number; reason: string };

async function* jsonLines(stream: fs.ReadStream): AsyncGenerator<Entry> {
  let line = 0;
  for await (const text of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
    line++;
    const trimmed = (line === 1 ? text.replace(/^\uFEFF/, "") : text).trim();
    if (!trimmed) continue;
    try {
      yield { line, item: JSON.parse(trimmed) };
    } catch (error) {
      yield { line, reason: `not JSON: ${(error as Error).message}` };
    }
  }
}

/** Shopify's rows grouped by Handle (a product's rows follow each other), each group with the line of its first row. */
async function* shopifyProducts(stream: fs.ReadStream): AsyncGenerator<Entry> {
  const parser = stream.pipe(parse({ columns: true, bom: true, info: true, skip_empty_lines: true, relax_column_count: true }));
  let group: ShopifyRow[] = [];
  let first = 0;
  /** The line the last record ended on (a quoted Body (HTML) may span lines): the next one starts after it. */
  let end = 1;
  const product = (): Entry => {
    const made = shopifyProduct(group);
    return "item" in made ? { line: first, item: made.item } : { line: first, reason: made.reason };
  };
  for await (const { record, info } of parser as AsyncIterable<{ record: ShopifyRow; info: { lines: number } }>) {
    const start = end + 1;
    end = info.lines;
    const handle = (record.Handle ?? "").trim();
    if (!handle) {
      yield { line: start, reason: "no Handle" };
      continue;
    }
    if (group.length && handle !== (group[0]!.Handle ?? "").trim()) {
      yield product();
      group = [];
    }
    if (!group.length) first = start;
    group.push(record);
  }
  if (group.length) yield product();
}
