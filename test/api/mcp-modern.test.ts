// MCP 2026-07-28 on /api/mcp beside the 2025 era: discovery, per-request _meta, header checks, version errors, one
// cached answer serving both eras, and the acting client recorded on orders, audit entries and analytics.
import { describe, expect, it } from "vitest";
import { rpc, type RpcResult } from "../support/mcp.ts";
import { useServer, type TestServer } from "../support/server.ts";

const MODERN = "2026-07-28";
const CLIENT = { name: "Claude Code", version: "2.1.0" };
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": CLIENT,
};

const { server } = useServer();

let nextId = 1;
/** A 2026-07-28 request: `_meta` in the body and the mirrored MCP headers. */
function modern(server: TestServer, method: string, params: Record<string, unknown> = {}, options: { key?: string; headers?: Record<string, string> } = {}): Promise<RpcResult> {
  const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method, ...options.headers };
  if (typeof params.name === "string" && !("mcp-name" in headers)) headers["mcp-name"] = params.name;
  return rpc(server, { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: META } }, { ...options, headers });
}

describe("MCP 2026-07-28", () => {
  it("answers server/discover with the supported versions, capabilities and instructions", async () => {
    const answer = await modern(server, "server/discover");
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
    const key = await server.key("*");
    const [first, second] = [await modern(server, "tools/list", {}, { key }), await modern(server, "tools/list", {}, { key })];
    expect(first.body.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "private" });
    const names = (first.body.result!.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(second.text).toBe(first.text.replace(`"id":${first.body.id}`, `"id":${second.body.id}`));
  });

  it("calls tools with the REST result as structuredContent, and refuses as isError with the REST problem", async () => {
    const answer = await modern(server, "tools/call", { name: "products.search", arguments: { q: "aviator", limit: 2 } });
    const rest = await server.call("products.search", { q: "aviator", limit: 2 });
    expect(answer.body.result).toMatchObject({ resultType: "complete", structuredContent: { result: rest.body.result } });
    const refused = await modern(server, "tools/call", { name: "orders.list", arguments: {} });
    expect(refused.body.result).toMatchObject({ isError: true, resultType: "complete", structuredContent: { status: 401, code: "unauthorized" } });
  });

  it("checks the Mcp-* headers against the body and names the supported versions on a mismatch", async () => {
    const body = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "products.search", arguments: {}, _meta: META } };
    const missingName = await rpc(server, body, { headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/call" } });
    expect(missingName.status).toBe(400);
    expect(missingName.body.error).toMatchObject({ code: -32020 });
    const otherName = await modern(server, "tools/call", { name: "products.search", arguments: {} }, { headers: { "mcp-name": "products.get" } });
    expect([otherName.status, otherName.body.error?.code]).toEqual([400, -32020]);
    const wrongMethod = await modern(server, "tools/list", {}, { headers: { "mcp-method": "tools/call" } });
    expect([wrongMethod.status, wrongMethod.body.error?.code]).toEqual([400, -32020]);
    const old = await rpc(server, { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } } }, { headers: { "mcp-protocol-version": "1999-01-01", "mcp-method": "tools/list" } });
    expect(old.status).toBe(400);
    expect(old.body.error).toMatchObject({ code: -32022, data: { requested: "1999-01-01", supported: expect.arrayContaining([MODERN]) } });
    const unknown = await modern(server, "resources/list");
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, -32601]);
  });

  it("serves one cached catalogue answer to both eras, each with its own stamps, gzip-encoded to clients that take it", async () => {
    const params = { name: "products.search", arguments: { categorySlug: "solbriller", limit: 10 } };
    // Node's fetch asks for gzip unless told otherwise (and decodes it).
    const [plain, gzip] = [{ "accept-encoding": "identity" }, { "accept-encoding": "gzip" }];
    const legacy = () => rpc(server, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params }, { headers: plain });
    const answers = [await modern(server, "tools/call", params, { headers: plain }), await legacy(), await modern(server, "tools/call", params, { headers: gzip }), await legacy()];
    for (const answer of answers) expect(answer.status).toBe(200);
    const [first, second, third, fourth] = answers.map((answer) => answer.body.result!);
    expect(first).toMatchObject({ resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "shop" } } });
    expect(third).toEqual(first);
    expect(Object.keys(second!).sort()).toEqual(["content", "structuredContent"]);
    expect(fourth).toEqual(second);
    expect(second!.structuredContent).toEqual(first!.structuredContent);
    expect(answers.map((answer) => answer.headers.get("content-encoding"))).toEqual([null, null, "gzip", null]);
    const gzipLegacy = await rpc(server, { jsonrpc: "2.0", id: "g", method: "tools/call", params }, { headers: gzip });
    expect(gzipLegacy.headers.get("content-encoding")).toBe("gzip");
    expect(gzipLegacy.body).toEqual({ jsonrpc: "2.0", id: "g", result: second });
  });
});

describe("the acting MCP client", () => {
  it("is recorded on the orders it creates, in the audit log (filterable) and in analytics.channel_breakdown", async () => {
    const key = await server.key("*");
    const input = server.runtime.registry.get("orders.create")!.examples[0];
    const created = await modern(server, "tools/call", { name: "orders.create", arguments: input }, { key });
    expect(created.body.result!.isError, JSON.stringify(created.body)).toBeFalsy();
    const { orderId } = created.body.result!.structuredContent as { orderId: string };
    const order = await server.call("orders.get", { orderId }, { key });
    expect(order.body.result).toMatchObject({ channel: "mcp", isAiGenerated: true, aiAgentSource: CLIENT.name });

    const audit = await server.call("audit.list", { agent: `${CLIENT.name}/${CLIENT.version}`, tool: "orders.create" }, { key });
    expect(audit.body.result).toEqual([expect.objectContaining({ tool: "orders.create", door: "mcp", agent: "Claude Code/2.1.0" })]);
    const entry = await server.call("audit.get", { id: (audit.body.result as Array<{ id: string }>)[0]!.id }, { key });
    expect(entry.body.result).toMatchObject({ agent: "Claude Code/2.1.0" });
    const byRest = await server.call("discounts.toggle", { code: "VELKOMMEN10" }, { key });
    expect(byRest.status).toBe(200);
    const restEntries = await server.call("audit.list", { tool: "discounts.toggle", limit: 1 }, { key });
    expect(restEntries.body.result).toEqual([expect.objectContaining({ door: "rest", agent: null })]);

    expect((await server.call("orders.update_status", { orderId, status: "paid" }, { key })).status).toBe(200);
    const breakdown = await server.call("analytics.channel_breakdown", {}, { key });
    const channels = (breakdown.body.result as { channels: Array<{ channel: string; aiAgentSource: string | null }> }).channels;
    expect(channels).toEqual(expect.arrayContaining([expect.objectContaining({ channel: "mcp", aiAgentSource: CLIENT.name, isAiGenerated: true })]));
  });
});
