// The UCP MCP binding (/ucp/mcp) through the official SDK client over real HTTP: the protocol's tool names and argument
// shapes, a full checkout into an order, results against our zod readings of the version, errors as the binding says.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as v0111 from "../../src/api/ucp/v2026-01-11.ts";
import { checkoutResponse, errorResponse, orderResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { accepts, fullInstance, minimalInstance, requiredPaths, without } from "../support/binding-contract.ts";
import { lastAudit } from "../support/expect.ts";
import { startServer, useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { serveProfiles, type ProfileServer } from "../support/ucp-profile.ts";

let profiles: ProfileServer;
let base: string;
const clients: Client[] = [];
const ROUTES: Record<string, unknown> = {
  "/shopper.json": { name: "MCP Shopper", ucp: { version: "2026-04-08" } },
  "/other.json": { ucp: { version: "2026-04-08" } },
  "/old.json": { ucp: { version: "2026-01-11" } },
  "/new.json": { name: "MCP Shopper 0825", ucp: { version: "2026-08-25" } },
  "/ancient.json": { ucp: { version: "2025-01-01" } },
};
beforeAll(async () => {
  profiles = await serveProfiles(ROUTES);
  base = profiles.base;
});
afterAll(() => profiles.close());
const { server } = useServer({ config: { ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" } });
afterAll(() => Promise.all(clients.map((client) => client.close())));

const meta = (profile = "shopper", extra: Record<string, unknown> = {}) => ({ "ucp-agent": { profile: `${base}/${profile}.json` }, ...extra });
const BUYER = { email: "mcp.buyer@example.dk", first_name: "Mette", last_name: "Hansen" };
const DESTINATION = { id: "addr_1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const fulfillment = { methods: [{ type: "shipping", destinations: [DESTINATION], selected_destination_id: "addr_1" }] };
const payment = (token: string) => ({ instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token } }] });

async function connect(): Promise<Client> {
  const client = new Client({ name: "vitest-ucp-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/ucp/mcp`)));
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
  return result;
}

function valid<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`violates the schema: ${JSON.stringify(parsed.error.issues)} in ${JSON.stringify(value)}`);
  return parsed.data;
}

/** The JSON-RPC error of a tools/call the SDK client rejected. */
async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string; data: { code: string; content: string } }> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof McpError)) throw new Error(`expected a JSON-RPC error, got ${String(error)}`);
  return error as unknown as { code: number; message: string; data: { code: string; content: string } };
}

/** A raw JSON-RPC tools/call (to see the HTTP status of protocol errors, which the SDK client turns into exceptions). */
async function rawCall(name: string, args: unknown, body?: string) {
  const response = await fetch(`${server.url}/ucp/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    body: body ?? JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as { result?: { structuredContent?: unknown; isError?: boolean }; error?: { code: number; message: string; data?: { code: string } } } };
}

async function newSession(client: Client, quantity = 1) {
  const [product] = await plainProducts(server, 3);
  const created = await call(client, "create_checkout", { meta: meta(), checkout: { line_items: [{ item: { id: product!.id }, quantity }], buyer: BUYER, fulfillment } });
  return { product: product!, session: valid(checkoutResponse, created.structuredContent) };
}

describe("UCP MCP binding: tools", () => {
  it("lists the protocol's tools with input schemas naming meta, id and checkout", async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: "shop-ucp" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["create_checkout", "get_checkout", "update_checkout", "complete_checkout", "cancel_checkout", "get_order", "search_catalog", "lookup_catalog", "get_product", "create_cart", "get_cart", "update_cart", "cancel_cart"]);
    const schema = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema as unknown as { required: string[]; properties: { meta: { required: string[] } } };
    expect(schema("create_checkout").required).toEqual(["meta", "checkout"]);
    expect(schema("update_checkout").required).toEqual(["meta", "id", "checkout"]);
    expect(schema("get_order").required).toEqual(["meta", "id"]);
    expect(schema("get_checkout").properties.meta.required).toEqual(["ucp-agent"]);
    expect(schema("complete_checkout").properties.meta.required).toEqual(["ucp-agent", "idempotency-key"]);
    expect(schema("cancel_checkout").properties.meta.required).toEqual(["ucp-agent", "idempotency-key"]);
  });

  it("is advertised as the MCP service of both discovery profiles", async () => {
    const latest = (await (await fetch(`${server.url}/.well-known/ucp`)).json()) as { ucp: { services: Record<string, Array<{ transport: string; endpoint: string }>> } };
    expect(latest.ucp.services["dev.ucp.shopping"]!.find((service) => service.transport === "mcp")!.endpoint).toBe("https://shop.example.dk/ucp/mcp");
    const older = valid(v0111.discoveryResponse, await (await fetch(`${server.url}/ucp/.well-known/ucp`)).json());
    expect(older.ucp.services["dev.ucp.shopping"]!.mcp!.endpoint).toBe("https://shop.example.dk/ucp/mcp");
  });
});

describe("UCP MCP binding: checkout", () => {
  it("creates, reads, updates and completes a checkout into an order, then serves the order", async () => {
    const client = await connect();
    const [product] = await plainProducts(server, 3);
    const created = await call(client, "create_checkout", { meta: meta(), checkout: { line_items: [{ item: { id: product!.id }, quantity: 2 }] } });
    const session = valid(checkoutResponse, created.structuredContent);
    expect(session).toMatchObject({ status: "incomplete", currency: "DKK", ucp: { version: "2026-04-08", status: "success" } });
    expect(session.line_items[0]).toMatchObject({ item: { id: product!.id, title: product!.name, price: product!.priceDkk }, quantity: 2 });

    const got = valid(checkoutResponse, (await call(client, "get_checkout", { meta: meta(), id: session.id })).structuredContent);
    expect(got.id).toBe(session.id);

    const updated = await call(client, "update_checkout", { meta: meta(), id: session.id, checkout: { line_items: [{ item: { id: product!.id }, quantity: 2 }], buyer: BUYER, fulfillment, discounts: { codes: ["VELKOMMEN10"] } } });
    const ready = valid(checkoutResponse, updated.structuredContent);
    expect(ready.status).toBe("ready_for_complete");
    expect(ready.discounts!.applied!.map((entry) => entry.code)).toEqual(["VELKOMMEN10"]);

    const key = crypto.randomUUID();
    const completeArgs = { meta: meta("shopper", { "idempotency-key": key }), id: session.id, checkout: { payment: payment("success_token") } };
    const completed = await call(client, "complete_checkout", completeArgs);
    expect(completed.isError).toBeFalsy();
    const done = valid(checkoutResponse, completed.structuredContent);
    expect(done.status).toBe("completed");
    // The order's signed page for whoever holds the link (as ACP's permalink), not the sign-in form.
    expect(done.order!.permalink_url).toMatch(new RegExp(`^https://shop\\.example\\.dk/orders/${done.order!.id}/pay\\?token=[\\w-]{43}$`));
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: done.order!.id } });
    expect(order).toMatchObject({ channel: "ucp", isAiGenerated: true, aiAgentSource: "MCP Shopper", status: "paid", discountCode: "VELKOMMEN10" });
    expect(await lastAudit(server)).toMatchObject({ door: "ucp" });

    // The same key and arguments replay the stored answer; nothing is placed twice.
    const orders = await server.prisma.order.count();
    const replayed = await call(client, "complete_checkout", completeArgs);
    expect(replayed.structuredContent).toEqual(completed.structuredContent);
    expect(await server.prisma.order.count()).toBe(orders);

    const fetched = await call(client, "get_order", { meta: meta(), id: order.id });
    expect(valid(orderResponse, fetched.structuredContent)).toMatchObject({ id: order.id, checkout_id: session.id, currency: "DKK" });
  });

  it("answers a declined payment as a business outcome and keeps the session open", async () => {
    const client = await connect();
    const { session } = await newSession(client);
    const declined = await call(client, "complete_checkout", { meta: meta("shopper", { "idempotency-key": crypto.randomUUID() }), id: session.id, checkout: { payment: payment("fail_token") } });
    const body = valid(checkoutResponse, declined.structuredContent);
    expect(body.status).toBe("ready_for_complete");
    expect(body.messages![0]).toMatchObject({ type: "error", code: "payment_failed" });
  });

  it("answers a create whose items are unknown with the version's error response, without a resource", async () => {
    const client = await connect();
    const result = await call(client, "create_checkout", { meta: meta(), checkout: { line_items: [{ item: { id: "no-such-item" }, quantity: 1 }] } });
    expect(valid(errorResponse, result.structuredContent).messages[0]).toMatchObject({ code: "item_unavailable", severity: "unrecoverable" });
  });

  it("cancels with an idempotency key, then refuses changes (409, JSON-RPC −32000)", async () => {
    const client = await connect();
    const { session } = await newSession(client);
    const canceled = await call(client, "cancel_checkout", { meta: meta("shopper", { "idempotency-key": crypto.randomUUID() }), id: session.id });
    expect(valid(checkoutResponse, canceled.structuredContent).status).toBe("canceled");
    const refused = await rawCall("update_checkout", { meta: meta(), id: session.id, checkout: { line_items: [{ item: { id: "x" }, quantity: 1 }] } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: -32000, data: { code: "checkout_not_modifiable" } });
  });

  it("refuses a reused idempotency key with other arguments (409) and hides sessions from other agents", async () => {
    const client = await connect();
    const { session } = await newSession(client);
    const key = crypto.randomUUID();
    await call(client, "cancel_checkout", { meta: meta("shopper", { "idempotency-key": key }), id: session.id });
    const { session: second } = await newSession(client);
    const reused = await rawCall("cancel_checkout", { meta: meta("shopper", { "idempotency-key": key }), id: second.id });
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatchObject({ code: -32000, data: { code: "idempotency_key_reused" } });

    const hidden = await call(client, "get_checkout", { meta: meta("other"), id: second.id });
    expect(hidden.isError).toBe(true);
    expect(valid(errorResponse, hidden.structuredContent).messages[0]!.code).toBe("not_found");
  });

  it("speaks 2026-01-11 to an agent whose profile says so, reading its argument names", async () => {
    const client = await connect();
    const [product] = await plainProducts(server, 1);
    const old = { "ucp-agent": { profile: `${base}/old.json` } };
    const created = await call(client, "create_checkout", { meta: old, checkout: { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: { full_name: "Jens Hansen", email: "jens@example.dk" }, fulfillment } });
    const session = valid(v0111.checkoutResponse, created.structuredContent) as { id: string };
    const completed = await call(client, "complete_checkout", { meta: old, idempotency_key: crypto.randomUUID(), id: session.id, payment: payment("success_token") });
    expect(completed.structuredContent).toMatchObject({ status: "completed", ucp: { version: "2026-01-11" } });
  });
});

describe("UCP MCP binding: MCP 2026-07-28", () => {
  it("serves the per-request era too: tools/list and a checkout through tools/call", async () => {
    const modernMeta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "modern-agent", version: "1.0.0" } };
    const post = async (method: string, params: Record<string, unknown>) => {
      const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": method };
      if (typeof params.name === "string") headers["mcp-name"] = params.name;
      const response = await fetch(`${server.url}/ucp/mcp`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: modernMeta } }) });
      expect(response.status).toBe(200);
      return ((await response.json()) as { result: Record<string, unknown> }).result;
    };
    const list = await post("tools/list", {});
    expect((list.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain("complete_checkout");
    const [product] = await plainProducts(server, 1);
    const created = await post("tools/call", { name: "create_checkout", arguments: { meta: meta(), checkout: { line_items: [{ item: { id: product!.id }, quantity: 1 }] } } });
    expect(valid(checkoutResponse, created.structuredContent).status).toBe("incomplete");
  });
});

describe("UCP MCP binding: errors", () => {
  it("refuses a call without meta[\"ucp-agent\"] or with a bad profile as a discovery error (−32001)", async () => {
    const client = await connect();
    const missing = await rpcError(client.callTool({ name: "get_checkout", arguments: { id: "x" } }));
    expect(missing).toMatchObject({ code: -32001, data: { code: "invalid_profile_url" } });
    const notUrl = await rpcError(client.callTool({ name: "get_checkout", arguments: { meta: { "ucp-agent": { profile: "file:///etc/passwd" } }, id: "x" } }));
    expect(notUrl).toMatchObject({ code: -32001, data: { code: "invalid_profile_url" } });
    const unreachable = await rpcError(client.callTool({ name: "get_checkout", arguments: { meta: meta("missing"), id: "x" } }));
    expect(unreachable).toMatchObject({ code: -32001, data: { code: "profile_unreachable" } });
    const version = await rpcError(client.callTool({ name: "get_checkout", arguments: { meta: meta("ancient"), id: "x" } }));
    expect(version).toMatchObject({ code: -32001, data: { code: "version_unsupported" } });
  });

  it("refuses bad arguments as invalid params (−32602), never a 500", async () => {
    const client = await connect();
    const cases: Array<[string, Record<string, unknown>]> = [
      ["create_checkout", { meta: meta() }],
      ["create_checkout", { meta: meta(), checkout: { line_items: "lots" } }],
      ["create_checkout", { meta: meta(), checkout: { line_items: [{ item: { id: "a\u0000b" }, quantity: -1 }] } }],
      ["complete_checkout", { meta: meta(), id: "x", checkout: { payment: payment("success_token") } }],
      ["cancel_checkout", { meta: meta("shopper", { "idempotency-key": "has spaces" }), id: "x" }],
      ["get_checkout", { meta: meta(), id: 42 }],
      ["get_checkout", { meta: { "ucp-agent": "not an object" }, id: "x" }],
    ];
    for (const [name, args] of cases) {
      const error = await rpcError(client.callTool({ name, arguments: args }));
      expect(error.code, `${name} ${JSON.stringify(args)}`).toBe(-32602);
      expect(error.message.length).toBeGreaterThan(10);
    }
    await expect(client.callTool({ name: "update_order", arguments: { meta: meta() } })).rejects.toThrow(/Unknown tool/);
  });

  it("answers malformed JSON-RPC with a JSON-RPC error and other methods with 405", async () => {
    const parse = await rawCall("", null, "{not json");
    expect(parse.status).toBe(400);
    expect(parse.body.error!.code).toBe(-32700);
    const batch = await rawCall("", null, "[]");
    expect(batch.status).toBe(400);
    const get = await fetch(`${server.url}/ucp/mcp`);
    expect(get.status).toBe(405);
  });

  it("refuses an invalid API key (401, −32000) and a huge body (413) without a 500", async () => {
    const response = await fetch(`${server.url}/ucp/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer not-a-key" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, data: { code: "unauthorized" } } });
    const huge = await rawCall("", null, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_checkout", arguments: { meta: meta(), checkout: { note: "x".repeat(300_000) } } } }));
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatchObject({ code: -32600, data: { code: "payload_too_large" } });
  });

  it("answers a spent rate limit with 429, Retry-After and −32000 with data.retry_after", async () => {
    const limited = await startServer({ rateLimitAnonPerMin: 2 });
    try {
      const list = () => fetch(`${limited.url}/ucp/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
      expect((await list()).status).toBe(200);
      expect((await list()).status).toBe(200);
      const refused = await list();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ error: { code: -32000, data: { code: "rate_limited", retry_after: expect.any(Number) } } });
    } finally {
      await limited.close();
    }
  });
});

describe("UCP MCP binding: what tools/list advertises", () => {
  /** Why the server refused a call's arguments (bad arguments, or no agent named), or null when it took them. */
  const argumentRefusal = ({ body }: Awaited<ReturnType<typeof rawCall>>) => {
    const error = body.error;
    if (error?.code === -32602 || (error?.code === -32001 && error.data?.code === "invalid_profile_url")) return error.message;
    return null;
  };

  it("is what the server takes: each tool's smallest arguments are accepted, each required field left out is refused", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const { product, session } = await newSession(client);
    const cart = valid(z.object({ id: z.string() }), (await call(client, "create_cart", { meta: meta(), cart: { line_items: [{ item: { id: product.id }, quantity: 1 }] } })).structuredContent);
    const ids: Record<string, string> = { get_order: "ord_0000000000000000" };
    for (const tool of tools) ids[tool.name] ??= tool.name.endsWith("_cart") ? cart.id : session.id;
    // Values where "x" would not do; search_catalog also needs a query or a filter, which its description says and
    // JSON Schema cannot (one or the other).
    const fill = (name: string) => (path: string) => {
      if (path === "meta.ucp-agent.profile") return `${base}/shopper.json`;
      if (path === "meta.idempotency-key") return crypto.randomUUID();
      if (path === "id") return ids[name];
      if (/(^|\.)(item\.id|ids\.\d+)$/.test(path) || path === "catalog.id") return product.id;
      if (path.endsWith(".handler_id")) return "mock_payment_handler";
      if (name === "search_catalog" && path === "catalog") return { query: product.name };
      return undefined;
    };
    expect(tools.length).toBe(13);
    for (const tool of tools) {
      const schema = tool.inputSchema as Record<string, unknown>;
      const args = () => minimalInstance(schema, fill(tool.name));
      const smallest = args();
      expect(accepts(schema, smallest), `${tool.name} ${JSON.stringify(smallest)}`).toBe(true);
      expect(argumentRefusal(await rawCall(tool.name, smallest)), `${tool.name} ${JSON.stringify(smallest)}`).toBeNull();
      const required = requiredPaths(schema, smallest);
      expect(required, tool.name).toEqual(expect.arrayContaining(["meta", "meta.ucp-agent", "meta.ucp-agent.profile"]));
      for (const path of required) {
        const lacking = without(args(), path);
        expect(accepts(schema, lacking), `${tool.name} without ${path}`).toBe(false);
        expect(argumentRefusal(await rawCall(tool.name, lacking)), `${tool.name} without ${path}`).not.toBeNull();
      }
    }
  });

  /** tools/list as an agent of a version asks for it (meta in the params' arguments as ucp-cli sends it; 2026-01-11: _meta.ucp). */
  async function listAt(profile: string, old = false) {
    const params = old ? { _meta: { ucp: { profile: `${base}/${profile}.json` } } } : { arguments: { meta: meta(profile) } };
    const response = await fetch(`${server.url}/ucp/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params }),
    });
    return ((await response.json()) as { result: { tools: Array<{ name: string; inputSchema: Record<string, unknown> }> } }).result.tools;
  }

  it.each([
    ["2026-08-25", "new", 13],
    ["2026-04-08", "shopper", 13],
    ["2026-01-11", "old", 6],
  ] as const)("at %s: lists the tools as that version reads them; required-only and all-optional arguments are taken", async (version, profile, count) => {
    const client = await connect();
    const tools = await listAt(profile, version === "2026-01-11");
    expect(tools.length).toBe(count);
    const [product] = await plainProducts(server, 3);
    const created = await rawCall("create_checkout", { meta: meta(profile), checkout: { line_items: [{ item: { id: product!.id }, quantity: 1 }] } });
    const session = created.body.result!.structuredContent as { id: string; ucp: { version: string } };
    expect(session.ucp.version).toBe(version);
    const cart = count > 6 ? ((await call(client, "create_cart", { meta: meta(profile), cart: { line_items: [{ item: { id: product!.id }, quantity: 1 }] } })).structuredContent as { id: string }) : null;
    const fill = (name: string) => (path: string) => {
      if (path === "meta.ucp-agent.profile") return `${base}/${profile}.json`;
      if (path === "meta.ucp-agent.version") return version;
      if (path === "meta.idempotency-key") return crypto.randomUUID();
      if (path === "id") return name === "get_order" ? "ord_0000000000000000" : name.endsWith("_cart") ? cart!.id : session.id;
      if (/(^|\.)(item\.id|ids\.\d+)$/.test(path) || path === "catalog.id") return product!.id;
      if (path === "checkout.cart_id") return cart?.id;
      if (path.endsWith(".handler_id")) return "mock_payment_handler";
      if (path.endsWith("credential.number")) return "4242424242424242";
      if (path.endsWith("credential.token")) return "success_token";
      if (path.endsWith("phone_number")) return "+45 12 34 56 78";
      if (path.endsWith("address_country")) return "DK";
      if (name === "search_catalog" && path === "catalog") return { query: product!.name };
      if (path === "catalog.pagination.cursor") return undefined;
      return undefined;
    };
    for (const tool of tools) {
      for (const [kind, args] of [
        ["required only", minimalInstance(tool.inputSchema, fill(tool.name))],
        ["all optional", fullInstance(tool.inputSchema, fill(tool.name))],
      ] as const) {
        expect(accepts(tool.inputSchema, args), `${version} ${tool.name} ${kind} ${JSON.stringify(args)}`).toBe(true);
        const answer = await rawCall(tool.name, args);
        expect(argumentRefusal(answer), `${version} ${tool.name} ${kind} ${JSON.stringify(args)}`).toBeNull();
        expect(answer.status, `${version} ${tool.name} ${kind}`).toBeLessThan(500);
      }
    }
  });

  it("says update_checkout needs line_items, as the server does", async () => {
    const { tools } = await (await connect()).listTools();
    const update = tools.find((tool) => tool.name === "update_checkout")!.inputSchema as unknown as { properties: { checkout: { required: string[] } } };
    expect(update.properties.checkout.required).toEqual(["line_items"]);
    await expect((await connect()).callTool({ name: "constructor", arguments: { meta: meta() } })).rejects.toThrow(/Unknown tool/);
  });
});
