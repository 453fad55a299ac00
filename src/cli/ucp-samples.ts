// Reads a UCP samples directory for `shop import ucp-samples`: its CSV files, and the currency (the option, else the
// conformance input's "currency" when the directory has one, else USD, the samples' own).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Invalid } from "../core/errors.ts";
import type { SampleFiles } from "../tools/import/ucp-samples.ts";

const NAMES = ["products", "inventory", "customers", "addresses", "discounts", "promotions", "shipping_rates"] as const;

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export async function readSampleDir(dir: string, currency: string | undefined): Promise<{ files: SampleFiles; currency: string }> {
  const root = path.resolve(dir);
  const files: SampleFiles = {};
  for (const name of NAMES) {
    const text = await readIfThere(path.join(root, `${name}.csv`));
    if (text !== undefined) files[name] = text;
  }
  if (files.products === undefined) throw new Invalid(`${root} has no products.csv.`);
  if (currency) return { files, currency: currency.toUpperCase() };
  const input = await readIfThere(path.join(root, "conformance_input.json"));
  const named = input ? (JSON.parse(input) as { currency?: unknown }).currency : undefined;
  return { files, currency: typeof named === "string" ? named.toUpperCase() : "USD" };
}
