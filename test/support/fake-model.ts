// A scripted model in the test's own process: the AI SDK's MockLanguageModelV4 answering by the same rules as the HTTP
// fake (fake-openai.ts), for a server started by this file (`useServer({ start: { model: fake.model } })`). Turns then
// run on the main thread, not in a turn worker; tests of workers, of a server in another process, or of the OpenAI
// provider itself (its spans, its HTTP) keep the HTTP fake.
//
//   const fake = fakeModel();
//   const { server } = useServer({ start: { model: fake.model } });
//   fake.on("aviator").callTool("products_search", { q: "aviator" }).say("Vi har tre aviator-modeller …");
//
// Each request is recorded as the OpenAI provider would have sent it (`requests[i].body.messages` in Chat Completions
// form, tool results as the same JSON strings), so a test reads the same whichever fake it uses; `fake.model.doStreamCalls`
// holds the AI SDK's own call options besides.
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { callsOf, createScript, inspect, promptTokens, textOf, tokensOf, type ChatMessage, type FakeRequest, type ModelScript, type Step } from "./model-script.ts";

export type { FakeRequest, FakeToolCall, FakeToolResult, RuleBuilder } from "./model-script.ts";

export interface FakeModel extends ModelScript {
  /** The model to start the server with (`start: { model }`). */
  model: MockLanguageModelV4;
}

export function fakeModel(): FakeModel {
  const { script, answer } = createScript();
  let counter = 0;
  const model = new MockLanguageModelV4({
    provider: "fake",
    modelId: "fake",
    doStream: async (options) => {
      const request = inspect(chatBody(options));
      const step = answer(request);
      if ("error" in step) {
        request.endedAt = performance.now();
        const { status, message } = step.error;
        throw new APICallError({ message, url: "fake://chat/completions", requestBodyValues: request.body, statusCode: status, isRetryable: status === 408 || status === 409 || status === 429 || status >= 500 });
      }
      return { stream: streamOf(step, request, `call_fake-${++counter}`, options.abortSignal) };
    },
  });
  return Object.assign(script, { model }) satisfies FakeModel;

  /** The parts of one answer, text token by token at the script's pace, until the turn is aborted. */
  function streamOf(step: Exclude<Step, { error: unknown }>, request: FakeRequest, id: string, signal: AbortSignal | undefined): ReadableStream<LanguageModelV4StreamPart> {
    const abort = () => {
      if (request.endedAt === undefined) request.aborted = true;
    };
    signal?.addEventListener("abort", abort, { once: true });
    return new ReadableStream<LanguageModelV4StreamPart>({
      async start(controller) {
        let tokens = 0;
        controller.enqueue({ type: "stream-start", warnings: [] });
        if ("text" in step) {
          controller.enqueue({ type: "text-start", id });
          for (const token of tokensOf(textOf(step, request))) {
            if (request.aborted) return controller.close();
            if (script.tokenDelayMs > 0 && tokens > 0) await new Promise((resolve) => setTimeout(resolve, script.tokenDelayMs));
            if (request.aborted) return controller.close();
            request.firstTokenAt ??= performance.now();
            controller.enqueue({ type: "text-delta", id, delta: token });
            tokens++;
          }
          controller.enqueue({ type: "text-end", id });
        } else {
          // As the OpenAI provider streams a call: its input in pieces (here two, as the HTTP fake sends them), then the call.
          callsOf(step, request).forEach((call, index) => {
            const toolCallId = `${id}_${index}`;
            const input = JSON.stringify(call.input ?? {});
            const half = Math.ceil(input.length / 2);
            request.firstTokenAt ??= performance.now();
            controller.enqueue({ type: "tool-input-start", id: toolCallId, toolName: call.name });
            controller.enqueue({ type: "tool-input-delta", id: toolCallId, delta: input.slice(0, half) });
            controller.enqueue({ type: "tool-input-delta", id: toolCallId, delta: input.slice(half) });
            controller.enqueue({ type: "tool-input-end", id: toolCallId });
            controller.enqueue({ type: "tool-call", toolCallId, toolName: call.name, input });
            tokens += 2;
          });
        }
        const unified = "text" in step ? "stop" : "tool-calls";
        const input = promptTokens(request);
        controller.enqueue({
          type: "finish",
          finishReason: { unified, raw: "text" in step ? "stop" : "tool_calls" },
          usage: { inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: tokens, text: tokens, reasoning: 0 } },
        });
        request.endedAt = performance.now();
        signal?.removeEventListener("abort", abort);
        controller.close();
      },
    });
  }
}

/** The Chat Completions body the OpenAI provider would send for these call options (its message conversion, in short). */
function chatBody(options: LanguageModelV4CallOptions): FakeRequest["body"] {
  const tools = (options.tools ?? []).flatMap((tool) => (tool.type === "function" ? [{ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }] : []));
  return { model: "fake", messages: chatMessages(options.prompt), ...(tools.length > 0 ? { tools } : {}) };
}

function chatMessages(prompt: LanguageModelV4Prompt): ChatMessage[] {
  return prompt.flatMap((message): ChatMessage[] => {
    switch (message.role) {
      case "system":
        return [{ role: "system", content: message.content }];
      case "user": {
        const [only] = message.content;
        if (message.content.length === 1 && only?.type === "text") return [{ role: "user", content: only.text }];
        return [{ role: "user", content: message.content.map((part): { type: string; text?: string } => (part.type === "text" ? { type: "text", text: part.text } : { type: part.type })) }];
      }
      case "assistant": {
        let text = "";
        const calls: NonNullable<ChatMessage["tool_calls"]> = [];
        for (const part of message.content) {
          if (part.type === "text") text += part.text;
          if (part.type === "tool-call") calls.push({ id: part.toolCallId, function: { name: part.toolName, arguments: typeof part.input === "string" ? part.input : JSON.stringify(part.input) } });
        }
        return [{ role: "assistant", content: calls.length > 0 ? text || null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) }];
      }
      case "tool":
        return message.content.flatMap((part) => (part.type === "tool-result" ? [{ role: "tool" as const, tool_call_id: part.toolCallId, content: outputText(part.output) }] : []));
    }
  });
}

/** A tool result as the OpenAI provider words it for the model. */
function outputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case "text":
      return output.value;
    case "error-text":
    case "error-json":
      return JSON.stringify({ error: output.value });
    case "execution-denied":
      return output.reason ?? "Tool call execution denied.";
    default:
      return JSON.stringify(output.value);
  }
}
