// TRUST_PROXY: which peers may name the client's address (X-Forwarded-For) for rate limits, over REST and socket.io.
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config.ts";
import { connect } from "../support/chat.ts";
import { startServer, type TestServer } from "../support/server.ts";

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function start(trustProxy: string) {
  const server = await startServer({ trustProxy, rateLimitAnonPerMin: 2, rateLimitAuthFailuresPerMin: 2 });
  servers.push(server);
  return server;
}

/** The statuses of anonymous searches, each from the X-Forwarded-For chain given. */
async function searches(server: TestServer, chains: string[]): Promise<number[]> {
  const statuses = [];
  for (const chain of chains) statuses.push((await server.call("products.search", { limit: 1 }, { headers: { "x-forwarded-for": chain } })).status);
  return statuses;
}

/** What a socket.io handshake with a wrong admin key answers, from the X-Forwarded-For given: 401, or 429 once the address's budget is spent. */
async function wrongKeyHandshake(server: TestServer, forwardedFor: string): Promise<unknown> {
  const error = await connect(server, "admin", { token: `shop_abcdefgh_${"y".repeat(30)}`, headers: { "x-forwarded-for": forwardedFor } }).then(
    () => expect.unreachable("a wrong key connected"),
    (failure: { data?: { status?: number } }) => failure,
  );
  return (error as { data?: { status?: number } }).data?.status;
}

describe("TRUST_PROXY", () => {
  it("trusts loopback proxies by default: each forwarded client has its own budget", async () => {
    const server = await start(loadConfig({}).trustProxy);
    expect(await searches(server, ["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.1"])).toEqual([200, 200, 200, 429]);
    // A forged address in front of a real one: loopback trusts only itself, so the client is the last hop's address.
    expect(await searches(server, ["10.9.9.9, 203.0.113.3", "10.9.9.8, 203.0.113.3", "203.0.113.3"])).toEqual([200, 200, 429]);
  });

  it("believes no X-Forwarded-For with none: every client shares the peer's budget", async () => {
    const server = await start("none");
    expect(await searches(server, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])).toEqual([200, 200, 429]);
  });

  it("takes addresses and CIDR ranges: a peer outside them cannot speak for the client", async () => {
    const server = await start("10.0.0.0/8, 192.168.1.1");
    expect(await searches(server, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])).toEqual([200, 200, 429]);
  });

  it("takes a hop count: that many proxies in front, the address before them is the client", async () => {
    const server = await start("2");
    // Peer (hop 0) and the last forwarded address (hop 1) are proxies; the one before them is the client.
    expect(await searches(server, ["203.0.113.1, 10.0.0.1", "203.0.113.1, 10.0.0.2", "203.0.113.2, 10.0.0.1", "203.0.113.1, 10.0.0.3"])).toEqual([200, 200, 200, 429]);
  });

  it("rules the socket.io handshake too: a spent key-failure budget is the forwarded client's, not everyone's", async () => {
    const trusting = await start("loopback");
    expect([await wrongKeyHandshake(trusting, "203.0.113.7"), await wrongKeyHandshake(trusting, "203.0.113.7")]).toEqual([401, 401]);
    expect(await wrongKeyHandshake(trusting, "203.0.113.7")).toBe(429);
    expect(await wrongKeyHandshake(trusting, "203.0.113.8")).toBe(401);
    const distrusting = await start("none");
    expect([await wrongKeyHandshake(distrusting, "203.0.113.7"), await wrongKeyHandshake(distrusting, "203.0.113.7")]).toEqual([401, 401]);
    expect(await wrongKeyHandshake(distrusting, "203.0.113.8")).toBe(429);
  });

  it("refuses a setting it cannot read at start-up, with one line naming TRUST_PROXY", () => {
    for (const bad of ["yes", "300.1.1.1", "10.0.0.0/99", "-1"]) expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/^TRUST_PROXY must be/);
    expect(loadConfig({ TRUST_PROXY: " 1 " }).trustProxy).toBe("1");
  });
});
