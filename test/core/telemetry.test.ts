// OpenTelemetry traces, collected by an in-memory exporter from a server in this process: a span per request, per tool
// call (REST, MCP, the assistant), per MCP method, per database statement, per model call and per webhook delivery;
// refusals and failures as errors; log lines carrying the trace id. And without an endpoint, no SDK at all.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { startTelemetry, telemetryActive, type Telemetry } from "../../src/core/telemetry.ts";
import { connect, send, toolParts } from "../support/chat.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { mcpCallRaw } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";
import { newSession, plainProducts } from "../support/session.ts";
import { poll } from "../support/wait.ts";
import { startWebhookReceiver, subscribe, type WebhookReceiver } from "../support/webhook-receiver.ts";

describe("without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  const { server, keys } = useServer({ keys: { reader: ["orders:read"] } });

  it("starts no tracer provider: every span is a no-op", async () => {
    expect(server.runtime.config.otelExporterEndpoint).toBeUndefined();
    expect((await server.call("orders.get", { orderId: "demo-order-20" }, { key: keys.reader })).status).toBe(200);
    expect(telemetryActive()).toBe(false);
    const span = trace.getTracer("probe").startSpan("probe");
    expect(span.isRecording()).toBe(false);
    span.end();
  });
});

describe("with a span processor", () => {
  const exporter = new InMemorySpanExporter();
  let telemetry: Telemetry;
  let fake: FakeOpenAI;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    telemetry = await startTelemetry({ spanProcessor: new SimpleSpanProcessor(exporter) });
    [fake, receiver] = await Promise.all([startFakeOpenAI(), startWebhookReceiver()]);
  });
  const { server, keys } = useServer({
    keys: { reader: ["orders:read"], stock: ["products:write", "catalog:read"] },
    config: () => ({
      openaiApiKey: "sk-fake",
      openaiBaseUrl: fake.url,
      openaiApiStyle: "chat",
      chatWorkers: 0,
      logLevel: "info",
      webhooksAllowLocal: true,
      webhookRetryDelaysMs: [50, 50],
      outboxPollMs: 50,
    }),
  });
  afterAll(async () => {
    await Promise.all([fake.close(), receiver.close()]);
    await telemetry.shutdown();
  });
  // The server logs at info here: its lines are kept from the test output (and read by the log test).
  let logged: string[] = [];
  beforeEach(() => {
    exporter.reset();
    fake.reset();
    logged = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
    return () => vi.restoreAllMocks();
  });

  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((span) => span.name === name);
  const one = (name: string) => {
    const found = named(name);
    expect(found.map((span) => span.name), `spans named ${name} among ${spans().map((span) => span.name).join(", ")}`).toHaveLength(1);
    return found[0]!;
  };
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;
  /** Spans whose chain of parents reaches `ancestor`. */
  const under = (ancestor: ReadableSpan) => {
    const byId = new Map(spans().map((span) => [idOf(span), span]));
    return spans().filter((span) => {
      for (let parent = parentOf(span); parent; parent = byId.get(parent) && parentOf(byId.get(parent)!)) {
        if (parent === idOf(ancestor)) return true;
      }
      return false;
    });
  };
  /** Spans finish just after the answer is sent: wait until the request's own span is in. */
  const settled = (name: string) => poll(async () => named(name), (found) => found.length > 0, 5_000);

  it("traces a REST tool call: request span (continuing the caller's traceparent) → tool span → database spans", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const answer = await server.call("orders.get", { orderId: "demo-order-20" }, { key: keys.reader, headers: { traceparent: `00-${traceId}-${callerSpan}-01` } });
    expect(answer.status).toBe(200);
    await settled("POST /api/v1/tools/:name");

    const request = one("POST /api/v1/tools/:name");
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.spanContext().traceId).toBe(traceId);
    expect(parentOf(request)).toBe(callerSpan);
    expect(request.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/api/v1/tools/:name", "url.path": "/api/v1/tools/orders.get", "http.response.status_code": 200 });
    expect(request.status.code).toBe(SpanStatusCode.UNSET);

    const tool = one("execute_tool orders.get");
    expect(parentOf(tool)).toBe(idOf(request));
    expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "orders.get", "shop.door": "rest" });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);

    const database = under(tool).filter((span) => span.name.startsWith("prisma:"));
    expect(database.map((span) => span.name)).toEqual(expect.arrayContaining(["prisma:client:operation", "prisma:client:db_query"]));
    const query = database.find((span) => span.name === "prisma:client:db_query")!;
    expect(String(query.attributes["db.query.text"])).toMatch(/SELECT/);
    expect(database.every((span) => span.spanContext().traceId === traceId)).toBe(true);
  });

  it("marks a refused REST call's tool span as an error, not the request's (a 4xx is the client's)", async () => {
    const answer = await server.call("orders.get", { orderId: "no-such-order" }, { key: keys.reader });
    expect(answer.status).toBe(404);
    await settled("POST /api/v1/tools/:name");
    const tool = one("execute_tool orders.get");
    expect(tool.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(tool.attributes).toMatchObject({ "error.type": "not_found", "shop.problem.status": 404 });
    expect(one("POST /api/v1/tools/:name").attributes["http.response.status_code"]).toBe(404);
    expect(one("POST /api/v1/tools/:name").status.code).toBe(SpanStatusCode.UNSET);
  });

  it("traces an MCP tools/call: request span → `tools/call <tool>` (MCP conventions) → tool span", async () => {
    const answer = await mcpCallRaw(server, "orders.get", { orderId: "demo-order-20" }, { key: keys.reader, headers: { "mcp-protocol-version": "2025-06-18" } });
    expect(answer.body.result?.isError).toBeUndefined();
    await settled("POST /api/mcp");
    const request = one("POST /api/mcp");
    const method = one("tools/call orders.get");
    expect(method.kind).toBe(SpanKind.SERVER);
    expect(parentOf(method)).toBe(idOf(request));
    expect(method.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "orders.get",
      "jsonrpc.request.id": String(answer.body.id),
      "mcp.protocol.version": "2025-06-18",
      "network.transport": "tcp",
    });
    expect(method.status.code).toBe(SpanStatusCode.UNSET);
    const tool = one("execute_tool orders.get");
    expect(parentOf(tool)).toBe(idOf(method));
    expect(tool.attributes["shop.door"]).toBe("mcp");
  });

  it("counts an isError tool result as an error of the MCP span (error.type tool_error), and JSON-RPC errors by their code", async () => {
    const refused = await mcpCallRaw(server, "orders.get", { orderId: "demo-order-20" });
    expect(refused.body.result?.isError).toBe(true);
    await settled("POST /api/mcp");
    const method = one("tools/call orders.get");
    expect(method.status.code).toBe(SpanStatusCode.ERROR);
    expect(method.attributes["error.type"]).toBe("tool_error");

    exporter.reset();
    const unknown = await mcpCallRaw(server, "orders.no_such_tool", {}, { key: keys.reader });
    expect(unknown.body.error?.code).toBe(-32602);
    await settled("POST /api/mcp");
    // A name the registry does not know stays out of the span name (a client must not mint span names).
    const bare = one("tools/call");
    expect(bare.status.code).toBe(SpanStatusCode.ERROR);
    expect(bare.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
  });

  it("traces an assistant turn: invoke_agent → a chat span per model call and the tool call; its log line carries the trace id", async () => {
    const product = (await plainProducts(server)).at(-1)!;
    fake.on("brille").callTool("products_get", { slug: product.slug }).say("Den findes.");
    const socket = await connect(server, "storefront", { cookie: await newSession(server) });
    try {
      const turn = await send(socket, "trace-chat", `Hvad koster brillen ${product.slug}?`);
      expect(toolParts(turn.message)).toMatchObject([{ name: "products_get", state: "output-available" }]);
    } finally {
      socket.close();
    }
    await settled("invoke_agent storefront");
    const agent = one("invoke_agent storefront");
    expect(agent.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "storefront", "shop.turn.steps": 2 });
    expect(agent.status.code).toBe(SpanStatusCode.UNSET);
    const model = server.runtime.config.openaiModel;
    const calls = named(`chat ${model}`);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(call)).toBe(idOf(agent));
      expect(call.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": model, "gen_ai.provider.name": "openai", "server.address": "127.0.0.1" });
      expect(call.attributes["gen_ai.usage.output_tokens"]).toEqual(expect.any(Number));
    }
    expect(calls.map((call) => call.attributes["gen_ai.response.finish_reasons"])).toEqual([["tool-calls"], ["stop"]]);
    const tool = one("execute_tool products.get");
    expect(under(agent)).toContainEqual(tool);
    expect(tool.attributes["shop.door"]).toBe("storefront-assistant");

    const line = logged.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.message === "chat turn");
    expect(line).toMatchObject({ traceId: agent.spanContext().traceId, spanId: idOf(agent) });
  });

  it("traces SQL sent outside Prisma inside a traced operation, and not the outbox's idle polls", async () => {
    await trace.getTracer("test").startActiveSpan("probe", async (probe) => {
      await server.database.query("SELECT 1 AS one");
      probe.end();
    });
    const probe = one("probe");
    const select = one("SELECT");
    expect(parentOf(select)).toBe(idOf(probe));
    expect(select.kind).toBe(SpanKind.CLIENT);
    expect(select.attributes).toMatchObject({ "db.system.name": "postgresql", "db.operation.name": "SELECT", "db.query.text": "SELECT 1 AS one" });
    // The outbox polls every 50 ms here; a claim that is part of no operation makes no trace of its own.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(named("UPDATE")).toEqual([]);
  });

  it("traces each webhook delivery attempt as a CLIENT span of its own trace, failed attempts as errors", async () => {
    await subscribe(server, receiver, "/trace", ["product.updated"]);
    receiver.failNext("/trace", 500);
    const slug = (await plainProducts(server)).at(0)!.slug;
    expect((await server.call("products.adjust_stock", { slug, delta: 1, reason: "Optælling" }, { key: keys.stock })).status).toBe(200);
    await poll(async () => named("POST webhook product.updated"), (found) => found.length >= 2, 5_000);

    const [failed, delivered] = named("POST webhook product.updated").sort((a, b) => Number(a.attributes["shop.webhook.attempt"]) - Number(b.attributes["shop.webhook.attempt"]));
    for (const span of [failed!, delivered!]) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(span)).toBeUndefined();
      expect(span.attributes).toMatchObject({ "http.request.method": "POST", "server.address": "127.0.0.1", "shop.webhook.event_type": "product.updated" });
    }
    expect(failed!.attributes).toMatchObject({ "shop.webhook.attempt": 1, "http.response.status_code": 500, "error.type": "500" });
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
    expect(delivered!.attributes).toMatchObject({ "shop.webhook.attempt": 2, "http.response.status_code": 204 });
    expect(delivered!.status.code).toBe(SpanStatusCode.UNSET);
    // The receiver can continue the delivery's trace, and the delivery's own database work sits under it.
    const received = receiver.at("/trace").map((message) => message.headers.traceparent);
    expect(received).toEqual([`00-${failed!.spanContext().traceId}-${idOf(failed!)}-01`, `00-${delivered!.spanContext().traceId}-${idOf(delivered!)}-01`]);
    expect(under(delivered!).some((span) => span.name.startsWith("prisma:"))).toBe(true);
    const line = logged.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.message === "webhook delivered");
    expect(line).toMatchObject({ traceId: delivered!.spanContext().traceId });
  });
});
