// Toolsets over MCP through the official SDK client: /api/mcp?toolsets=… narrows tools/list and tools/call to those
// areas, within a key's own toolsets; a call outside them is a 403 problem (isError); an unknown toolset is a 400.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { TOOLSETS, toolsetOf } from "../../src/tools/toolsets.ts";
import { rpc } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function connect(query: string, key?: string): Promise<Client> {
  const client = new Client({ name: "vitest-agent", version: "1.0.0" });
  const requestInit = { headers: key ? { authorization: `Bearer ${key}` } : {} };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp${query}`), { requestInit }));
  clients.push(client);
  return client;
}

const namesIn = (...areas: string[]) => server.runtime.registry.tools.map((tool) => tool.name).filter((name) => areas.includes(toolsetOf(name)));

async function limitedKey(scopes: string[], toolsets: string[]): Promise<string> {
  const created = await server.call("keys.create", { name: "Afgrænset", scopes, toolsets }, { key: await server.key("*") });
  expect(created.status).toBe(200);
  return (created.body.result as { secret: string }).secret;
}

describe("MCP toolsets", () => {
  it("are the catalogue's areas: every tool belongs to one", () => {
    const areas = new Set(server.runtime.registry.tools.map((tool) => toolsetOf(tool.name)));
    expect([...areas].sort()).toEqual([...TOOLSETS]);
  });

  it("?toolsets narrows a * key's list to exactly those areas; a call outside them is refused with a 403 problem", async () => {
    const client = await connect("?toolsets=orders,returns", await server.key("*"));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(namesIn("orders", "returns"));

    const inside = await client.callTool({ name: "orders.list", arguments: { limit: 1 } });
    expect(inside.isError).toBeFalsy();
    const outside = await client.callTool({ name: "products.search", arguments: { q: "aviator" } });
    expect(outside.isError).toBe(true);
    expect(outside.structuredContent).toMatchObject({ status: 403, code: "forbidden", detail: "products.search is outside this caller's toolsets (orders, returns)." });
    // Unknown tools stay a JSON-RPC error, as without toolsets.
    const unknown = await rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "orders.nothing", arguments: {} } }, { key: await server.key("*") });
    expect(unknown.body.error).toMatchObject({ message: expect.stringContaining("Unknown tool") });
  });

  it("a key limited at creation lists only its toolsets; ?toolsets narrows within them and never widens", async () => {
    const key = await limitedKey(["orders:read", "catalog:read", "returns:read"], ["orders", "products"]);
    const whole = await (await connect("", key)).listTools();
    const expected = namesIn("orders", "products").filter((name) => server.runtime.executor.allows(server.runtime.registry.get(name)!, { kind: "key", actor: "key:x", scopes: new Set(["orders:read", "catalog:read", "returns:read"]) }));
    expect(whole.tools.map((tool) => tool.name)).toEqual(expected);
    expect(whole.tools.map((tool) => tool.name)).toContain("products.search");
    expect(whole.tools.map((tool) => tool.name)).not.toContain("returns.list");

    const narrowed = await (await connect("?toolsets=products,returns", key)).listTools();
    expect(narrowed.tools.map((tool) => tool.name)).toEqual(expected.filter((name) => name.startsWith("products.")));
    const nothing = await (await connect("?toolsets=returns", key)).listTools();
    expect(nothing.tools).toEqual([]);
    const refused = await (await connect("?toolsets=returns", key)).callTool({ name: "returns.list", arguments: {} });
    expect(refused.structuredContent).toMatchObject({ status: 403, code: "forbidden" });
  });

  it("narrows a call without a key to the public tools of those areas", async () => {
    const client = await connect("?toolsets=products");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["products.get", "products.get_safety", "products.lookup", "products.search"]);
    const refused = await client.callTool({ name: "categories.list", arguments: {} });
    expect(refused.structuredContent).toMatchObject({ status: 403, code: "forbidden" });
  });

  it("refuses an unknown or empty toolset with a 400 problem before the request is answered", async () => {
    for (const query of ["?toolsets=ordrer", "?toolsets=orders,nope", "?toolsets=", "?toolsets=orders&toolsets=returns"]) {
      const response = await fetch(`${server.url}/api/mcp${query}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(response.status, query).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      expect(await response.json()).toMatchObject({ status: 400, code: "invalid_input" });
    }
  });
});
