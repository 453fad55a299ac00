// Where turns run: in worker threads (CHAT_WORKERS, the default), or on the main thread (CHAT_WORKERS=0, or a model
// injected by unit tests, which cannot cross into a worker). Both run the same runTurn (src/assistants/turns/tool-loop.ts).
import { Worker } from "node:worker_threads";
import type { LanguageModel } from "ai";
import type { Logger } from "../../core/log.ts";
import type { TurnHost, TurnReport, TurnSpec } from "./tool-loop.ts";
import type { FromWorker, Question, ToWorker, WorkerSetup } from "./worker.ts";
import { context, type Context } from "@opentelemetry/api";
import { currentCarrier } from "./trace.ts";

export interface TurnRunner {
  /** Runs one turn to its end; never rejects (a failure is part of the report). */
  run(spec: TurnSpec, host: TurnHost, signal: AbortSignal): Promise<TurnReport>;
  close(): Promise<void>;
}

/** What the person is told when a worker dies under a turn. */
const WORKER_LOST = "The assistant failed to answer; try again.";

/** Turns on this thread; the AI SDK and the model load with the first one. */
export function inThread(model: () => Promise<LanguageModel>, setup: Omit<WorkerSetup, "model">): TurnRunner {
  const definitions = new Map(setup.tools.map((tool) => [tool.name, tool]));
  let loaded: Promise<LanguageModel> | undefined;
  return {
    async run(spec, host, signal) {
      const { runTurn } = await import("./tool-loop.ts");
      return runTurn(await (loaded ??= model()), definitions, spec, host, signal, setup.approvalSecret);
    },
    close: async () => undefined,
  };
}

/**
 * Turns in `size` worker threads, each turn on the one running the fewest. The threads start with the first turn (so
 * none starts cold in the middle of a rush, and a server whose assistants are never asked starts none); one that died
 * is replaced by the next turn.
 */
export class TurnWorkers implements TurnRunner {
  private readonly threads: Array<TurnThread | undefined>;
  private setupOnce: WorkerSetup | undefined;
  private closed = false;

  private readonly setup: () => WorkerSetup;
  private readonly log: Logger;

  constructor(size: number, setup: () => WorkerSetup, log: Logger) {
    this.setup = setup;
    this.log = log;
    this.threads = Array.from({ length: size }, () => undefined);
  }

  run(spec: TurnSpec, host: TurnHost, signal: AbortSignal): Promise<TurnReport> {
    if (this.closed) return Promise.resolve(lostReport("the turn workers are stopped"));
    for (let slot = 0; slot < this.threads.length; slot++) {
      if (!this.threads[slot]?.alive) this.threads[slot] = new TurnThread((this.setupOnce ??= this.setup()), this.log);
    }
    const threads = this.threads as TurnThread[];
    const thread = threads.reduce((idlest, candidate) => (candidate.load < idlest.load ? candidate : idlest));
    return thread.run(spec, host, signal);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread?.close()));
  }
}

/** One worker and the turns it runs; when it dies, its turns end as failed and the next turn starts a new one. */
class TurnThread {
  private readonly worker: Worker;
  /** Running turns: their host, and the context (trace span) the main thread answers their questions in. */
  private readonly turns = new Map<number, { host: TurnHost; context: Context; done(report: TurnReport): void }>();
  private lastTurn = 0;
  alive = true;

  constructor(setup: WorkerSetup, log: Logger) {
    this.worker = new Worker(new URL("./worker.ts", import.meta.url), { workerData: setup, name: "assistant turns" });
    this.worker.on("message", (message: FromWorker) => this.receive(message));
    this.worker.on("error", (error) => {
      log.error("assistant turn worker failed", { error: String(error) });
      this.lost(String(error));
    });
    this.worker.on("exit", (code) => this.lost(`the turn worker exited with code ${code}`));
  }

  get load(): number {
    return this.turns.size;
  }

  run(spec: TurnSpec, host: TurnHost, signal: AbortSignal): Promise<TurnReport> {
    const turn = ++this.lastTurn;
    const abort = () => this.send({ type: "abort", turn });
    return new Promise<TurnReport>((resolve) => {
      this.turns.set(turn, {
        host,
        context: context.active(),
        done: (report) => {
          signal.removeEventListener("abort", abort);
          resolve(report);
        },
      });
      this.send({ type: "turn", turn, spec, trace: currentCarrier() });
      if (signal.aborted) abort();
      else signal.addEventListener("abort", abort, { once: true });
    });
  }

  async close(): Promise<void> {
    this.alive = false;
    await this.worker.terminate();
  }

  private send(message: ToWorker): void {
    if (this.alive) this.worker.postMessage(message);
  }

  private receive(message: FromWorker): void {
    if (message.type === "chunks") {
      for (const { turn, chunk } of message.chunks) this.turns.get(turn)?.host.chunk(chunk);
      return;
    }
    const turn = this.turns.get(message.turn);
    if (!turn) return;
    if (message.type === "ask") void context.with(turn.context, () => this.answer(turn.host, message.call, message));
    else {
      this.turns.delete(message.turn);
      turn.done(message.report);
    }
  }

  private async answer(host: TurnHost, call: number, question: Question): Promise<void> {
    try {
      this.send({ type: "reply", call, ok: true, value: await ask(host, question) });
    } catch (error) {
      this.send({ type: "reply", call, ok: false, error: String(error) });
    }
  }

  private lost(detail: string): void {
    this.alive = false;
    for (const turn of this.turns.values()) turn.done(lostReport(detail));
    this.turns.clear();
  }
}

function lostReport(detail: string): TurnReport {
  return { steps: 0, inputTokens: 0, outputTokens: 0, failure: detail, broken: WORKER_LOST };
}

function ask(host: TurnHost, question: Question): Promise<unknown> {
  switch (question.method) {
    case "validate":
      return host.validate(...question.args);
    case "call":
      return host.call(...question.args);
    case "end":
      return host.end(...question.args);
  }
}
