// OTEL_EXPORTER_OTLP_ENDPOINT in a real server process: the SDK loads and exports OTLP/HTTP to a local collector, with
// OTEL_SERVICE_NAME as service.name; an assistant turn in a turn worker (CHAT_WORKERS=1) exports its model calls from
// the worker, in the trace of the main thread's turn span.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connect, send, toolParts } from "../support/chat.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { spawnShop, type ShopProcess } from "../support/process.ts";
import { processDatabase } from "../support/server.ts";
import { newSession } from "../support/session.ts";
import { poll } from "../support/wait.ts";

/** A span as OTLP/JSON carries it, with the service.name of its resource. */
interface ExportedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

interface OtlpBody {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<Omit<ExportedSpan, "service">> }>;
  }>;
}

const exported: ExportedSpan[] = [];
let collector: http.Server;
let collectorUrl: string;
let fake: FakeOpenAI;
let shop: ShopProcess;
let url: string;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  collector = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces" && /json/.test(request.headers["content-type"] ?? "")) {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpBody;
        for (const resource of body.resourceSpans ?? []) {
          const service = resource.resource?.attributes?.find((attribute) => attribute.key === "service.name")?.value.stringValue ?? "";
          for (const scope of resource.scopeSpans ?? []) for (const span of scope.spans ?? []) exported.push({ ...span, service });
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  fake = await startFakeOpenAI();

  const env: Record<string, string> = {
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    OTEL_SERVICE_NAME: "shop-otlp-test",
    // Batches leave every 200 ms instead of every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: "200",
    OPENAI_API_KEY: "sk-fake",
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_STYLE: "chat",
    CHAT_WORKERS: "1",
  };
  const own = await processDatabase();
  cleanups.push(own.drop);
  shop = spawnShop({ ...env, ...own.env });
  url = await shop.url();
}, 120_000);

afterAll(async () => {
  await shop?.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
  await fake?.close();
  await new Promise((resolve) => collector?.close(resolve));
});

const named = (name: string) => exported.filter((span) => span.name === name);

it("exports a REST call's spans over OTLP/HTTP, named for OTEL_SERVICE_NAME", async () => {
  const response = await fetch(`${url}/api/v1/tools/products.search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ q: "aviator" }) });
  expect(response.status).toBe(200);
  await poll(async () => named("execute_tool products.search"), (found) => found.length > 0, 15_000);
  const request = named("POST /api/v1/tools/:name")[0]!;
  const tool = named("execute_tool products.search")[0]!;
  expect(tool.parentSpanId).toBe(request.spanId);
  expect(tool.traceId).toBe(request.traceId);
  expect(new Set(exported.map((span) => span.service))).toEqual(new Set(["shop-otlp-test"]));
}, 30_000);

it("continues a turn's trace in the turn worker: its model calls are children of the main thread's invoke_agent span", async () => {
  fake.on("brille").callTool("products_search", { q: "aviator" }).say("Vi har aviator-modeller.");
  const socket = await connect({ url }, "storefront", { cookie: await newSession({ url }) });
  try {
    const turn = await send(socket, "otlp-chat", "Har I en brille til mig?");
    expect(toolParts(turn.message)).toMatchObject([{ name: "products_search", state: "output-available" }]);
  } finally {
    socket.close();
  }
  const calls = await poll(async () => named("chat gpt-4.1-mini"), (found) => found.length >= 2, 20_000);
  await poll(async () => named("invoke_agent storefront"), (found) => found.length > 0, 15_000);
  const agent = named("invoke_agent storefront")[0]!;
  for (const call of calls) {
    expect(call.traceId).toBe(agent.traceId);
    expect(call.parentSpanId).toBe(agent.spanId);
  }
  const tool = named("execute_tool products.search").find((span) => span.traceId === agent.traceId);
  expect(tool?.parentSpanId).toBe(agent.spanId);
}, 60_000);
