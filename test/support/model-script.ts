// The script of a fake model, shared by the HTTP fake (fake-openai.ts) and the in-process one (fake-model.ts): rules
// that match a request and answer it step by step, and the request as the model saw it, in OpenAI's Chat Completions
// shape (the in-process fake converts the AI SDK's prompt the way the OpenAI provider does, so assertions read alike).

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

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
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

export type Dynamic<T> = T | ((request: FakeRequest) => T);
export type Step = { text: Dynamic<string> } | { toolCalls: Dynamic<FakeToolCall[]> } | { error: { status: number; message: string } };

export interface RuleBuilder {
  callTool(name: string, input?: object | ((request: FakeRequest) => object)): RuleBuilder;
  callTools(calls: Dynamic<FakeToolCall[]>): RuleBuilder;
  say(text: Dynamic<string>): RuleBuilder;
  fail(status: number, message: string): RuleBuilder;
}

/** What both fakes offer a test: rules, the fallback, the requests seen and the token pace. */
export interface ModelScript {
  requests: FakeRequest[];
  /** Milliseconds between streamed text tokens (default 0: as fast as possible). */
  tokenDelayMs: number;
  on(match: string | RegExp | ((request: FakeRequest) => boolean)): RuleBuilder;
  /** The answer when no rule matches, or a rule has no step left (default: a short Danish "nothing scripted"). */
  otherwise(text: Dynamic<string>): void;
  reset(): void;
}

/** A script and the step that answers a request (recorded in `requests`). */
export function createScript(): { script: ModelScript; answer(request: FakeRequest): Step } {
  const rules: Array<{ matches: (request: FakeRequest) => boolean; steps: Step[] }> = [];
  let fallback: Dynamic<string> = "(fake model: intet svar er skrevet til dette)";

  function builder(steps: Step[]): RuleBuilder {
    const self: RuleBuilder = {
      callTool: (name, input = {}) => self.callTools((request) => [{ name, input: typeof input === "function" ? input(request) : input }]),
      callTools: (calls) => (steps.push({ toolCalls: calls }), self),
      say: (text) => (steps.push({ text }), self),
      fail: (status, message) => (steps.push({ error: { status, message } }), self),
    };
    return self;
  }

  const script: ModelScript = {
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
      script.requests.length = 0;
    },
  };
  return {
    script,
    answer(request) {
      script.requests.push(request);
      const rule = rules.find((candidate) => candidate.matches(request));
      return rule?.steps[request.step] ?? { text: fallback };
    },
  };
}

/** The text of a step, or its tool calls, for this request. */
export const textOf = (step: { text: Dynamic<string> }, request: FakeRequest): string => (typeof step.text === "function" ? step.text(request) : step.text);
export const callsOf = (step: { toolCalls: Dynamic<FakeToolCall[]> }, request: FakeRequest): FakeToolCall[] =>
  typeof step.toolCalls === "function" ? step.toolCalls(request) : step.toolCalls;

/** The tokens a text is streamed in: each word with the white space before it. */
export const tokensOf = (text: string): string[] => text.match(/\s*\S+/g) ?? [text];

/** The usage a fake reports: about four characters of the prompt per token, one per streamed piece. */
export const promptTokens = (request: FakeRequest): number => Math.ceil(JSON.stringify(request.body.messages).length / 4);

function contentText(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}

/** A request as the fakes record it, from the Chat Completions body the model received. */
export function inspect(body: FakeRequest["body"]): FakeRequest {
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
    .map((message) => ({ toolCallId: message.tool_call_id ?? "", name: names.get(message.tool_call_id ?? "") ?? "", content: contentText(message.content) }));
  return {
    body,
    toolNames: (body.tools ?? []).map((tool) => tool.function.name),
    lastUserText: lastUser >= 0 ? contentText(messages[lastUser]!.content) : "",
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
