// A scripted OpenAI-compatible model server for tests and benchmarks: real HTTP on 127.0.0.1, streamed Chat Completions with tool calls.
//
// Start the shop with OPENAI_BASE_URL = fake.url, OPENAI_API_STYLE = "chat" and any OPENAI_API_KEY, then script answers by
// matching each request the shop's assistant sends (not a fixed queue, so a browser test can drive several turns):
//
//   const fake = await startFakeOpenAI();
//   fake.on("aviator").callTool("products_search", { q: "aviator" }).say("Vi har tre aviator-modeller …");
//   fake.on(/betal|checkout/i).callTool("cart_checkout", {}).say((req) => `Betal her: ${req.lastToolResult<{ paymentUrl: string }>()?.paymentUrl}`);
//   fake.otherwise("Det ved jeg ikke.");
//
// - `on(match)` adds a rule; rules are tried in the order they were added, the first match answers. `match` is a
//   substring of the last user message (case-insensitive), a RegExp tested against it, or a predicate over the request.
// - A rule is a list of steps, one per model request within the same user turn: step 0 answers the request that carries
//   the new user message, step 1 the request after the tools of step 0 ran (or were approved/denied), and so on.
//   `.callTool(name, input)` (several in one step: `.callTools([{ name, input }, …])`), `.say(text)` and
//   `.fail(status, message)` each append a step; text and inputs may be functions of the request. A request past the
//   last step is answered with the fallback text.
// - `requests` records every request (tools offered, messages, step, timings) for assertions; `reset()` clears rules
//   and records. `tokenDelayMs` streams text token by token at a fixed rate (benchmarks, resume tests).
// - A test whose server runs in its own process uses this; one in the test's process may script the model in process
//   with the same rules (fake-model.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { callsOf, createScript, inspect, promptTokens, textOf, tokensOf, type FakeRequest, type ModelScript, type Step } from "./model-script.ts";

export type { FakeRequest, FakeToolCall, FakeToolResult, RuleBuilder } from "./model-script.ts";

export interface FakeOpenAI extends ModelScript {
  /** Base URL for OPENAI_BASE_URL (ends in /v1). */
  url: string;
  close(): Promise<void>;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const { script, answer: stepFor } = createScript();
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `The fake speaks only POST …/chat/completions, not ${req.method} ${req.url}.` } }));
        return;
      }
      const request = inspect(JSON.parse(Buffer.concat(chunks).toString("utf8")) as FakeRequest["body"]);
      res.on("close", () => {
        if (request.endedAt === undefined) request.aborted = true;
      });
      void answer(stepFor(request), request, res, `chatcmpl-${++counter}`);
    });
  });

  async function answer(step: Step, request: FakeRequest, res: http.ServerResponse, id: string): Promise<void> {
    if ("error" in step) {
      res.writeHead(step.error.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: step.error.message, type: "server_error" } }));
      request.endedAt = performance.now();
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const base = { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: request.body.model ?? "fake" };
    const send = (choice: object | null, usage?: object) =>
      res.write(`data: ${JSON.stringify({ ...base, choices: choice ? [{ index: 0, ...choice }] : [], ...(usage ? { usage } : {}) })}\n\n`);
    let tokens = 0;
    send({ delta: { role: "assistant", content: "" }, finish_reason: null });
    if ("text" in step) {
      for (const token of tokensOf(textOf(step, request))) {
        if (request.aborted) return;
        if (fake.tokenDelayMs > 0 && tokens > 0) await new Promise((resolve) => setTimeout(resolve, fake.tokenDelayMs));
        request.firstTokenAt ??= performance.now();
        send({ delta: { content: token }, finish_reason: null });
        tokens++;
      }
      send({ delta: {}, finish_reason: "stop" });
    } else {
      callsOf(step, request).forEach((call, index) => {
        const args = JSON.stringify(call.input ?? {});
        const half = Math.ceil(args.length / 2);
        request.firstTokenAt ??= performance.now();
        send({ delta: { tool_calls: [{ index, id: `call_${id}_${index}`, type: "function", function: { name: call.name, arguments: args.slice(0, half) } }] }, finish_reason: null });
        send({ delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, finish_reason: null });
        tokens += 2;
      });
      send({ delta: {}, finish_reason: "tool_calls" });
    }
    const prompt = promptTokens(request);
    send(null, { prompt_tokens: prompt, completion_tokens: tokens, total_tokens: prompt + tokens });
    request.endedAt = performance.now();
    res.end("data: [DONE]\n\n");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  // The script's own object, so `tokenDelayMs` set by a test is the one the answers read.
  const fake = Object.assign(script, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) satisfies FakeOpenAI;
  return fake;
}
