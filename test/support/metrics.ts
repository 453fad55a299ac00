// Scrapes GET /metrics and reads samples out of the parsed exposition.
import parsePrometheusTextFormat, { type Family, type Sample } from "parse-prometheus-text-format";
import type { TestServer } from "./server.ts";

export interface Scrape {
  status: number;
  headers: Headers;
  text: string;
  families: Family[];
}

/** GET /metrics (with a Bearer key when given); the families are parsed only from a 200. */
export async function scrape(server: TestServer, key?: string): Promise<Scrape> {
  const response = await fetch(`${server.url}/metrics`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, families: response.status === 200 ? parsePrometheusTextFormat(text) : [] };
}

export function family(scraped: Scrape, name: string): Family | undefined {
  return scraped.families.find((candidate) => candidate.name === name);
}

/** The samples of a family whose labels include all of `labels`. */
export function samples(scraped: Scrape, name: string, labels: Record<string, string> = {}): Sample[] {
  return (family(scraped, name)?.metrics ?? []).filter((sample) => Object.entries(labels).every(([label, value]) => sample.labels?.[label] === value));
}

/** The sum of a counter's or gauge's samples with these labels (0 when there are none). */
export function value(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  return samples(scraped, name, labels).reduce((sum, sample) => sum + Number(sample.value ?? 0), 0);
}

export interface Histogram {
  /** Cumulative counts by upper bound ("0.1", "+Inf"). */
  buckets: Record<string, number>;
  count: number;
}

/**
 * The series of a labelled histogram with exactly these labels. The parser folds every series of a histogram into
 * one (it was written for unlabelled ones), so the family's _bucket and _count lines are parsed as plain samples.
 */
export function histogram(scraped: Scrape, name: string, labels: Record<string, string>): Histogram {
  const lines = scraped.text.split("\n");
  const of = (suffix: string) => lines.filter((line) => line.startsWith(`${name}_${suffix}{`) || line.startsWith(`${name}_${suffix} `));
  // Grouped by name (the parser starts a new family at each change of name) and ended by a newline (it drops a last line without).
  const series = parsePrometheusTextFormat(`${[...of("bucket"), ...of("count")].join("\n")}\n`);
  const matches = (sample: Sample, extra: string[] = []) => {
    const own = Object.keys(sample.labels ?? {}).filter((label) => !extra.includes(label));
    return own.length === Object.keys(labels).length && own.every((label) => sample.labels?.[label] === labels[label]);
  };
  const buckets: Record<string, number> = {};
  for (const sample of series.find((f) => f.name === `${name}_bucket`)?.metrics ?? []) {
    if (matches(sample, ["le"])) buckets[sample.labels!.le!] = Number(sample.value);
  }
  const count = (series.find((f) => f.name === `${name}_count`)?.metrics ?? []).filter((sample) => matches(sample)).reduce((sum, sample) => sum + Number(sample.value), 0);
  return { buckets, count };
}
