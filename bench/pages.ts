// Storefront rows of `npm run bench`: GET / and GET /products/<slug> as a returning shopper (session cookie) sees
// them, at the same 64 connections as the other rows. Kept apart from the search rows so both evolve independently.
import autocannon from "autocannon";

export interface PageRow {
  target: string;
  req: number;
  p50: number;
  p99: number;
  errors: number;
}

async function get(url: string, cookie: string, connections: number, duration: number): Promise<Omit<PageRow, "target">> {
  const result = await autocannon({ url, method: "GET", headers: { cookie }, connections, duration });
  return { req: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

/** Measures the storefront pages of a running server; `label` names the database and catalogue size. */
export async function measurePages(base: string, label: string, connections: number, duration: number): Promise<PageRow[]> {
  const session = await fetch(`${base}/api/v1/session`, { method: "POST" });
  const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0]!;
  const found = await fetch(`${base}/api/v1/tools/products.search`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"inStock":true,"limit":1}' });
  const slug = ((await found.json()) as { result: Array<{ slug: string }> }).result[0]!.slug;
  const targets: Array<[string, string]> = [
    ["GET /", `${base}/`],
    ["GET /products/<slug>", `${base}/products/${slug}`],
  ];
  const rows: PageRow[] = [];
  for (const [name, url] of targets) {
    await get(url, cookie, connections, Math.min(duration, 3)); // warm-up: JIT, the chrome and the product's details
    rows.push({ target: `${name} — ${label}`, ...(await get(url, cookie, connections, duration)) });
    console.error(rows.at(-1));
  }
  return rows;
}
