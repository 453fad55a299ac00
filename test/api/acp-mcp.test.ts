// The ACP MCP binding (/acp/mcp) through the official SDK client over real HTTP: the binding's tool names and
// {meta, id, payload} arguments, a full checkout into an order with results against our zod reading of the version,
// idempotent replays shared with nothing else, signatures from meta, and errors as JSON-RPC −32000 with the flat ACP
// error in data (−32602 for bad arguments); the key is checked per HTTP request like the REST door's.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSession, checkoutSessionWithOrder, errorBody } from "../../src/api/acp/v2026-04-17.ts";
import { sign } from "../../src/api/acp/signature.ts";
import { discoveryDocument } from "../../src/api/acp/discovery.ts";
import { findActiveKey } from "../../src/tools/keys/key-secrets.ts";
import { accepts, fullInstance, minimalInstance, requiredPaths, without } from "../support/binding-contract.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";

const SECRET = "mcp-platform-secret-0123456789";
const clients: Client[] = [];
const { server, keys: { KEY, SIGNED, READER } } = useServer({
  config: { ucpTestMode: true, publicBaseUrl: "https://shop.example.dk" },
  keys: { KEY: ["checkout:agent"], SIGNED: ["checkout:agent"], READER: ["catalog:read"] },
});
beforeAll(async () => {
  const id = (await findActiveKey(server.prisma, SIGNED))!.id;
  await server.prisma.apiKey.update({ where: { id }, data: { acpSigningSecret: SECRET } });
});
afterAll(() => Promise.all(clients.map((client) => client.close())));

async function connect(key = KEY): Promise<Client> {
  const client = new Client({ name: "vitest-acp-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/acp/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}

const META = { api_version: "2026-04-17" };
const BUYER = { first_name: "Mette", last_name: "Hansen", email: "acp.mcp@example.dk" };
const DETAILS = { name: "Mette Hansen", address: { name: "Mette Hansen", line_one: "Strøget 12", city: "København K", state: "", country: "DK", postal_code: "1160" } };
const PAY = { payment_data: { handler_id: "mock_payment_handler", instrument: { type: "card", credential: { type: "token", token: "success_token" } } } };

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBeFalsy();
  expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
  return result.structuredContent;
}

async function refused(client: Client, name: string, args: Record<string, unknown>, code: number, acpCode: string) {
  const error = await client.callTool({ name, arguments: args }).then(
    (result) => {
      throw new Error(`expected an error, got ${JSON.stringify(result)}`);
    },
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(code);
  const data = errorBody.parse((error as McpError).data);
  expect(data.code).toBe(acpCode);
  return data;
}

describe("ACP over MCP", () => {
  it("lists the five binding tools, and discovery names the mcp transport", async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["cancel_checkout_session", "complete_checkout_session", "create_checkout_session", "get_checkout_session", "update_checkout_session"]);
    expect(tools.find((tool) => tool.name === "get_checkout_session")!.inputSchema.required).toEqual(["meta", "id"]);
    const discovery = discoveryDocument.parse(await (await fetch(`${server.url}/.well-known/acp.json`)).json());
    expect(discovery.transports).toEqual(["rest", "mcp"]);
  });

  it("create → get → update → complete into an order, then cancel is refused; shapes as on REST", async () => {
    const client = await connect();
    const [product] = await plainProducts(server, 2);
    const created = checkoutSession.parse(await call(client, "create_checkout_session", { meta: { ...META, idempotency_key: "mcp-create-1" }, payload: { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {}, buyer: BUYER } }));
    expect(created.status).toBe("not_ready_for_payment");
    expect(checkoutSession.parse(await call(client, "get_checkout_session", { meta: META, id: created.id })).id).toBe(created.id);
    const updated = checkoutSession.parse(await call(client, "update_checkout_session", { meta: META, id: created.id, payload: { fulfillment_details: DETAILS, line_items: [{ id: product!.id }, { id: product!.id }] } }));
    expect(updated).toMatchObject({ status: "ready_for_payment", line_items: [{ quantity: 2 }] });
    const done = checkoutSessionWithOrder.parse(await call(client, "complete_checkout_session", { meta: { ...META, idempotency_key: "mcp-complete-1" }, id: created.id, payload: PAY }));
    expect(done.status).toBe("completed");
    // The same key and payload replays the first answer: still one order.
    const again = checkoutSessionWithOrder.parse(await call(client, "complete_checkout_session", { meta: { ...META, idempotency_key: "mcp-complete-1" }, id: created.id, payload: PAY }));
    expect(again.order.id).toBe(done.order.id);
    expect(await server.prisma.order.count({ where: { acpSessionId: created.id } })).toBe(1);
    const audit = await server.prisma.auditEntry.findFirst({ where: { tool: "checkout.complete", subjectId: created.id } });
    expect(audit?.door).toBe("acp");

    await refused(client, "cancel_checkout_session", { meta: META, id: created.id }, -32000, "not_cancelable");
    await refused(client, "update_checkout_session", { meta: META, id: created.id, payload: { buyer: BUYER } }, -32000, "checkout_not_modifiable");
    // Another body under a used key is a conflict.
    await refused(client, "complete_checkout_session", { meta: { ...META, idempotency_key: "mcp-complete-1" }, id: created.id, payload: { payment_data: { purchase_order_number: "PO-2" } } }, -32000, "idempotency_conflict");
  });

  it("cancels with an intent trace; a bad one is a flat invalid error", async () => {
    const client = await connect();
    const [product] = await plainProducts(server, 1);
    const created = checkoutSession.parse(await call(client, "create_checkout_session", { meta: META, payload: { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} } }));
    await refused(client, "cancel_checkout_session", { meta: META, id: created.id, payload: { intent_trace: { reason_code: "bored" } } }, -32000, "invalid");
    const canceled = checkoutSession.parse(await call(client, "cancel_checkout_session", { meta: META, id: created.id, payload: { intent_trace: { reason_code: "price_sensitivity", trace_summary: "Too dear" } } }));
    expect(canceled.status).toBe("canceled");
  });

  it("refuses bad arguments (−32602), a missing or unknown api_version, unknown sessions and unknown items", async () => {
    const client = await connect();
    await refused(client, "get_checkout_session", { meta: META }, -32602, "invalid_request");
    await refused(client, "create_checkout_session", { meta: META }, -32602, "invalid_request");
    await refused(client, "get_checkout_session", { id: "chk_x" }, -32602, "invalid_request");
    const missing = await refused(client, "get_checkout_session", { meta: {}, id: "chk_0000000000000000" }, -32000, "missing_api_version");
    expect(missing.supported_versions).toEqual(["2026-04-17"]);
    await refused(client, "get_checkout_session", { meta: { api_version: "2025-01-01" }, id: "chk_0000000000000000" }, -32000, "unsupported_api_version");
    await refused(client, "get_checkout_session", { meta: META, id: "chk_0000000000000000" }, -32000, "not_found");
    const item = await refused(client, "create_checkout_session", { meta: META, payload: { line_items: [{ id: "nope" }], currency: "dkk", capabilities: {} } }, -32000, "item_unavailable");
    expect(item.param).toBe("$.line_items[0].id");
    await expect(client.callTool({ name: "create_checkout", arguments: { meta: META } })).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses every tool with −32000 agent_checkout_off while the shop's agent access is off", async () => {
    const client = await connect();
    const [product] = await plainProducts(server, 1);
    const payload = { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} };
    const created = checkoutSession.parse(await call(client, "create_checkout_session", { meta: META, payload }));
    const settings = await server.key("settings:write");
    const access = (agentAccess: string) => server.call("settings.update_commerce", { agentAccess }, { key: settings });
    expect((await access("off")).status).toBe(200);
    try {
      await refused(client, "create_checkout_session", { meta: META, payload }, -32000, "agent_checkout_off");
      await refused(client, "get_checkout_session", { meta: META, id: created.id }, -32000, "agent_checkout_off");
      await refused(client, "complete_checkout_session", { meta: META, id: created.id, payload: PAY }, -32000, "agent_checkout_off");
    } finally {
      expect((await access("open")).status).toBe(200);
    }
    expect(checkoutSession.parse(await call(client, "get_checkout_session", { meta: META, id: created.id })).id).toBe(created.id);
  });

  it("needs a Bearer key with checkout:agent (401/403 before any message), and signed keys sign meta", async () => {
    const anonymous = await fetch(`${server.url}/acp/mcp`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(anonymous.status).toBe(401);
    const body = (await anonymous.json()) as { error: { code: number; data: unknown } };
    expect(body.error.code).toBe(-32000);
    expect(errorBody.parse(body.error.data).code).toBe("unauthorized");
    await expect(connect(READER)).rejects.toThrow();

    const signed = await connect(SIGNED);
    const [product] = await plainProducts(server, 1);
    const payload = { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} };
    await refused(signed, "create_checkout_session", { meta: META, payload }, -32000, "signature_missing");
    const timestamp = new Date().toISOString();
    const create = (body: unknown) => sign(SECRET, timestamp, { method: "POST", path: "/acp/checkout_sessions", body });
    await refused(signed, "create_checkout_session", { meta: { ...META, timestamp, signature: create({ ...payload, currency: "eur" }) }, payload }, -32000, "signature_invalid");
    const first = checkoutSession.parse(await call(signed, "create_checkout_session", { meta: { ...META, timestamp, signature: create(payload) }, payload }));
    const second = checkoutSession.parse(await call(signed, "create_checkout_session", { meta: { ...META, timestamp, signature: create(payload) }, payload }));
    // A tool signs the REST request it stands for: a signed cancel of one session cancels no other, and is no complete.
    const cancel = { intent_trace: { reason_code: "price_sensitivity" } };
    const cancelFirst = sign(SECRET, timestamp, { method: "POST", path: `/acp/checkout_sessions/${first.id}/cancel`, body: cancel });
    await refused(signed, "cancel_checkout_session", { meta: { ...META, timestamp, signature: cancelFirst }, id: second.id, payload: cancel }, -32000, "signature_invalid");
    await refused(signed, "complete_checkout_session", { meta: { ...META, timestamp, signature: cancelFirst }, id: first.id, payload: cancel }, -32000, "signature_invalid");
    expect(checkoutSession.parse(await call(signed, "get_checkout_session", { meta: { ...META, timestamp, signature: sign(SECRET, timestamp, { method: "GET", path: `/acp/checkout_sessions/${second.id}`, body: undefined }) }, id: second.id })).status).not.toBe("canceled");
    expect(checkoutSession.parse(await call(signed, "cancel_checkout_session", { meta: { ...META, timestamp, signature: cancelFirst }, id: first.id, payload: cancel })).status).toBe("canceled");
  });
});

describe("ACP MCP binding: what tools/list advertises", () => {
  /** A JSON-RPC tools/call over HTTP with the key; the error, if the server answered one. */
  async function rawCall(name: string, args: unknown): Promise<{ code: number; message: string; data?: { code?: string } } | undefined> {
    const response = await fetch(`${server.url}/acp/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    });
    return ((await response.json()) as { error?: { code: number; message: string; data?: { code?: string } } }).error;
  }
  /** Why the server refused a call's arguments (bad arguments, a payload the version refuses, no version), or null. */
  const MALFORMED = new Set(["invalid", "unknown_field", "invalid_request", "missing_api_version"]);
  const argumentRefusal = (error: Awaited<ReturnType<typeof rawCall>>) =>
    error && (error.code === -32602 || (error.code === -32000 && MALFORMED.has(error.data?.code ?? ""))) ? error.message : null;

  it("is what the server takes: each tool's smallest and fullest arguments are accepted, each required field left out is refused", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const [product] = await plainProducts(server, 1);
    const session = checkoutSession.parse(await call(client, "create_checkout_session", { meta: META, payload: { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} } }));
    // Values where "x" would not do; complete's payment_data also needs a handler and instrument or a purchase order
    // number, which its description says and JSON Schema cannot (one or the other).
    const fill = (path: string) => {
      if (path === "meta.api_version") return META.api_version;
      if (path === "id") return session.id;
      if (/^payload\.line_items\.\d+\.id$/.test(path)) return product!.id;
      if (path === "payload.currency") return "dkk";
      if (path === "payload.payment_data") return { purchase_order_number: "PO-1" };
      return undefined;
    };
    expect(tools.length).toBe(5);
    for (const tool of tools) {
      const schema = tool.inputSchema as Record<string, unknown>;
      const smallest = minimalInstance(schema, fill);
      expect(accepts(schema, smallest), `${tool.name} ${JSON.stringify(smallest)}`).toBe(true);
      expect(argumentRefusal(await rawCall(tool.name, smallest)), `${tool.name} ${JSON.stringify(smallest)}`).toBeNull();
      const fullest = fullInstance(schema, fill);
      expect(accepts(schema, fullest), `${tool.name} all optional ${JSON.stringify(fullest)}`).toBe(true);
      const answer = await rawCall(tool.name, fullest);
      expect(argumentRefusal(answer), `${tool.name} all optional ${JSON.stringify(fullest)}`).toBeNull();
      expect(answer?.code, `${tool.name} all optional`).not.toBe(-32603);
      const required = requiredPaths(schema, smallest);
      expect(required, tool.name).toEqual(expect.arrayContaining(["meta", "meta.api_version"]));
      for (const path of required) {
        const lacking = without(smallest, path);
        expect(accepts(schema, lacking), `${tool.name} without ${path}`).toBe(false);
        expect(argumentRefusal(await rawCall(tool.name, lacking)), `${tool.name} without ${path}`).not.toBeNull();
      }
    }
  });
});
