// GET /metrics: who may read it, and that requests, tool calls, 404s and 429s through the real doors show up in it
// with bounded labels.
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { expectProblem } from "../support/expect.ts";
import { family, histogram, scrape, value, type Scrape } from "../support/metrics.ts";
import { mcpCallRaw } from "../support/mcp.ts";
import { startServer, useServer, type CallResult, type TestServer } from "../support/server.ts";

const { server, keys } = useServer({
  keys: { reader: ["metrics:read"], admin: ["*"], orders: ["orders:read"], catalog: ["catalog:read"] },
});

/** A scrape that must succeed. */
async function metrics(key = keys.reader): Promise<Scrape> {
  const scraped = await scrape(server, key);
  if (scraped.status !== 200) throw new Error(`GET /metrics answered ${scraped.status}: ${scraped.text}`);
  return scraped;
}

/** A refused scrape as a CallResult, for expectProblem. */
async function refused(key?: string): Promise<CallResult> {
  const scraped = await scrape(server, key);
  return { status: scraped.status, headers: scraped.headers, body: JSON.parse(scraped.text) as CallResult["body"] };
}

describe("GET /metrics", () => {
  it("needs a Bearer key with metrics:read or *: 401 without one, 403 with another scope", async () => {
    const anonymous = await refused();
    expectProblem(anonymous, 401, "unauthorized");
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expectProblem(await refused("shop_abcdefgh_notarealkeynotarealkeynotareal"), 401, "unauthorized");
    const other = await refused(keys.orders);
    expectProblem(other, 403, "forbidden");
    expect(other.body.detail).toContain("metrics:read");

    for (const key of [keys.reader, keys.admin]) {
      const scraped = await scrape(server, key);
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(family(scraped, "http_requests_total")?.type).toBe("COUNTER");
    }
    // The refusals were answered and counted like any request of the metrics door.
    const after = await metrics();
    expect(value(after, "http_requests_total", { door: "metrics", route: "/metrics", method: "GET", status: "401" })).toBeGreaterThanOrEqual(2);
    expect(value(after, "http_requests_total", { door: "metrics", route: "/metrics", method: "GET", status: "403" })).toBeGreaterThanOrEqual(1);
  });

  it("counts REST and MCP requests by door, route and status, and their tool calls by tool and outcome", async () => {
    const before = await metrics();
    const rest = await server.call("orders.list", {}, { key: keys.orders });
    expect(rest.status).toBe(200);
    const mcp = await mcpCallRaw(server, "orders.list", {}, { key: keys.orders });
    expect(mcp.status).toBe(200);
    expect(mcp.body.result?.isError).toBeFalsy();
    const after = await metrics();

    const restRequest = { door: "rest", route: "orders.list", method: "POST", status: "200" };
    expect(value(after, "http_requests_total", restRequest) - value(before, "http_requests_total", restRequest)).toBe(1);
    const mcpRequest = { door: "mcp", route: "/api/mcp", method: "POST", status: "200" };
    expect(value(after, "http_requests_total", mcpRequest) - value(before, "http_requests_total", mcpRequest)).toBe(1);
    const ok = { tool: "orders.list", outcome: "ok" };
    expect(value(after, "shop_tool_calls_total", ok) - value(before, "shop_tool_calls_total", ok)).toBe(2);
    const duration = (scraped: Scrape) => histogram(scraped, "shop_tool_call_duration_seconds", { tool: "orders.list" }).count;
    expect(duration(after) - duration(before)).toBe(2);
  });

  it("counts failed tool calls by their error class, and never makes an unknown tool name a label", async () => {
    const before = await metrics();
    expectProblem(await server.call("orders.list", { bogus: 1 }, { key: keys.orders }), 400, "invalid_input");
    expectProblem(await server.call("orders.list", {}, { key: keys.catalog }), 403, "forbidden");
    const unknown = `no.such_tool_${crypto.randomBytes(4).toString("hex")}`;
    expectProblem(await server.call(unknown, {}, { key: keys.orders }), 404, "not_found");
    const after = await metrics();

    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(delta("shop_tool_calls_total", { tool: "orders.list", outcome: "invalid" })).toBe(1);
    expect(delta("shop_tool_calls_total", { tool: "orders.list", outcome: "forbidden" })).toBe(1);
    expect(delta("shop_tool_calls_total", { tool: "unknown", outcome: "not_found" })).toBe(1);
    expect(delta("http_requests_total", { door: "rest", route: "orders.list", status: "400" })).toBe(1);
    expect(delta("http_requests_total", { door: "rest", route: "orders.list", status: "403" })).toBe(1);
    expect(delta("http_requests_total", { door: "rest", route: "/api/v1/tools/:name", status: "404" })).toBe(1);
    expect(after.text).not.toContain(unknown);
  });

  it("counts 404s of the API and of the pages under a fixed route, never the raw path", async () => {
    const before = await metrics();
    const id = crypto.randomBytes(6).toString("hex");
    const api = await fetch(`${server.url}/api/v1/nothing-${id}?q=${id}`);
    expect(api.status).toBe(404);
    await api.text();
    const page = await fetch(`${server.url}/products/missing-${id}`);
    expect(page.status).toBe(404);
    await page.text();
    const after = await metrics();

    const apiLabels = { door: "other", route: "unmatched", method: "GET", status: "404" };
    expect(value(after, "http_requests_total", apiLabels) - value(before, "http_requests_total", apiLabels)).toBe(1);
    const pageLabels = { door: "web", route: "/products/:slug", method: "GET", status: "404" };
    expect(value(after, "http_requests_total", pageLabels) - value(before, "http_requests_total", pageLabels)).toBe(1);
    expect(after.text).not.toContain(id);
  });

  it("has the latency histograms with their buckets, the process metrics and the pool gauge on PostgreSQL", async () => {
    await server.call("orders.list", {}, { key: keys.orders });
    const scraped = await metrics();
    const latency = family(scraped, "http_request_duration_seconds");
    expect(latency?.type).toBe("HISTOGRAM");
    const rest = histogram(scraped, "http_request_duration_seconds", { door: "rest", route: "orders.list", method: "POST" });
    expect(Object.keys(rest.buckets)).toEqual(expect.arrayContaining(["0.001", "0.1", "1", "+Inf"]));
    expect(rest.buckets["+Inf"]).toBe(rest.count);
    expect(rest.count).toBeGreaterThanOrEqual(1);
    // Cumulative: no bucket counts more than a wider one.
    const counts = Object.entries(rest.buckets).sort(([a], [b]) => Number(a) - Number(b)).map(([, count]) => count);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(family(scraped, "shop_tool_call_duration_seconds")?.type).toBe("HISTOGRAM");
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_seconds"]) {
      expect(family(scraped, name), name).toBeDefined();
    }
    for (const name of ["shop_chat_turns_total", "shop_chat_tokens_total", "shop_webhook_deliveries_total", "shop_rate_limit_refusals_total"]) {
      expect(family(scraped, name)?.type, name).toBe("COUNTER");
    }
    const pool = family(scraped, "shop_db_pool_connections");
    if (server.database.kind === "postgres") {
      expect(pool?.type).toBe("GAUGE");
      expect(value(scraped, "shop_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    } else {
      // The embedded database has no pool to report.
      expect(pool).toBeUndefined();
    }
  });
});

describe("METRICS_PUBLIC=1 and rate-limit refusals", () => {
  const servers: TestServer[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it("opens /metrics without a key and counts 429s by door and budget", async () => {
    const open = await startServer({ metricsPublic: true, rateLimitKeyPerMin: 2, rateLimitAuthFailuresPerMin: 1 });
    servers.push(open);
    const key = await open.key("orders:read");
    for (let i = 0; i < 2; i++) expect((await open.call("orders.list", {}, { key })).status).toBe(200);
    expectProblem(await open.call("orders.list", {}, { key }), 429, "rate_limited");
    const guess = { headers: { "x-forwarded-for": "203.0.113.9", authorization: "Bearer shop_abcdefgh_notarealkeynotarealkeynotareal" } };
    expectProblem(await open.call("orders.list", {}, guess), 401, "unauthorized");
    expectProblem(await open.call("orders.list", {}, guess), 429, "rate_limited");

    const scraped = await scrape(open);
    expect(scraped.status).toBe(200);
    expect(value(scraped, "shop_rate_limit_refusals_total", { door: "rest", kind: "key" })).toBe(1);
    expect(value(scraped, "shop_rate_limit_refusals_total", { door: "rest", kind: "auth" })).toBe(1);
    expect(value(scraped, "http_requests_total", { door: "rest", route: "orders.list", status: "429" })).toBe(2);
    // A refused request never reached the executor.
    expect(value(scraped, "shop_tool_calls_total", { tool: "orders.list" })).toBe(2);
  });
});
