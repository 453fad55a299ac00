// One assistant turn on the AI SDK: the tool loop over the offered tools, streamed as UI message chunks. It runs where
// the SDK runs, in a turn worker (src/assistants/turns/worker.ts) or on the main thread when a model is injected; what it
// needs of the shop goes through its TurnHost, so every tool call runs in the main thread's executor as the caller.
import {
  convertToModelMessages,
  experimental_streamTextLowMemory as streamTextLowMemory,
  generateId,
  isStepCount,
  jsonSchema,
  tool,
  toUIMessageStream,
  type JSONSchema7,
  type LanguageModel,
  type StopCondition,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { describeFailure } from "../failure.ts";
import { forModel } from "./model-output.ts";
import type { Limits } from "../assistant-profiles.ts";

/** A registry tool as the model sees it: its wire name (`products_search`), description and compact input schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JSONSchema7;
}

export interface TurnSpec {
  instructions: string;
  /** The messages the model sees (the chat's recent history); a last assistant message is continued (answered approvals). */
  messages: UIMessage[];
  /** Wire names of the tools offered in this turn, and of those that wait for the person's approval. */
  tools: string[];
  approvals: string[];
  limits: Limits;
}

export type Validation = { success: true; value: unknown } | { success: false; message: string };
/** A tool call's output, or the problem JSON the model (and the person) reads instead. */
export type ToolOutcome = { ok: true; output: unknown } | { ok: false; problem: string };

/** What a turn asks of the shop. Tool names are wire names, and only offered ones. */
export interface TurnHost {
  /** Checks a call's input against the tool's zod schema, before approval and before the call. */
  validate(tool: string, input: unknown): Promise<Validation>;
  call(tool: string, input: unknown): Promise<ToolOutcome>;
  chunk(chunk: UIMessageChunk): void;
  /** The answer is complete: stored before the turn's end is announced, so the next turn finds it. */
  end(message: UIMessage, isContinuation: boolean): Promise<void>;
}

/** How a turn went, for its log line and its last frame. */
export interface TurnReport {
  steps: number;
  inputTokens: number;
  outputTokens: number;
  finishReason?: string;
  /** The first error of the turn, for the log (an error inside the stream reaches the person as its `error` chunk). */
  failure?: string;
  /** The turn itself failed: what the person is told in the last frame instead of its end (never internals). */
  broken?: string;
}

/** Runs one turn to its end; never rejects (a failure is part of the report). */
export async function runTurn(model: LanguageModel, definitions: ReadonlyMap<string, ToolDefinition>, spec: TurnSpec, host: TurnHost, signal: AbortSignal, approvalSecret: Uint8Array): Promise<TurnReport> {
  const { limits } = spec;
  const report: TurnReport = { steps: 0, inputTokens: 0, outputTokens: 0 };
  const fail = (error: unknown) => {
    report.failure ??= String(error);
  };
  try {
    const tools = toolSet(definitions, spec, host);
    // The single-consumer variant: the turn reads the stream once, so it keeps no replay buffer or final-content
    // promises (one tee and its bookkeeping less per chunk); onStepEnd/onEnd callbacks report what the log needs.
    const result = streamTextLowMemory({
      model,
      instructions: spec.instructions,
      messages: await convertToModelMessages(spec.messages, { tools, ignoreIncompleteToolCalls: true }),
      tools,
      toolApproval: Object.fromEntries(spec.approvals.map((name) => [name, "user-approval" as const])),
      experimental_toolApprovalSecret: approvalSecret,
      stopWhen: [isStepCount(limits.maxSteps), outputTokensReach(limits.maxOutputTokensPerTurn)],
      maxOutputTokens: limits.maxOutputTokensPerStep,
      toolCallConcurrency: 1,
      timeout: { totalMs: limits.turnTimeoutMs, chunkMs: limits.chunkTimeoutMs, toolMs: limits.toolTimeoutMs },
      abortSignal: signal,
      maxRetries: 1,
      // The turn's log line is the shop's record of a turn; the SDK's telemetry events (copied and redacted for
      // integrations and diagnostics channels nobody subscribes to here) cost ~5 % of a turn's CPU.
      telemetry: { isEnabled: false },
      onStepEnd: (step) => {
        report.steps++;
        report.inputTokens += step.usage.inputTokens ?? 0;
        report.outputTokens += step.usage.outputTokens ?? 0;
        report.finishReason = step.finishReason;
      },
      onError: ({ error }) => fail(error),
    });
    const chunks = toUIMessageStream({
      stream: result.stream,
      tools,
      originalMessages: spec.messages,
      generateMessageId: () => `msg_${generateId()}`,
      sendReasoning: false,
      redactToolErrors: false,
      onError: (error) => {
        fail(error);
        return describeFailure(error);
      },
      onEnd: ({ responseMessage, isContinuation }) => host.end(responseMessage, isContinuation),
    });
    for await (const chunk of chunks) host.chunk(chunk);
  } catch (error) {
    fail(error);
    report.broken = describeFailure(error);
  }
  return report;
}

/**
 * AI SDK tools named `<area>_<action>` with the registry's description and compact input schema, each validated and
 * called through the host. A refused call comes back to the model as a tool error whose text is the problem JSON. The
 * model reads at most `maxToolResultChars` of a result (forModel); the UI stream and the stored chat keep all of it.
 */
function toolSet(definitions: ReadonlyMap<string, ToolDefinition>, spec: TurnSpec, host: TurnHost): ToolSet {
  const tools: ToolSet = {};
  for (const name of spec.tools) {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`No definition of the offered tool ${name}.`);
    tools[name] = tool({
      description: definition.description,
      inputSchema: jsonSchema<unknown>(definition.inputSchema, {
        validate: async (value) => {
          const checked = await host.validate(name, value);
          return checked.success ? checked : { success: false, error: new Error(checked.message) };
        },
      }),
      execute: async (input: unknown) => {
        const outcome = await host.call(name, input);
        if (!outcome.ok) throw new ToolProblem(outcome.problem);
        return outcome.output;
      },
      toModelOutput: ({ output }) => ({ type: "json", value: forModel(output, spec.limits.maxToolResultChars) }),
    });
  }
  return tools;
}

/** A failed call as the model (and the UI) sees it: the problem JSON alone, without an "Error:" prefix. */
class ToolProblem extends Error {
  override toString(): string {
    return this.message;
  }
}

/** Stops the loop after the step in which the turn's output tokens reach `max`. */
function outputTokensReach(max: number): StopCondition<ToolSet> {
  return ({ steps }) => steps.reduce((sum, step) => sum + (step.usage.outputTokens ?? 0), 0) >= max;
}
