// MCP 2026-07-28 on /api/mcp beside the 2025 era: discovery, per-request _meta, header checks, version errors, the
// fast path answering exactly as the SDK does, and the acting client recorded on orders, audit entries and analytics.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc, type RpcResult } from "../support/mcp.ts";
import { startServer, type TestServer } from "../support/server.ts";

const MODERN = "2026-07-28";
const CLIENT = { name: "Claude Code", version: "2.1.0" };
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": CLIENT,
};

let fast: TestServer;
let sdkOnly: TestServer;
beforeAll(async () => {
  [fast, sdkOnly] = await Promise.all([startServer(), startServer({ mcpFastPath: false })]);
});
afterAll(() => Promise.all([fast?.close(), sdkOnly?.close()]));

let nextId = 1;
/** A 2026-07-28 request: `_meta` in the body and the mirrored MCP headers. */
function modern(server: TestServer, method: string, params: Record<string, unknown> = {}, options: { key?: string; headers?: Record<string, string> } = {}): Promise<RpcResult> {
  const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method, ...options.headers };
  if (typeof params.name === "string" && !("mcp-name" in headers)) headers["mcp-name"] = params.name;
  return rpc(server, { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: META } }, { ...options, headers });
}

describe("MCP 2026-07-28", () => {
  it("answers server/discover with the supported versions, capabilities and instructions", async () => {
    const answer = await modern(fast, "server/discover");
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({
      supportedVersions: expect.arrayContaining([MODERN]),
      capabilities: { tools: {} },
      instructions: expect.stringMatching(/øre/),
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "shop" } },
    });
  });

  it("lists tools in a deterministic order with resultType, ttlMs and a private cacheScope", async () => {
    const key = await fast.key("*");
    const [first, second] = [await modern(fast, "tools/list", {}, { key }), await modern(fast, "tools/list", {}, { key })];
    expect(first.body.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "private" });
    const names = (first.body.result!.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(second.text).toBe(first.text.replace(`"id":${first.body.id}`, `"id":${second.body.id}`));
  });

  it("calls tools with the REST result as structuredContent, and refuses as isError with the REST problem", async () => {
    const answer = await modern(fast, "tools/call", { name: "products.search", arguments: { q: "aviator", limit: 2 } });
    const rest = await fast.call("products.search", { q: "aviator", limit: 2 });
    expect(answer.body.result).toMatchObject({ resultType: "complete", structuredContent: { result: rest.body.result } });
    const refused = await modern(fast, "tools/call", { name: "orders.list", arguments: {} });
    expect(refused.body.result).toMatchObject({ isError: true, resultType: "complete", structuredContent: { status: 401, code: "unauthorized" } });
  });

  it("checks the Mcp-* headers against the body and names the supported versions on a mismatch", async () => {
    const body = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "products.search", arguments: {}, _meta: META } };
    const missingName = await rpc(fast, body, { headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/call" } });
    expect(missingName.status).toBe(400);
    expect(missingName.body.error).toMatchObject({ code: -32020 });
    const otherName = await modern(fast, "tools/call", { name: "products.search", arguments: {} }, { headers: { "mcp-name": "products.get" } });
    expect([otherName.status, otherName.body.error?.code]).toEqual([400, -32020]);
    const wrongMethod = await modern(fast, "tools/list", {}, { headers: { "mcp-method": "tools/call" } });
    expect([wrongMethod.status, wrongMethod.body.error?.code]).toEqual([400, -32020]);
    const old = await rpc(fast, { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } } }, { headers: { "mcp-protocol-version": "1999-01-01", "mcp-method": "tools/list" } });
    expect(old.status).toBe(400);
    expect(old.body.error).toMatchObject({ code: -32022, data: { requested: "1999-01-01", supported: expect.arrayContaining([MODERN]) } });
    const unknown = await modern(fast, "resources/list");
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, -32601]);
  });

  it("answers every request on the fast path exactly as the SDK does, in both eras", async () => {
    const key = await fast.key("*");
    const sdkKey = await sdkOnly.key("*");
    const legacy = (method: string, params?: unknown) => ({ jsonrpc: "2.0", id: 42, method, ...(params === undefined ? {} : { params }) });
    const cases: Array<[string, unknown, Record<string, string>]> = [
      ["legacy tools/list", legacy("tools/list"), {}],
      ["legacy ping", legacy("ping"), {}],
      ["legacy search", legacy("tools/call", { name: "products.search", arguments: { q: "aviator", limit: 3 } }), {}],
      ["legacy get", legacy("tools/call", { name: "products.get", arguments: { slug: "gucci-oversize-bold-74" } }), {}],
      ["legacy no arguments", legacy("tools/call", { name: "categories.list" }), {}],
      ["legacy refusal 400", legacy("tools/call", { name: "products.search", arguments: { limit: 0 } }), {}],
      ["legacy refusal 404", legacy("tools/call", { name: "products.get", arguments: { slug: "nope" } }), {}],
      ["legacy unknown tool", legacy("tools/call", { name: "nope.nothing", arguments: {} }), {}],
      ["legacy array arguments", legacy("tools/call", { name: "products.search", arguments: [1] }), {}],
      ["legacy _meta null", legacy("tools/call", { name: "categories.list", arguments: {}, _meta: null }), {}],
      ["legacy progressToken object", legacy("tools/list", { _meta: { progressToken: {} } }), {}],
      ["legacy extra member", { ...legacy("ping"), extra: 1 }, {}],
      ["legacy fractional id", { ...legacy("ping"), id: 1.5 }, {}],
      ["modern tools/list", { ...legacy("tools/list", { _meta: META }) }, { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" }],
      ["modern search", legacy("tools/call", { name: "products.search", arguments: { limit: 2 }, _meta: META }), { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "products.search" }],
      ["modern refusal", legacy("tools/call", { name: "products.get", arguments: { slug: "nope" }, _meta: META }), { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "products.get" }],
    ];
    for (const [label, message, headers] of cases) {
      for (const keyed of [false, true]) {
        const a = await rpc(fast, message, { headers, ...(keyed ? { key } : {}) });
        const b = await rpc(sdkOnly, message, { headers, ...(keyed ? { key: sdkKey } : {}) });
        expect(a.status, `${label} status`).toBe(b.status);
        expect(a.body, label).toEqual(b.body);
      }
    }
  });
});

describe("2026-07-28 on the fast path", () => {
  const headersFor = (method: string, name?: string): Record<string, string> => ({ "mcp-protocol-version": MODERN, "mcp-method": method, ...(name ? { "mcp-name": name } : {}) });
  const request = (method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = META): Record<string, unknown> => ({ jsonrpc: "2.0", id: 42, method, params: { ...params, _meta: meta } });
  // A fast answer's content type names its charset (Node's writer); the SDK's does not.
  const answeredFast = (answer: RpcResult) => answer.headers.get("content-type") === "application/json; charset=utf-8";

  it("answers tools/call and tools/list byte for byte as the SDK does", async () => {
    const key = await fast.key("*");
    const sdkKey = await sdkOnly.key("*");
    const envelope = META;
    const cases: Array<[string, Record<string, unknown>, Record<string, string>]> = [
      ["tools/list", request("tools/list", {}, envelope), headersFor("tools/list")],
      ["search", request("tools/call", { name: "products.search", arguments: { q: "aviator", limit: 3 } }, envelope), headersFor("tools/call", "products.search")],
      ["search without arguments", request("tools/call", { name: "categories.list" }, envelope), headersFor("tools/call", "categories.list")],
      ["refusal 400", request("tools/call", { name: "products.search", arguments: { limit: 0 } }, envelope), headersFor("tools/call", "products.search")],
      ["refusal 404", request("tools/call", { name: "products.get", arguments: { slug: "nope" } }, envelope), headersFor("tools/call", "products.get")],
      ["refusal 401 without a key", request("tools/call", { name: "orders.list", arguments: {} }, envelope), headersFor("tools/call", "orders.list")],
    ];
    for (const [label, message, headers] of cases) {
      for (const keyed of [false, true]) {
        for (const gzip of [false, true]) {
          const options = { headers: { ...headers, "accept-encoding": gzip ? "gzip" : "identity" } };
          const a = await rpc(fast, message, { ...options, ...(keyed ? { key } : {}) });
          const b = await rpc(sdkOnly, message, { ...options, ...(keyed ? { key: sdkKey } : {}) });
          const what = `${label}${keyed ? " with a key" : ""}${gzip ? ", gzip" : ""}`;
          expect(answeredFast(a), `${what} on the fast path`).toBe(true);
          expect([a.status, a.text], what).toEqual([b.status, b.text]);
        }
      }
    }
  });

  it("leaves to the SDK what it must judge: missing or encoded headers, unknown tools, odd params, ping, Mcp-Param headers, odd envelopes", async () => {
    const envelope = META;
    const odd: Array<[string, Record<string, unknown>, Record<string, string>]> = [
      ["unknown tool", request("tools/call", { name: "nope.nothing", arguments: {} }, envelope), headersFor("tools/call", "nope.nothing")],
      ["array arguments", request("tools/call", { name: "products.search", arguments: [1] }, envelope), headersFor("tools/call", "products.search")],
      ["extra params", request("tools/call", { name: "products.search", arguments: {}, task: {} }, envelope), headersFor("tools/call", "products.search")],
      ["ping", request("ping", {}, envelope), headersFor("ping")],
      ["an Mcp-Param header", request("tools/call", { name: "products.search", arguments: { q: "x" } }, envelope), { ...headersFor("tools/call", "products.search"), "mcp-param-q": "x" }],
      ["a malformed envelope", request("tools/list", {}, { ...META, "io.modelcontextprotocol/clientCapabilities": "all" }), headersFor("tools/list")],
      ["no client capabilities", request("tools/list", {}, { "io.modelcontextprotocol/protocolVersion": MODERN }), headersFor("tools/list")],
      ["more in the envelope", request("tools/list", {}, { ...META, progressToken: 7 }), headersFor("tools/list")],
      ["no Mcp-Name header", request("tools/call", { name: "products.search", arguments: {} }), headersFor("tools/call")],
      ["no Mcp-Method header", request("tools/list"), { "mcp-protocol-version": MODERN }],
      ["no MCP-Protocol-Version header", request("tools/list"), { "mcp-method": "tools/list" }],
      ["a fractional id", { ...request("tools/list"), id: 1.5 }, headersFor("tools/list")],
      ["an extra top-level key", { ...request("tools/list"), extra: true }, headersFor("tools/list")],
      ["a Base64-encoded Mcp-Name", request("tools/call", { name: "products.search", arguments: {} }), headersFor("tools/call", `=?base64?${Buffer.from("products.search").toString("base64")}?=`)],
    ];
    // Twice: a remembered classification (mcp.ts) must not change a later answer.
    for (const [label, message, headers] of [...odd, ...odd]) {
      const a = await rpc(fast, message, { headers });
      const b = await rpc(sdkOnly, message, { headers });
      expect([a.status, a.headers.get("content-type"), a.text], label).toEqual([b.status, b.headers.get("content-type"), b.text]);
    }
  });
});

describe("the acting MCP client", () => {
  it("is recorded on the orders it creates, in the audit log (filterable) and in analytics.channel_breakdown", async () => {
    const key = await fast.key("*");
    const input = fast.runtime.registry.get("orders.create")!.examples[0];
    const created = await modern(fast, "tools/call", { name: "orders.create", arguments: input }, { key });
    expect(created.body.result!.isError, JSON.stringify(created.body)).toBeFalsy();
    const { orderId } = created.body.result!.structuredContent as { orderId: string };
    const order = await fast.call("orders.get", { orderId }, { key });
    expect(order.body.result).toMatchObject({ channel: "mcp", isAiGenerated: true, aiAgentSource: CLIENT.name });

    const audit = await fast.call("audit.list", { agent: `${CLIENT.name}/${CLIENT.version}`, tool: "orders.create" }, { key });
    expect(audit.body.result).toEqual([expect.objectContaining({ tool: "orders.create", door: "mcp", agent: "Claude Code/2.1.0" })]);
    const entry = await fast.call("audit.get", { id: (audit.body.result as Array<{ id: string }>)[0]!.id }, { key });
    expect(entry.body.result).toMatchObject({ agent: "Claude Code/2.1.0" });
    const byRest = await fast.call("discounts.toggle", { code: "VELKOMMEN10" }, { key });
    expect(byRest.status).toBe(200);
    const restEntries = await fast.call("audit.list", { tool: "discounts.toggle", limit: 1 }, { key });
    expect(restEntries.body.result).toEqual([expect.objectContaining({ door: "rest", agent: null })]);

    expect((await fast.call("orders.update_status", { orderId, status: "paid" }, { key })).status).toBe(200);
    const breakdown = await fast.call("analytics.channel_breakdown", {}, { key });
    const channels = (breakdown.body.result as { channels: Array<{ channel: string; aiAgentSource: string | null }> }).channels;
    expect(channels).toEqual(expect.arrayContaining([expect.objectContaining({ channel: "mcp", aiAgentSource: CLIENT.name, isAiGenerated: true })]));
  });
});
