// The MCP door through the official SDK client over real HTTP: connect, list, call a read and a write tool, read refusals.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Invocation } from "../../src/tools/executor.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { auditCount, lastAudit, toolOf } from "../support/expect.ts";
import { wrapped } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function connect(key?: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "vitest-agent", version: "1.0.0" });
  const requestInit = { headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) } };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit }));
  clients.push(client);
  return client;
}

/** A write tool to exercise: categories.upsert when registered, else the first additive local write with examples. */
function writeTool(): AnyTool {
  const tools = server.runtime.registry.tools.filter((tool) => !tool.annotations.readOnlyHint && !tool.annotations.openWorldHint && tool.examples.length > 0);
  const tool = tools.find((candidate) => candidate.name === "categories.upsert") ?? tools.find((candidate) => candidate.audited) ?? tools[0];
  if (!tool) throw new Error("the registry has no write tool with examples");
  return tool;
}

describe("MCP through the SDK client", () => {
  it("connects without a key, lists the anonymous tools and calls a read tool with validated structured output", async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: "shop" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
    expect(client.getInstructions()).toMatch(/øre/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["categories.list", "checkout.cancel", "checkout.complete", "checkout.create", "checkout.get", "checkout.get_order", "checkout.update", "giftcards.get", "products.get", "products.get_safety", "products.lookup", "products.search", "returns.policy", "returns.withdraw", "staff.request_password_reset", "staff.set_password", "support.create_ticket"]);
    expect(tools.find((tool) => tool.name === "products.search")!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });

    const search = await client.callTool({ name: "products.search", arguments: { q: "aviator", limit: 5 } });
    expect(search.isError).toBeFalsy();
    expect(search.structuredContent).toEqual({ result: (await server.call("products.search", { q: "aviator", limit: 5 })).body.result });
    const slug = "gucci-oversize-bold-74";
    const product = await client.callTool({ name: "products.get", arguments: { slug } });
    expect(product.structuredContent).toEqual((await server.call("products.get", { slug })).body.result);
    expect(product.content).toEqual([{ type: "text", text: JSON.stringify(product.structuredContent) }]);
    await client.ping();
  });

  it("lists every tool for a * key (each listing valid for the SDK) and calls a write tool that lands in the audit log", async () => {
    const client = await connect(await server.key("*"));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(server.runtime.registry.tools.map((tool) => tool.name));
    for (const tool of tools) expect(tool.outputSchema, `${tool.name}: output schemas stay out of the compact listing`).toBeUndefined();

    const tool = writeTool();
    const before = await auditCount(server);
    const result = await client.callTool({ name: tool.name, arguments: tool.examples[0] as Record<string, unknown> });
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    const value = toolOf(server, tool.name).output.safeParse(wrapped(server, tool.name) ? (result.structuredContent as { result?: unknown } | undefined)?.result : result.structuredContent);
    expect(value.success, JSON.stringify(result.structuredContent)).toBe(true);
    if (tool.audited) {
      expect(await auditCount(server)).toBeGreaterThan(before);
      expect(await lastAudit(server)).toMatchObject({ tool: tool.name, door: "mcp", actor: expect.stringMatching(/^key:/) });
    }
  });

  it("returns a refusal as an isError result with the REST problem, through callTool and a plain tools/call request", async () => {
    const client = await connect(await server.key("orders:read"));
    const tool = writeTool();
    const problem = { ok: false, status: 403, code: "forbidden", detail: expect.stringContaining(tool.scope) };
    const answer = await client.request({ method: "tools/call", params: { name: tool.name, arguments: tool.examples[0] } }, CallToolResultSchema);
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject(problem);
    // Without output schemas in the listing, SDK 1.x no longer mistakes a refusal for an invalid result (typescript-sdk#1943).
    await client.listTools();
    const called = await client.callTool({ name: tool.name, arguments: tool.examples[0] as Record<string, unknown> });
    expect(called).toMatchObject({ isError: true, structuredContent: problem });
    await expect(client.callTool({ name: "nope.nothing", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("tells the executor which client acts (the User-Agent of a stateless request) and negotiates the newest protocol", async () => {
    const invoke = vi.spyOn(server.runtime.executor, "invoke");
    try {
      const client = await connect(undefined, { "user-agent": "vitest-agent/1.0" });
      expect(client.transport).toBeDefined();
      await client.callTool({ name: "categories.list", arguments: {} });
      const call = invoke.mock.calls.at(-1)![0] as Invocation;
      expect(call).toMatchObject({ name: "categories.list", door: "mcp", caller: { kind: "anonymous", agent: "vitest-agent/1.0" } });
      expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    } finally {
      invoke.mockRestore();
    }
  });
});
