// The UCP door's budgets through real HTTP: a keyless agent is budgeted per client address and, by its profile, as itself,
// so one agent spread over many addresses still meets its limit; other agents and key holders keep theirs.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { shoppingCapabilities } from "../support/ucp-profile.ts";

const LIMIT = 3;
let profiles: http.Server;
let base: string;
beforeAll(async () => {
  profiles = http.createServer((req, res) => res.end(JSON.stringify({ name: req.url, ucp: { version: "2026-04-08", capabilities: shoppingCapabilities() } })));
  await new Promise<void>((resolve) => profiles.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(profiles.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => profiles.close(resolve)));
const { server } = useServer({ config: { ucpAllowLocalProfiles: true, rateLimitAnonPerMin: LIMIT, trustProxy: "127.0.0.1" } });

/** A read of an unknown session (404 once admitted) by `agent`'s profile, from the client address `from`. */
function read(agent: string | null, from: string, key?: string): Promise<Reply> {
  return sendJson(`${server.url}/ucp/checkout-sessions/chk_0000000000000000`, "GET", {
    "X-Forwarded-For": from,
    ...(agent ? { "UCP-Agent": `profile="${base}/${agent}.json"` } : {}),
    ...(key ? { Authorization: `Bearer ${key}` } : {}),
  });
}

describe("UCP budgets", () => {
  it("stops one keyless agent after its budget even from fresh addresses, with the version's 429", async () => {
    for (let i = 1; i <= LIMIT; i++) expect((await read("spread", `203.0.113.${i}`)).status).toBe(404);
    const spent = await read("spread", "203.0.113.99");
    expect(spent.status).toBe(429);
    expect(Number(spent.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(valid(errorResponse, spent).messages[0]).toMatchObject({ code: "rate_limited", content: expect.stringMatching(/this agent/) });
    // Another agent, from an address of its own, still has its budget.
    expect((await read("other", "198.51.100.7")).status).toBe(404);
  });

  it("budgets a keyless caller per address too, and a key holder by its key, not by the profile it names", async () => {
    for (let i = 1; i <= LIMIT; i++) expect((await read(null, "192.0.2.50")).status).toBe(404);
    expect((await read(null, "192.0.2.50")).status).toBe(429);
    const key = await server.key("checkout:agent");
    for (let i = 0; i < LIMIT + 2; i++) expect((await read("spread", "192.0.2.60", key)).status).toBe(404);
  });
});
