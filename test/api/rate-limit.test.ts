// Rate limits: per address for anonymous calls, per key for keyed calls, 429 with Retry-After; Redis shares one budget.
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { REGISTRATIONS_PER_WINDOW } from "../../src/api/oauth/admission.ts";
import { expectProblem } from "../support/expect.ts";
import { rpc } from "../support/mcp.ts";
import { startServer, type TestServer } from "../support/server.ts";

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function start(...args: Parameters<typeof startServer>) {
  const server = await startServer(...args);
  servers.push(server);
  return server;
}

describe("rate limits", () => {
  it("limit anonymous callers per address and keyed callers per key, each with its own budget", async () => {
    const server = await start({ rateLimitAnonPerMin: 3, rateLimitKeyPerMin: 5 });
    for (let i = 0; i < 3; i++) {
      const ok = await server.call("products.search", { limit: 1 });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit-limit")).toBe("3");
      expect(ok.headers.get("ratelimit-remaining")).toBe(String(2 - i));
      expect(ok.headers.get("ratelimit-policy")).toBe('"anonymous";q=3;w=60');
      expect(ok.headers.get("ratelimit")).toMatch(new RegExp(`^"anonymous";r=${2 - i};t=\\d+$`));
    }
    const refused = await server.call("products.search", { limit: 1 });
    expectProblem(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");

    const key = await server.key("catalog:read");
    for (let i = 0; i < 5; i++) expect((await server.call("products.search", { limit: 1 }, { key })).status).toBe(200);
    expectProblem(await server.call("products.search", { limit: 1 }, { key }), 429);
    const other = await server.key("catalog:read");
    expect((await server.call("products.search", { limit: 1 }, { key: other })).headers.get("ratelimit-limit")).toBe("5");
  });

  it("budget failed key authentications per address before any lookup; valid keys and other addresses carry on", async () => {
    const server = await start({ rateLimitAuthFailuresPerMin: 5 });
    const from = (address: string, authorization?: string) => ({ headers: { "x-forwarded-for": address, ...(authorization ? { authorization } : {}) } });
    const known = await server.key("catalog:read");
    const fresh = await server.key("catalog:read");
    expect((await server.call("products.search", { limit: 1 }, from("203.0.113.7", `Bearer ${known}`))).status).toBe(200);
    const wrong = (i: number) => `Bearer shop_abcdefgh_${String(i).padStart(30, "x")}`;
    for (let i = 0; i < 4; i++) expectProblem(await server.call("products.search", {}, from("203.0.113.7", wrong(i))), 401, "unauthorized");
    expectProblem(await server.call("products.search", {}, from("203.0.113.7", "Basic bm9wZQ==")), 401, "unauthorized");

    const blocked = await server.call("products.search", {}, from("203.0.113.7", wrong(99)));
    expectProblem(blocked, 429, "rate_limited");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Refused before the lookup: even a valid key this process has not verified yet waits out the window.
    expectProblem(await server.call("products.search", {}, from("203.0.113.7", `Bearer ${fresh}`)), 429, "rate_limited");
    const mcp = await rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "products.search", arguments: {} } }, from("203.0.113.7", wrong(100)));
    expect(mcp.status).toBe(429);
    expect(Number(mcp.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(mcp.body.error).toMatchObject({ code: 429, data: { retryAfter: expect.any(Number), status: 429, code: "rate_limited" } });

    expect((await server.call("products.search", { limit: 1 }, from("203.0.113.7", `Bearer ${known}`))).status).toBe(200);
    const anonymous = await server.call("products.search", { limit: 1 }, from("203.0.113.7"));
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("ratelimit-remaining")).toBe(String(100_000 - 1));
    expectProblem(await server.call("products.search", {}, from("198.51.100.1", wrong(1))), 401, "unauthorized");
    expect((await server.call("products.search", { limit: 1 }, from("198.51.100.1", `Bearer ${fresh}`))).status).toBe(200);
  });

  it("share the failed-authentication budget with the admin assistant's key door", async () => {
    const server = await start({ rateLimitAuthFailuresPerMin: 3 });
    const from = { "x-forwarded-for": "203.0.113.9" };
    const wrong = (i: number) => ({ ...from, authorization: `Bearer shop_abcdefgh_${String(i).padStart(30, "y")}` });
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/api/v1/chat/admin`, { headers: wrong(i) })).status).toBe(401);
    const chat = await fetch(`${server.url}/api/v1/chat/admin`, { headers: wrong(3) });
    expect(chat.status).toBe(429);
    expect(Number(chat.headers.get("retry-after"))).toBeGreaterThan(0);
    const fresh = await server.key("catalog:read");
    expectProblem(await server.call("products.search", {}, { headers: { ...from, authorization: `Bearer ${fresh}` } }), 429, "rate_limited");
  });

  it("count the authorization server's endpoints per address, and client registrations against a budget of their own", async () => {
    const server = await start({ rateLimitAnonPerMin: 3 });
    const from = (address: string) => ({ "x-forwarded-for": address });
    const metadata = () => fetch(`${server.url}/.well-known/oauth-authorization-server`, { headers: from("203.0.113.20") });
    for (let i = 0; i < 3; i++) expect((await metadata()).status).toBe(200);
    const refused = await metadata();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: "temporarily_unavailable" });

    const open = await start({ rateLimitAnonPerMin: 1000 });
    const register = (address: string) =>
      fetch(`${open.url}/oauth/register`, {
        method: "POST",
        headers: { ...from(address), "content-type": "application/json" },
        body: JSON.stringify({ client_name: "Test", redirect_uris: ["https://client.example/callback"], token_endpoint_auth_method: "none" }),
      });
    for (let i = 0; i < REGISTRATIONS_PER_WINDOW; i++) expect((await register("198.51.100.20")).status).toBe(201);
    const spent = await register("198.51.100.20");
    expect(spent.status).toBe(429);
    expect(await spent.json()).toMatchObject({ error: "temporarily_unavailable" });
    expect(await open.prisma.oAuthRecord.count({ where: { kind: "Client" } })).toBe(REGISTRATIONS_PER_WINDOW);
    expect((await register("198.51.100.21")).status).toBe(201);
  });

  it.skipIf(!process.env.REDIS_URL)("share one budget between two server processes through Redis", async () => {
    const prefix = `shop:test:shared:${crypto.randomBytes(6).toString("hex")}:`;
    const a = await start({ rateLimitAnonPerMin: 4 }, { rateLimitPrefix: prefix });
    const b = await start({ rateLimitAnonPerMin: 4 }, { rateLimitPrefix: prefix });
    expect(a.runtime.limiter.store.constructor.name).toBe("RedisStore");
    const statuses = [];
    for (const server of [a, b, a, b, a, b]) statuses.push((await server.call("products.search", { limit: 1 })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it("keep separate budgets per process with the in-memory store", async () => {
    const a = await start({ rateLimitAnonPerMin: 2, redisUrl: undefined });
    const b = await start({ rateLimitAnonPerMin: 2, redisUrl: undefined });
    expect(a.runtime.limiter.store.constructor.name).toBe("MemoryStore");
    const statuses = [];
    for (const server of [a, b, a, b, a]) statuses.push((await server.call("products.search", { limit: 1 })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
