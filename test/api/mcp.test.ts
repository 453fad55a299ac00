// The MCP door over plain JSON-RPC POSTs (no SDK, no Accept header): lifecycle, listings, calls, refusals, protocol faults.
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { compactAnnotations } from "../../src/api/mcp-tools.ts";
import { describeTool } from "../../src/tools/describe.ts";
import type { Invocation } from "../../src/tools/executor.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { mcpCall, mcpCallRaw, rpc } from "../support/mcp.ts";
import { startServer, useServer } from "../support/server.ts";

const RATE_HEADERS = ["ratelimit-policy", "ratelimit", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"];

const { server } = useServer();

const listTools = async (key?: string) => {
  const response = await rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/list" }, key ? { key } : {});
  expect(response.status).toBe(200);
  return (response.body.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
};
const guarded = (): AnyTool => {
  const tool = server.runtime.registry.tools.find((candidate) => !candidate.anonymous && candidate.examples.length > 0);
  if (!tool) throw new Error("the registry has no tool that needs a key");
  return tool;
};

describe("POST /api/mcp as plain JSON", () => {
  it("answers tools/list without initialize or Accept header in application/json, listing the anonymous tools", async () => {
    const response = await rpc(server, { jsonrpc: "2.0", id: 7, method: "tools/list" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    for (const header of RATE_HEADERS) expect(response.headers.get(header), header).not.toBeNull();
    expect(response.body).toMatchObject({ jsonrpc: "2.0", id: 7 });
    const tools = (response.body.result as { tools: Array<Record<string, unknown> & { name: string }> }).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(["categories.list", "checkout.cancel", "checkout.complete", "checkout.create", "checkout.get", "checkout.get_order", "checkout.update", "giftcards.get", "products.get", "products.get_safety", "products.lookup", "products.search", "returns.policy", "returns.withdraw", "staff.request_password_reset", "staff.set_password", "support.create_ticket"]);
    for (const tool of tools) {
      const registered = describeTool(server.runtime.registry.get(tool.name)!);
      expect(tool.description).toBe(registered.description);
      expect(tool.annotations).toEqual(compactAnnotations(registered.annotations));
      expect(Object.keys(tool.inputSchema as object)).toEqual(expect.arrayContaining(["type", "properties"]));
      expect(tool.outputSchema).toBeUndefined();
    }
  });

  it("lists exactly the tools a key may call", async () => {
    const all = server.runtime.registry.tools.map((tool) => tool.name).sort();
    expect((await listTools(await server.key("*"))).sort()).toEqual(all);
    const scope = guarded().scope;
    const expected = server.runtime.registry.tools.filter((tool) => tool.anonymous || tool.scope === scope).map((tool) => tool.name);
    expect((await listTools(await server.key(scope))).sort()).toEqual(expected.sort());
  });

  it("negotiates the protocol version on initialize, acknowledges initialized and answers ping", async () => {
    const initialize = (protocolVersion: string) =>
      rpc(server, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    const latest = await initialize(LATEST_PROTOCOL_VERSION);
    expect(latest.status).toBe(200);
    expect(latest.body.result).toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: { name: "shop" } });
    expect(String((latest.body.result as { instructions: string }).instructions)).toMatch(/øre/);
    expect(latest.headers.get("mcp-session-id")).toBeNull();
    for (const older of ["2025-06-18", "2025-03-26", "2024-11-05"]) {
      expect(((await initialize(older)).body.result as { protocolVersion: string }).protocolVersion).toBe(older);
    }
    expect(((await initialize("1999-01-01")).body.result as { protocolVersion: string }).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);

    const initialized = await rpc(server, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(initialized.status).toBe(202);
    expect(initialized.text).toBe("");
    const ping = await rpc(server, { jsonrpc: "2.0", id: "p", method: "ping" });
    expect(ping.body).toEqual({ jsonrpc: "2.0", id: "p", result: {} });
  });

  it("answers curl-style tools/call (form content type, no Accept) with the REST result as structuredContent", async () => {
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const raw = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "products.search", arguments: { limit: 3 } } });
    const response = await rpc(server, undefined, { headers, raw });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const rest = await server.call("products.search", { limit: 3 });
    expect(response.body.result).toEqual({
      content: [{ type: "text", text: JSON.stringify({ result: rest.body.result }) }],
      structuredContent: { result: rest.body.result },
    });
    for (const name of ["products.get", "categories.list"]) {
      const input = server.runtime.registry.get(name)!.examples[0];
      expect((await mcpCall(server, name, input)).body).toEqual((await server.call(name, input)).body);
    }
    const noArguments = await rpc(server, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "categories.list" } });
    expect(noArguments.body.result!.structuredContent).toEqual({ result: (await server.call("categories.list", {})).body.result });
  });

  it("returns refusals as isError results carrying the same problem REST returns", async () => {
    const tool = guarded();
    const input = tool.examples[0];
    const other = tool.scope === "orders:read" ? "pages:read" : "orders:read";
    const cases: Array<[string, unknown, string | undefined, number]> = [
      [tool.name, input, undefined, 401],
      [tool.name, input, await server.key(other), 403],
      ["products.search", { __unknown: 1 }, undefined, 400],
      ["products.search", { limit: 0 }, undefined, 400],
      ["products.get", { slug: "no-such-product" }, undefined, 404],
      ["products.search", {}, "shop_nonsense_xxxxxxxxxxxxxxxxxxxxxxxx", 401],
    ];
    for (const [name, args, key, status] of cases) {
      const raw = await mcpCallRaw(server, name, args, key ? { key } : {});
      expect(raw.status).toBe(200);
      expect(raw.body.result!.isError).toBe(true);
      const mcp = await mcpCall(server, name, args, key ? { key } : {});
      const rest = await server.call(name, args, key ? { key } : {});
      expect(rest.status).toBe(status);
      expect(mcp).toMatchObject({ status, body: rest.body });
    }
  });

  it("answers an invalid key on other methods with HTTP 401 and a Bearer challenge", async () => {
    const response = await rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { key: "shop_nonsense_xxxxxxxxxxxxxxxxxxxxxxxx" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(response.body).toMatchObject({ ok: false, status: 401, code: "unauthorized" });
  });

  it("keeps JSON-RPC errors for protocol faults", async () => {
    const fault = async (raw: string, status: number, code: number) => {
      const response = await rpc(server, undefined, { raw });
      expect(response.status, raw).toBe(status);
      expect(response.body, raw).toMatchObject({ jsonrpc: "2.0", error: { code } });
      return response;
    };
    await fault("{not json", 400, -32700);
    await fault("", 400, -32700);
    await fault(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]), 400, -32600);
    await fault(JSON.stringify({ hello: "world" }), 400, -32600);
    await fault(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/list" }), 200, -32601);
    const unknown = await fault(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "nope.nothing", arguments: {} } }), 200, -32602);
    expect(unknown.body.id).toBe(9);
    expect(unknown.body.error!.message).toMatch(/nope\.nothing/);
    await fault(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "products.search", arguments: [1] } }), 200, -32602);
  });

  it("answers GET and DELETE with 405 and an explanation", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.url}/api/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST, OPTIONS");
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/stateless.*POST/s);
    }
  });

  it("names the acting MCP client in caller.agent: clientInfo in _meta or initialize, else User-Agent, else mcp", async () => {
    const key = await server.key("orders:read");
    const invoke = vi.spyOn(server.runtime.executor, "invoke");
    try {
      await mcpCall(server, "orders.list", { limit: 1 }, { key, headers: { "user-agent": "curl/8.5.0" } });
      await mcpCall(server, "orders.list", { limit: 1 }, { key, headers: { "user-agent": " " } });
      const clientInfo = { "io.modelcontextprotocol/clientInfo": { name: "Claude Code", version: "2.1.0" } };
      await rpc(server, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "orders.list", arguments: { limit: 1 }, _meta: clientInfo } }, { key, headers: { "user-agent": "node" } });
      const agents = invoke.mock.calls.map(([call]: [Invocation]) => [call.door, call.caller.agent, call.caller.agentVersion]);
      expect(agents).toEqual([["mcp", "curl/8.5.0", undefined], ["mcp", "mcp", undefined], ["mcp", "Claude Code", "2.1.0"]]);
    } finally {
      invoke.mockRestore();
    }
    const admit = vi.spyOn(server.runtime.auth, "caller");
    try {
      await rpc(server, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "Claude", version: "1" } } });
      const caller = await admit.mock.results[0]!.value;
      expect(caller.agent).toBe("Claude");
    } finally {
      admit.mockRestore();
    }
  });
});

describe("POST /api/mcp rate limits", () => {
  it("counts MCP requests in the same budget and answers over it with HTTP 429 and a JSON-RPC error carrying retryAfter", async () => {
    const limited = await startServer({ rateLimitAnonPerMin: 2 });
    try {
      expect((await limited.call("products.search", { limit: 1 })).status).toBe(200);
      const last = await rpc(limited, { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(last.headers.get("ratelimit-remaining")).toBe("0");
      for (const message of [
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "products.search", arguments: { limit: 1 } } },
        { jsonrpc: "2.0", id: 3, method: "tools/list" },
      ]) {
        const refused = await rpc(limited, message);
        expect(refused.status).toBe(429);
        expect(refused.headers.get("ratelimit-limit")).toBe("2");
        const retryAfter = Number(refused.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThan(0);
        expect(refused.body).toMatchObject({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: 429, message: expect.stringMatching(/retry in/), data: { retryAfter, status: 429, code: "rate_limited" } },
        });
      }
    } finally {
      await limited.close();
    }
  });
});
