// The one assistant runtime both transports adapt: checks a turn, runs the AI SDK tool loop over the registry, streams and stores it.
import crypto from "node:crypto";
import type { LanguageModel, StopCondition, ToolSet, UIMessage } from "ai";
import { RateLimiter } from "../api/rate-limit.ts";
import type { Config } from "../core/config.ts";
import type { Database, Prisma } from "../core/db.ts";
import { RateLimited, ToolError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { wireName } from "../tools/registry.ts";
import { featureEnabled } from "../tools/settings/service.ts";
import { identify, type Credentials, type Identities } from "./identity.ts";
import { configuredModel, modelConfigured } from "./model.ts";
import { PROFILES, type AssistantName, type AssistantProfile } from "./profiles.ts";
import type { TurnRequest } from "./request.ts";
import { ChatStore, type ChatSummary, type OpenChat, type TurnLease } from "./store.ts";
import { StreamRegistry, type TurnStream } from "./streams.ts";
import type { ToolCallRecord } from "./tools.ts";

/** The AI SDK and the turn code built on it: loaded by the first turn that runs, not at start-up (src/assistants/sdk.ts). */
const loadSdk = () => import("./sdk.ts");

export interface ChatServiceDeps extends Identities {
  config: Config;
  log: Logger;
  executor: Executor;
  prisma: Prisma;
  /** Plain SQL for the statements of a turn (see ChatStore). */
  database: Pick<Database, "query">;
  /** The request limiter of the REST door: tool calls spend the same budget. */
  limiter: RateLimiter;
  /** Signs tool approvals (derived from the session secret, so every process verifies what another issued). */
  secret: string;
  now: () => Date;
  /** A model instead of the configured provider (unit tests script one). */
  model?: LanguageModel;
}

/** Whether an assistant can answer now, and why not. */
export interface AssistantStatus {
  assistant: AssistantName;
  available: boolean;
  /** "not_configured" or "feature_disabled". */
  code?: string;
  detail?: string;
}

export class ChatService {
  readonly store: ChatStore;
  readonly streams = new StreamRegistry();
  /** The injected model, or the configured one once the first turn has loaded its provider. */
  private model: LanguageModel | undefined;
  private readonly turns: RateLimiter;
  private readonly approvalSecret: Buffer;

  constructor(private readonly deps: ChatServiceDeps) {
    this.store = new ChatStore(deps.prisma, deps.database);
    this.model = deps.model;
    this.turns = new RateLimiter(deps.limiter.store, deps.config.chatTurnsPerMin, deps.config.chatTurnsPerMin);
    this.approvalSecret = crypto.createHmac("sha256", deps.secret).update("assistant tool approvals").digest();
  }

  identify(assistant: AssistantName, credentials: Credentials): Promise<Caller> {
    return identify(this.deps, assistant, credentials);
  }

  /** The key of a chat's running turn: the owner is part of it, so nobody resumes or aborts another's turn. */
  streamKey(assistant: AssistantName, caller: Caller, chatId: string): string {
    return `${assistant}:${caller.actor}:${chatId}`;
  }

  async status(assistant: AssistantName): Promise<AssistantStatus> {
    const refusal = await this.unavailable(PROFILES[assistant]);
    return refusal ? { assistant, available: false, code: refusal.code, detail: refusal.message } : { assistant, available: true };
  }

  /**
   * Starts a turn and returns its stream (listeners attach to it). Refuses before anything runs: not configured (503),
   * switched off (403), a turn still running in this chat in any process (409), bad input (400/422), too many turns (429).
   */
  async start(assistant: AssistantName, caller: Caller, request: TurnRequest): Promise<TurnStream> {
    const profile = PROFILES[assistant];
    const refusal = await this.unavailable(profile);
    if (refusal) throw refusal;
    const { nextHistory, messageChunks } = await loadSdk();
    this.model ??= await configuredModel(this.deps.config);
    const key = this.streamKey(assistant, caller, request.chatId);
    if (this.streams.find(key)?.running) throw busy();
    // The hold outlives the longest turn a little, so only a turn whose process died lets it lapse.
    const lease: TurnLease = { id: crypto.randomUUID(), until: new Date(Date.now() + profile.limits.turnTimeoutMs + LEASE_MARGIN_MS) };
    const chat = await this.store.claim({ assistant, owner: caller.actor, clientId: request.chatId, sessionId: caller.session?.persistent ? caller.session.id : null }, lease);
    if (!chat) throw busy();
    let stream: TurnStream | undefined;
    try {
      const history = nextHistory(chat.messages, request, profile.limits.maxMessageChars);
      // Only a turn that will run spends the budget: a refused request (bad input, a turn still running) costs nothing.
      const budget = await this.turns.check(`chat:${assistant}:${caller.actor}`, true);
      if (!budget.allowed) throw new RateLimited(budget.resetSeconds);
      const continued = history.at(-1)?.role === "assistant" ? messageChunks(history.at(-1)!) : [];
      stream = this.streams.begin(key, continued);
      if (!stream) throw busy();
      // Stored before the model is asked: a reload during a long answer, or a crash, still shows what the person wrote.
      await this.store.save(chat, history);
      void this.run(profile, caller, chat, history, stream, lease);
      return stream;
    } catch (error) {
      await this.release(chat, lease);
      if (stream) this.streams.finish(stream, { type: "error", errorText: describeFailure(error), code: "internal" });
      throw error;
    }
  }

  /** Whether the assistant can answer, and the caller's chats with it (what a widget shows on load). */
  async overview(assistant: AssistantName, caller: Caller): Promise<AssistantStatus & { chats: ChatSummary[] }> {
    const [status, chats] = await Promise.all([this.status(assistant), this.store.list(assistant, caller.actor)]);
    return { ...status, chats };
  }

  get(assistant: AssistantName, caller: Caller, chatId: string) {
    return this.store.get(assistant, caller.actor, chatId);
  }

  close(): void {
    this.streams.abortAll("server shutting down");
  }

  private async unavailable(profile: AssistantProfile): Promise<ToolError | undefined> {
    if (!this.deps.model && !modelConfigured(this.deps.config)) {
      return new ToolError(503, "not_configured", "Assistant not configured", "assistant not configured: the server has no OPENAI_API_KEY.");
    }
    if (!(await featureEnabled(this.deps.prisma, profile.feature))) {
      return new ToolError(403, "feature_disabled", "Assistant switched off", `The ${profile.name} assistant is switched off (feature flag ${profile.feature}).`);
    }
    return undefined;
  }

  /** Ends a turn's hold on its chat; when that fails the hold lapses by itself at its `until`. */
  private async release(chat: OpenChat, lease: TurnLease): Promise<void> {
    await this.store.release(chat, lease).catch((error: unknown) => this.deps.log.warn("chat turn hold not released", { chatId: chat.clientId, error: String(error) }));
  }

  /** The tool loop of one turn, pumped into its stream; one log line when it is over, whatever happened. */
  private async run(profile: AssistantProfile, caller: Caller, chat: OpenChat, history: UIMessage[], stream: TurnStream, lease: TurnLease): Promise<void> {
    const { config, executor, limiter, log, now } = this.deps;
    const { limits } = profile;
    const started = performance.now();
    const calls: ToolCallRecord[] = [];
    const usage = { steps: 0, inputTokens: 0, outputTokens: 0 };
    let firstChunkMs: number | undefined;
    let finishReason: string | undefined;
    let failure: unknown;
    let released = false;
    try {
      const { buildToolSet, convertToModelMessages, generateId, isStepCount, offeredTools, recent, streamTextLowMemory, toUIMessageStream } = await loadSdk();
      const requestId = crypto.randomUUID();
      const offered = offeredTools(executor, profile, caller);
      const tools = buildToolSet({ executor, limiter, profile, caller, offered, requestId, record: (call) => calls.push(call) });
      const approvals = offered.filter((tool) => profile.needsApproval(tool));
      // The single-consumer variant: the turn reads the stream once, so it keeps no replay buffer or final-content
      // promises (one tee and its bookkeeping less per chunk); onStepEnd/onEnd callbacks report what the log needs.
      const result = streamTextLowMemory({
        model: this.model!,
        instructions: profile.instructions({ publicBaseUrl: config.publicBaseUrl, now: now() }),
        messages: await convertToModelMessages(recent(history, limits.historyMessages), { tools, ignoreIncompleteToolCalls: true }),
        tools,
        toolApproval: Object.fromEntries(approvals.map((tool) => [wireName(tool.name), "user-approval" as const])),
        experimental_toolApprovalSecret: this.approvalSecret,
        stopWhen: [isStepCount(limits.maxSteps), outputTokensReach(limits.maxOutputTokensPerTurn)],
        maxOutputTokens: limits.maxOutputTokensPerStep,
        toolCallConcurrency: 1,
        timeout: { totalMs: limits.turnTimeoutMs, chunkMs: limits.chunkTimeoutMs, toolMs: limits.toolTimeoutMs },
        abortSignal: stream.controller.signal,
        maxRetries: 1,
        onStepEnd: (step) => {
          usage.steps++;
          usage.inputTokens += step.usage.inputTokens ?? 0;
          usage.outputTokens += step.usage.outputTokens ?? 0;
          finishReason = step.finishReason;
        },
        onError: ({ error }) => {
          failure = error;
        },
      });
      const chunks = toUIMessageStream({
        stream: result.stream,
        tools,
        originalMessages: history,
        generateMessageId: () => `msg_${generateId()}`,
        sendReasoning: false,
        redactToolErrors: false,
        onError: (error) => {
          failure = error;
          return describeFailure(error);
        },
        onEnd: async ({ messages }) => {
          await this.store.save(chat, messages, lease);
          released = true;
        },
      });
      for await (const chunk of chunks) {
        firstChunkMs ??= Math.round(performance.now() - started);
        stream.push(chunk);
      }
      // Released (with the answer's save) before the end frame: a client may send its next message the moment it sees the end.
      if (!released) await this.release(chat, lease);
      this.streams.finish(stream, { type: "end" });
    } catch (error) {
      failure = error;
      if (!released) await this.release(chat, lease);
      this.streams.finish(stream, { type: "error", errorText: describeFailure(error), code: "internal" });
    } finally {
      const fields = {
        assistant: profile.name,
        chatId: chat.clientId,
        actor: caller.actor,
        model: config.openaiModel,
        outcome: stream.controller.signal.aborted ? "aborted" : failure ? "error" : "ok",
        finishReason,
        ...usage,
        toolCalls: calls,
        firstChunkMs,
        ms: Math.round(performance.now() - started),
        ...(failure ? { error: String(failure) } : {}),
      };
      if (failure && !stream.controller.signal.aborted) log.warn("chat turn", fields);
      else log.info("chat turn", fields);
    }
  }
}

/** How long a turn's hold on its chat outlasts the turn's wall-time limit. */
const LEASE_MARGIN_MS = 30_000;

function busy(): ToolError {
  return new ToolError(409, "turn_running", "Conflict", "A reply is still being written in this chat: wait for it, resume it, or abort it.");
}

/** Stops the loop after the step in which the turn's output tokens reach `max`. */
function outputTokensReach(max: number): StopCondition<ToolSet> {
  return ({ steps }) => steps.reduce((sum, step) => sum + (step.usage.outputTokens ?? 0), 0) >= max;
}

/** What the person sees of a failure: never internals. */
function describeFailure(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "AbortError" || name === "TimeoutError") return "The assistant took too long to answer and was stopped.";
  if (/APICallError|RetryError/.test(name)) return "The language model service did not answer; try again in a moment.";
  return "The assistant failed to answer; try again.";
}
