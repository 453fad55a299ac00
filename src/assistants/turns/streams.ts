// Running turns of this process: each keeps its UI message chunks numbered, so any listener can join late and replay from the start.
import type { UIMessageChunk } from "ai";

/** What a transport sends for a turn, before it adds its own request id. */
export type StreamFrame =
  | { type: "chunk"; sequence: number; chunk: UIMessageChunk }
  | { type: "end" }
  | { type: "error"; errorText: string; code: string };

export interface Listener {
  send(frame: StreamFrame): void;
}

/** A listener that resumes a turn: told when the turn is found, before its first frame (a transport answers `start` then). */
export interface Follower extends Listener {
  start(): void;
}

/** A listener's hold on the turn it follows, on this process or (through the relay) on another. */
export interface Following {
  /** Stops listening; when no listener is left, the turn is aborted after `graceMs` unless someone resumes it before. */
  detach(graceMs: number): void;
  abort(reason: string): void;
}

/** How long a finished turn stays here for a late resume (its messages are in the database anyway). */
const RETAIN_MS = 30_000;

export class TurnStream {
  /** The chunks as the turn streamed them: what the sender follows. */
  private readonly live: UIMessageChunk[] = [];
  /**
   * What a resume replays: the live chunks, with the chunks that rebuild the message this turn continues (an approval's
   * continuation) right after the first `start` chunk, where a replaying client has just reset its copy. The live array
   * itself when the turn starts a new message.
   */
  private readonly replayed: UIMessageChunk[];
  /** Each listener with the sequence it follows (live or replayed). */
  private readonly listeners = new Map<Listener, UIMessageChunk[]>();
  private outcome: Extract<StreamFrame, { type: "end" } | { type: "error" }> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  readonly controller = new AbortController();

  readonly key: string;
  private readonly continued: readonly UIMessageChunk[];

  constructor(key: string, continued: readonly UIMessageChunk[] = []) {
    this.key = key;
    this.continued = continued;
    this.replayed = continued.length ? [] : this.live;
  }

  get running(): boolean {
    return this.outcome === undefined;
  }

  push(chunk: UIMessageChunk): void {
    if (this.replayed !== this.live) this.append(this.replayed, this.replayed.length ? [chunk] : [chunk, ...this.continued]);
    this.append(this.live, [chunk]);
  }

  private append(log: UIMessageChunk[], chunks: readonly UIMessageChunk[]): void {
    for (const chunk of chunks) {
      const frame: StreamFrame = { type: "chunk", sequence: log.length, chunk };
      log.push(chunk);
      for (const [listener, followed] of this.listeners) if (followed === log) listener.send(frame);
    }
  }

  finish(outcome: Extract<StreamFrame, { type: "end" } | { type: "error" }>): void {
    if (this.outcome) return;
    this.outcome = outcome;
    clearTimeout(this.idleTimer);
    for (const listener of this.listeners.keys()) listener.send(outcome);
    this.listeners.clear();
  }

  /**
   * Sends every chunk after `afterSequence`, then the outcome, or keeps the listener for what follows. The sender follows
   * the live chunks; a resume (`replay: true`) follows the replayed ones, which rebuild the whole message from nothing.
   */
  attach(listener: Listener, { afterSequence = -1, replay = false }: { afterSequence?: number; replay?: boolean } = {}): Following {
    clearTimeout(this.idleTimer);
    const log = replay ? this.replayed : this.live;
    for (let sequence = Math.max(0, afterSequence + 1); sequence < log.length; sequence++) {
      listener.send({ type: "chunk", sequence, chunk: log[sequence]! });
    }
    if (this.outcome) listener.send(this.outcome);
    else this.listeners.set(listener, log);
    return { detach: (graceMs) => this.detach(listener, graceMs), abort: (reason) => this.abort(reason) };
  }

  /** A resume: `start`, then the replayed chunks after `afterSequence` and what follows. */
  resume(follower: Follower, afterSequence = -1): Following {
    follower.start();
    return this.attach(follower, { afterSequence, replay: true });
  }

  /** Forgets a listener; when none is left, the turn is aborted after `graceMs` unless someone resumes it before. */
  detach(listener: Listener, graceMs: number): void {
    if (!this.listeners.delete(listener) || this.listeners.size > 0 || !this.running) return;
    clearTimeout(this.idleTimer);
    if (graceMs <= 0) this.abort("listener gone");
    else this.idleTimer = setTimeout(() => this.abort("no listener came back"), graceMs).unref();
  }

  abort(reason: string): void {
    if (this.running) this.controller.abort(new Error(reason));
  }
}

/** The turns of this process by key (assistant, owner, chat id): one running turn per chat. */
export class StreamRegistry {
  private readonly streams = new Map<string, TurnStream>();
  private readonly timers = new Set<NodeJS.Timeout>();

  find(key: string): TurnStream | undefined {
    return this.streams.get(key);
  }

  /** A new turn for the key (`continued`: the chunks that rebuild the message it continues), or undefined while one is still running there. */
  begin(key: string, continued: readonly UIMessageChunk[] = []): TurnStream | undefined {
    if (this.streams.get(key)?.running) return undefined;
    const stream = new TurnStream(key, continued);
    this.streams.set(key, stream);
    return stream;
  }

  /** Ends a turn and keeps it for late resumes for a while. */
  finish(stream: TurnStream, outcome: Parameters<TurnStream["finish"]>[0]): void {
    stream.finish(outcome);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.streams.get(stream.key) === stream) this.streams.delete(stream.key);
    }, RETAIN_MS).unref();
    this.timers.add(timer);
  }

  get size(): number {
    return this.streams.size;
  }

  /** Turns still running in this process (a shutdown waits for them). */
  get running(): number {
    let count = 0;
    for (const stream of this.streams.values()) if (stream.running) count++;
    return count;
  }

  abortAll(reason: string): void {
    for (const stream of this.streams.values()) stream.abort(reason);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
