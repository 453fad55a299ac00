// The one assistant runtime both transports adapt: checks a turn, runs the AI SDK tool loop over the registry, streams and stores it.
import crypto from "node:crypto";
import type { LanguageModel, UIMessage } from "ai";
import { RateLimiter } from "../http/rate-limit.ts";
import type { Config } from "../core/config.ts";
import { RateLimited, ToolError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import assistantContext from "../tools/settings/assistant_context.ts";
import type { FeatureFlags } from "../tools/settings/flags.ts";
import { identify, type Credentials, type Identities } from "./identity.ts";
import { describeFailure } from "./failure.ts";
import { loadSdk } from "./load-sdk.ts";
import { configuredModel, modelConfigured, modelSettings } from "./model.ts";
import { PROFILES, type AssistantName, type AssistantProfile } from "./assistant-profiles.ts";
import type { TurnRequest } from "./conversation.ts";
import { HOLD_MS, TurnHolds } from "./turns/holds.ts";
import type { TurnRelay } from "./turns/relay.ts";
import type { ChatStore, ChatSummary, OpenChat, TurnLease } from "../tools/chats/store.ts";
import { StreamRegistry, type Follower, type Following, type TurnStream } from "./turns/streams.ts";
import { callTool, offeredTools, toolDefinitions, validateInput, type CallContext, type ToolCallRecord } from "./tools.ts";
import type { TurnHost, TurnReport, TurnSpec } from "./turns/tool-loop.ts";
import { inThread, TurnWorkers, type TurnRunner } from "./turns/runners.ts";
import { inTurnSpan, noteTurn } from "./turns/trace.ts";

/** Who reads the shop's commerce facts for an assistant's instructions: settings:read and nothing else. */
const ASSISTANTS_READER: Caller = { kind: "system", actor: "system:assistants", scopes: new Set(["settings:read"]) };

export interface ChatServiceDeps extends Identities {
  config: Config;
  log: Logger;
  executor: Executor;
  /** The chats and their turn holds, built over the database by the composition root (src/runtime.ts). */
  store: ChatStore;
  /** Whether each assistant is switched on (its feature flag). */
  flags: Pick<FeatureFlags, "enabled">;
  /** The request limiter of the REST door: tool calls spend the same budget. */
  limiter: RateLimiter;
  /** Signs tool approvals (derived from the session secret, so every process verifies what another issued). */
  secret: string;
  now: () => Date;
  /** A model instead of the configured provider (unit tests script one). */
  model?: LanguageModel;
  /** Told of every finished turn here, on the main thread, wherever its loop ran (metrics). */
  observeTurn?: (assistant: AssistantName, outcome: string, usage: { inputTokens: number; outputTokens: number }, seconds: number) => void;
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
  /** Turns of the other processes, for resumes that land here (set by attachChat when REDIS_URL joins the processes). */
  relay: TurnRelay | undefined;
  private readonly holds: TurnHolds;
  private readonly turns: RateLimiter;
  private turnRunner: TurnRunner | undefined;
  private readonly approvalSecret: Buffer;

  private readonly deps: ChatServiceDeps;

  constructor(deps: ChatServiceDeps) {
    this.deps = deps;
    this.store = deps.store;
    this.holds = new TurnHolds(this.store, deps.log);
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
    const key = this.streamKey(assistant, caller, request.chatId);
    if (this.streams.find(key)?.running) throw busy();
    const lease: TurnLease = { id: crypto.randomUUID(), holdMs: HOLD_MS };
    const chat = await this.store.claim({ assistant, owner: caller.actor, clientId: request.chatId, sessionId: caller.session?.persistent ? caller.session.id : null }, lease);
    if (!chat) throw busy();
    let stream: TurnStream | undefined;
    this.holds.keep(chat.id, lease.id, (reason) => stream?.abort(reason));
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
      const started = stream;
      void inTurnSpan(profile.name, this.deps.config.openaiModel, () => this.run(profile, caller, chat, history, started, lease));
      return stream;
    } catch (error) {
      await this.release(chat, lease);
      if (stream) this.streams.finish(stream, { type: "error", errorText: describeFailure(error), code: "internal" });
      throw error;
    }
  }

  /**
   * Follows the chat's turn for a resume (a socket `resume`, the HTTP replay): the running turn, here or (through the
   * relay) on another process, else one that just finished, preferably here. Undefined when there is none.
   */
  async resume(key: string, follower: Follower, afterSequence = -1): Promise<Following | undefined> {
    const here = this.streams.find(key);
    if (here?.running || !this.relay) return here?.resume(follower, afterSequence);
    return (await this.relay.follow(key, follower, afterSequence, here !== undefined)) ?? here?.resume(follower, afterSequence);
  }

  /** Whether the assistant can answer, and the caller's chats with it (what a widget shows on load). */
  async overview(assistant: AssistantName, caller: Caller): Promise<AssistantStatus & { chats: ChatSummary[] }> {
    const [status, chats] = await Promise.all([this.status(assistant), this.store.list(assistant, caller.actor)]);
    return { ...status, chats };
  }

  get(assistant: AssistantName, caller: Caller, chatId: string) {
    return this.store.get(assistant, caller.actor, chatId);
  }

  /** Aborts running turns and stops the turn workers. */
  async close(): Promise<void> {
    this.relay?.close();
    this.holds.close();
    this.streams.abortAll("server shutting down");
    await this.turnRunner?.close();
  }

  private async unavailable(profile: AssistantProfile): Promise<ToolError | undefined> {
    if (!this.deps.model && !modelConfigured(this.deps.config)) {
      return new ToolError(503, "not_configured", "Assistant not configured", "assistant not configured: the server has no OPENAI_API_KEY.");
    }
    if (!(await this.deps.flags.enabled(profile.feature))) {
      return new ToolError(403, "feature_disabled", "Assistant switched off", `The ${profile.name} assistant is switched off (feature flag ${profile.feature}).`);
    }
    return undefined;
  }

  /** Ends a turn's hold on its chat; when that fails the hold lapses by itself (it is no longer renewed). */
  private async release(chat: OpenChat, lease: TurnLease): Promise<void> {
    this.holds.forget(lease.id);
    await this.store.release(chat, lease).catch((error: unknown) => this.deps.log.warn("chat turn hold not released", { chatId: chat.clientId, error: String(error) }));
  }

  /** The tool loop of one turn (in a turn worker, or here), pumped into its stream; one log line when it is over, whatever happened. */
  private async run(profile: AssistantProfile, caller: Caller, chat: OpenChat, history: UIMessage[], stream: TurnStream, lease: TurnLease): Promise<void> {
    const { config, executor, limiter, log, now } = this.deps;
    const started = performance.now();
    const calls: ToolCallRecord[] = [];
    let firstChunkMs: number | undefined;
    let released = false;
    let report: TurnReport;
    try {
      const { recent } = await loadSdk();
      const offered = offeredTools(executor, profile, caller);
      const context: CallContext = { executor, limiter, caller, door: profile.door, requestId: crypto.randomUUID(), record: (call) => calls.push(call) };
      const host: TurnHost = {
        validate: async (name, input) => validateInput(offered.get(name), input),
        call: (name, input) => callTool(context, offered.get(name), input),
        chunk: (chunk) => {
          firstChunkMs ??= Math.round(performance.now() - started);
          stream.push(chunk);
        },
        // Released (with the answer's save) before the end frame: a client may send its next message the moment it sees the end.
        end: async (message, isContinuation) => {
          this.holds.forget(lease.id);
          await this.store.save(chat, [...(isContinuation ? history.slice(0, -1) : history), message], lease);
          released = true;
        },
      };
      const spec: TurnSpec = {
        instructions: profile.instructions({ publicBaseUrl: config.publicBaseUrl, now: now(), ...(await executor.call(assistantContext, {}, { caller: ASSISTANTS_READER, door: profile.door })) }),
        messages: recent(history, profile.limits.historyMessages),
        tools: [...offered.keys()],
        approvals: [...offered].flatMap(([name, tool]) => (profile.needsApproval(tool) ? [name] : [])),
        limits: profile.limits,
      };
      report = await this.runner().run(spec, host, stream.controller.signal);
    } catch (error) {
      report = { steps: 0, inputTokens: 0, outputTokens: 0, failure: String(error), broken: describeFailure(error) };
    }
    noteTurn(report);
    if (!released) await this.release(chat, lease);
    this.streams.finish(stream, report.broken ? { type: "error", errorText: report.broken, code: "internal" } : { type: "end" });
    const { failure, broken: _broken, ...usage } = report;
    const outcome = stream.controller.signal.aborted ? "aborted" : failure ? "error" : "ok";
    const ms = performance.now() - started;
    this.deps.observeTurn?.(profile.name, outcome, usage, ms / 1000);
    const fields = {
      assistant: profile.name,
      chatId: chat.clientId,
      actor: caller.actor,
      model: config.openaiModel,
      outcome,
      ...usage,
      toolCalls: calls,
      firstChunkMs,
      ms: Math.round(ms),
      ...(failure ? { error: failure } : {}),
    };
    if (failure && !stream.controller.signal.aborted) log.warn("chat turn", fields);
    else log.info("chat turn", fields);
  }

  /** Where turns run, made with the first turn: worker threads, or this thread for an injected model or CHAT_WORKERS=0. */
  private runner(): TurnRunner {
    if (this.turnRunner) return this.turnRunner;
    const { config, executor, log, model } = this.deps;
    const setup = () => ({
      model: modelSettings(config),
      tools: toolDefinitions(executor.registry.tools),
      approvalSecret: this.approvalSecret,
      // A worker traces when this process exports traces: it registers its own provider (its spans continue the turn's).
      ...(config.otelExporterEndpoint ? { telemetry: { serviceName: config.otelServiceName } } : {}),
    });
    this.turnRunner =
      model || config.chatWorkers === 0
        ? inThread(async () => model ?? (await configuredModel(config)), setup())
        : new TurnWorkers(config.chatWorkers, setup, log);
    return this.turnRunner;
  }
}

function busy(): ToolError {
  return new ToolError(409, "turn_running", "Conflict", "A reply is still being written in this chat: wait for it, resume it, or abort it.");
}
