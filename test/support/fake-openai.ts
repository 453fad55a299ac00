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
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeToolCall {
  name: string;
  input: unknown;
}

export interface FakeToolResult {
  toolCallId: string;
  name: string;
  /** The tool message content as sent by the client (a JSON string for JSON results, or an error text). */
  content: string;
}

/** One request the assistant sent, as the fake saw it. */
export interface FakeRequest {
  body: { model?: string; messages: ChatMessage[]; tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }> };
  /** The names of the tools offered to the model in this request. */
  toolNames: string[];
  /** The text of the last user message. */
  lastUserText: string;
  /** How many assistant messages follow the last user message (0 = first model call of the turn). */
  step: number;
  /** Tool results after the last user message, oldest first. */
  toolResults: FakeToolResult[];
  /** The parsed JSON of the newest tool result (undefined when it was not JSON, e.g. a tool error). */
  lastToolResult<T = unknown>(): T | undefined;
  /** performance.now() when the request arrived, when the first content chunk was written, and when the response ended. */
  receivedAt: number;
  firstTokenAt?: number;
  endedAt?: number;
  /** The client closed the connection before the response ended (the turn was aborted). */
  aborted: boolean;
}

type Dynamic<T> = T | ((request: FakeRequest) => T);
type Step = { text: Dynamic<string> } | { toolCalls: Dynamic<FakeToolCall[]> } | { error: { status: number; message: string } };

interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface RuleBuilder {
  callTool(name: string, input?: object | ((request: FakeRequest) => object)): RuleBuilder;
  callTools(calls: Dynamic<FakeToolCall[]>): RuleBuilder;
  say(text: Dynamic<string>): RuleBuilder;
  fail(status: number, message: string): RuleBuilder;
}

export interface FakeOpenAI {
  /** Base URL for OPENAI_BASE_URL (ends in /v1). */
  url: string;
  requests: FakeRequest[];
  /** Milliseconds between streamed text tokens (default 0: as fast as possible). */
  tokenDelayMs: number;
  on(match: string | RegExp | ((request: FakeRequest) => boolean)): RuleBuilder;
  /** The answer when no rule matches, or a rule has no step left (default: a short Danish "nothing scripted"). */
  otherwise(text: Dynamic<string>): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const rules: Array<{ matches: (request: FakeRequest) => boolean; steps: Step[] }> = [];
  let fallback: Dynamic<string> = "(fake model: intet svar er skrevet til dette)";
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
      fake.requests.push(request);
      res.on("close", () => {
        if (request.endedAt === undefined) request.aborted = true;
      });
      const rule = rules.find((candidate) => candidate.matches(request));
      const step: Step = rule?.steps[request.step] ?? { text: fallback };
      void answer(step, request, res, `chatcmpl-${++counter}`);
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
      const text = typeof step.text === "function" ? step.text(request) : step.text;
      for (const token of text.match(/\s*\S+/g) ?? [text]) {
        if (request.aborted) return;
        if (fake.tokenDelayMs > 0 && tokens > 0) await new Promise((resolve) => setTimeout(resolve, fake.tokenDelayMs));
        request.firstTokenAt ??= performance.now();
        send({ delta: { content: token }, finish_reason: null });
        tokens++;
      }
      send({ delta: {}, finish_reason: "stop" });
    } else {
      const calls = typeof step.toolCalls === "function" ? step.toolCalls(request) : step.toolCalls;
      calls.forEach((call, index) => {
        const args = JSON.stringify(call.input ?? {});
        const half = Math.ceil(args.length / 2);
        request.firstTokenAt ??= performance.now();
        send({ delta: { tool_calls: [{ index, id: `call_${id}_${index}`, type: "function", function: { name: call.name, arguments: args.slice(0, half) } }] }, finish_reason: null });
        send({ delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, finish_reason: null });
        tokens += 2;
      });
      send({ delta: {}, finish_reason: "tool_calls" });
    }
    const promptTokens = Math.ceil(JSON.stringify(request.body.messages).length / 4);
    send(null, { prompt_tokens: promptTokens, completion_tokens: tokens, total_tokens: promptTokens + tokens });
    request.endedAt = performance.now();
    res.end("data: [DONE]\n\n");
  }

  function builder(steps: Step[]): RuleBuilder {
    const self: RuleBuilder = {
      callTool: (name, input = {}) => self.callTools((request) => [{ name, input: typeof input === "function" ? input(request) : input }]),
      callTools: (calls) => (steps.push({ toolCalls: calls }), self),
      say: (text) => (steps.push({ text }), self),
      fail: (status, message) => (steps.push({ error: { status, message } }), self),
    };
    return self;
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const fake: FakeOpenAI = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: [],
    tokenDelayMs: 0,
    on(match) {
      const steps: Step[] = [];
      const matches =
        typeof match === "function"
          ? match
          : typeof match === "string"
            ? (request: FakeRequest) => request.lastUserText.toLowerCase().includes(match.toLowerCase())
            : (request: FakeRequest) => match.test(request.lastUserText);
      rules.push({ matches, steps });
      return builder(steps);
    },
    otherwise(text) {
      fallback = text;
    },
    reset() {
      rules.length = 0;
      fake.requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

function textOf(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}

function inspect(body: FakeRequest["body"]): FakeRequest {
  const messages = body.messages ?? [];
  let lastUser = -1;
  messages.forEach((message, index) => {
    if (message.role === "user") lastUser = index;
  });
  const after = messages.slice(lastUser + 1);
  const names = new Map<string, string>();
  for (const message of after) for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  const toolResults = after
    .filter((message) => message.role === "tool")
    .map((message) => ({ toolCallId: message.tool_call_id ?? "", name: names.get(message.tool_call_id ?? "") ?? "", content: textOf(message.content) }));
  return {
    body,
    toolNames: (body.tools ?? []).map((tool) => tool.function.name),
    lastUserText: lastUser >= 0 ? textOf(messages[lastUser]!.content) : "",
    step: after.filter((message) => message.role === "assistant").length,
    toolResults,
    lastToolResult<T>() {
      const last = toolResults.at(-1);
      if (!last) return undefined;
      try {
        return JSON.parse(last.content) as T;
      } catch {
        return undefined;
      }
    },
    receivedAt: performance.now(),
    aborted: false,
  };
}
