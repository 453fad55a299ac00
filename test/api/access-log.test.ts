// The access log: one JSON line per answered request on stdout (LOG_LEVEL info), naming door, caller kind and the
// request id the door answered with, and never the query string.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rpc } from "../support/mcp.ts";
import { startServer, useServer } from "../support/server.ts";

const { server, keys } = useServer({ config: { logLevel: "info" }, keys: { orders: ["orders:read"] } });

interface AccessLine {
  time: string;
  level: string;
  message: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  door: string;
  caller: string;
  requestId: string;
}

let written: string[] = [];
beforeEach(() => {
  written = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    if (text.includes('"message":"request"')) {
      written.push(text);
      return true;
    }
    return write(chunk, ...(rest as []));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The access lines written so far, each parsed; waits (bounded) until `count` have been written. */
async function lines(count: number): Promise<AccessLine[]> {
  for (let i = 0; i < 100 && written.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return written.map((text) => {
    expect(text.endsWith("\n")).toBe(true);
    expect(text.indexOf("\n")).toBe(text.length - 1);
    return JSON.parse(text) as AccessLine;
  });
}

describe("access log", () => {
  it("writes one JSON line per request with door, caller and the answered request id, the path without its query", async () => {
    const rest = await server.call("orders.list", {}, { key: keys.orders, headers: { "x-request-id": "rest-call-1" } });
    expect(rest.status).toBe(200);
    const mcp = await rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "orders.list", arguments: {} } }, {
      key: keys.orders,
      headers: { "user-agent": "log-test-agent" },
    });
    expect(mcp.status).toBe(200);
    const page = await fetch(`${server.url}/search?q=secret-term&page=2`);
    expect(page.status).toBe(200);
    await page.text();
    const anonymous = await server.call("orders.list", {});
    expect(anonymous.status).toBe(401);
    const ucp = await fetch(`${server.url}/ucp/checkout-sessions/missing?token=abc`);
    await ucp.text();

    const [restLine, mcpLine, pageLine, anonymousLine, ucpLine, ...more] = await lines(5);
    expect(more).toEqual([]);
    for (const line of [restLine!, mcpLine!, pageLine!, anonymousLine!, ucpLine!]) {
      expect(Object.keys(line).sort()).toEqual(["caller", "door", "durationMs", "level", "message", "method", "path", "requestId", "status", "time"]);
      expect(line.level).toBe("info");
      expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(line.durationMs).toBeGreaterThan(0);
      expect(line.requestId).toMatch(/^[\w.:-]+$/);
    }
    expect(restLine).toMatchObject({ method: "POST", path: "/api/v1/tools/orders.list", status: 200, door: "rest", caller: "key", requestId: "rest-call-1" });
    // An MCP client acting through a key is an agent.
    expect(mcpLine).toMatchObject({ method: "POST", path: "/api/mcp", status: 200, door: "mcp", caller: "agent" });
    expect(pageLine).toMatchObject({ method: "GET", path: "/search", status: 200, door: "web" });
    expect(JSON.stringify(pageLine)).not.toContain("secret-term");
    expect(anonymousLine).toMatchObject({ status: 401, door: "rest", caller: "anonymous" });
    // The id in the line is the one the door answered with (UCP echoes it as Request-Id).
    expect(ucpLine).toMatchObject({ method: "GET", path: "/ucp/checkout-sessions/missing", status: ucp.status, door: "ucp" });
    expect(ucpLine!.requestId).toBe(ucp.headers.get("request-id"));
  });
});

describe("access log below LOG_LEVEL info", () => {
  it("writes nothing at warn", async () => {
    const quiet = await startServer({ logLevel: "warn" });
    try {
      expect((await quiet.call("orders.list", {})).status).toBe(401);
      const page = await fetch(`${quiet.url}/search?q=x`);
      await page.text();
      // Time for a finish listener to run after the answer arrived.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await lines(0)).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
