// A turn worker: runs assistant turns (src/assistants/turns/tool-loop.ts) off the main thread. A streamed answer costs the AI SDK
// ~0.1 ms of CPU per token (the provider parses each server-sent event; streamText and toUIMessageStream pass each chunk
// through some twenty web-stream stages); here that work neither waits behind nor delays the main thread's HTTP
// requests, socket writes and SQL. Everything else a turn needs, the main thread answers over the port (TurnHost).
import { parentPort, workerData } from "node:worker_threads";
import type { UIMessageChunk } from "ai";
import { context } from "@opentelemetry/api";
import { startTelemetry } from "../../core/telemetry.ts";
import { configuredModel, type ModelSettings } from "../model.ts";
import { runTurn, type ToolDefinition, type TurnHost, type TurnReport, type TurnSpec } from "./tool-loop.ts";
import { contextOf, type TraceCarrier } from "./trace.ts";

/** What a worker is started with (workerData). */
export interface WorkerSetup {
  model: ModelSettings;
  tools: ToolDefinition[];
  approvalSecret: Uint8Array;
  /** Set when the server exports traces (OTEL_EXPORTER_OTLP_ENDPOINT): this thread registers a provider of its own. */
  telemetry?: { serviceName: string };
}

/** The TurnHost methods a worker asks the main thread, with their arguments. */
export type Question = { [M in "validate" | "call" | "end"]: { method: M; args: Parameters<TurnHost[M]> } }["validate" | "call" | "end"];

/** Main thread → worker. */
export type ToWorker =
  | { type: "turn"; turn: number; spec: TurnSpec; trace?: TraceCarrier }
  | { type: "abort"; turn: number }
  | { type: "reply"; call: number; ok: true; value: unknown }
  | { type: "reply"; call: number; ok: false; error: string };

/** Worker → main thread. */
export type FromWorker =
  | { type: "chunks"; chunks: Array<{ turn: number; chunk: UIMessageChunk }> }
  | ({ type: "ask"; turn: number; call: number } & Question)
  | { type: "report"; turn: number; report: TurnReport };

const port = parentPort!;
const setup = workerData as WorkerSetup;
// Before the model is made: configuredModel traces its calls only in a thread that traces.
if (setup.telemetry) await startTelemetry(setup.telemetry);
const model = configuredModel(setup.model);
const definitions = new Map(setup.tools.map((tool) => [tool.name, tool]));
const running = new Map<number, AbortController>();
const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let calls = 0;

port.on("message", (message: ToWorker) => {
  if (message.type === "turn") void context.with(contextOf(message.trace), () => turn(message.turn, message.spec));
  else if (message.type === "abort") running.get(message.turn)?.abort(new Error("aborted"));
  else {
    const pending = waiting.get(message.call);
    waiting.delete(message.call);
    if (message.ok) pending?.resolve(message.value);
    else pending?.reject(new Error(message.error));
  }
});

/** Chunks not yet posted: a loop turn's chunks go as one message (one copy and one wake-up of the main thread, not one per chunk). */
let chunks: Array<{ turn: number; chunk: UIMessageChunk }> = [];

function post(message: FromWorker): void {
  flush();
  port.postMessage(message);
}

function flush(): void {
  if (chunks.length === 0) return;
  port.postMessage({ type: "chunks", chunks } satisfies FromWorker);
  chunks = [];
}

function queueChunk(turn: number, chunk: UIMessageChunk): void {
  if (chunks.length === 0) setImmediate(flush);
  chunks.push({ turn, chunk });
}

/** Asks the main thread and waits for its reply (the types of Question and TurnHost agree on what comes back). */
function ask<T>(turn: number, question: Question): Promise<T> {
  const call = ++calls;
  return new Promise<T>((resolve, reject) => {
    waiting.set(call, { resolve: resolve as (value: unknown) => void, reject });
    post({ type: "ask", turn, call, ...question });
  });
}

async function turn(id: number, spec: TurnSpec): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  const host: TurnHost = {
    validate: (...args) => ask(id, { method: "validate", args }),
    call: (...args) => ask(id, { method: "call", args }),
    end: (...args) => ask(id, { method: "end", args }),
    chunk: (chunk) => queueChunk(id, chunk),
  };
  const report = await runTurn(await model, definitions, spec, host, controller.signal, setup.approvalSecret);
  running.delete(id);
  post({ type: "report", turn: id, report });
}
