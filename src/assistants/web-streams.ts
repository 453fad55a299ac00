// A faster `readable.pipeThrough(new TransformStream(…))` for the turn worker. The AI SDK passes every streamed token
// through about twenty TransformStreams (the provider's SSE decoding and parsing, streamText's stages, toUIMessageStream's).
// Node's pipeThrough moves each chunk with a pipeTo loop into the stage's writable side: a read, a write, its promise and
// the writable's queue bookkeeping, per stage and chunk. Here a TransformStream that is piped into before anything touched
// its sides runs its transformer from the readable side's pull (read from the source, transform, enqueue), and a stage
// piped from another such stage reads it directly, without a stream between them: a chain of stages is plain calls while
// chunks are at hand, and one shared promise while it waits for the network. Results, errors, cancellation and
// termination are Node's (test/assistants/web-streams.test.ts runs each case with both); a stream whose sides are used
// directly is a native one.
// `npm run bench:chat-turn`, 2 × AMD EPYC VM, 7 rounds each, a turn's CPU against Node's streams: with tokens 20 ms
// apart, median 72 % (the one-stage-at-a-time version before it: 84 %); with tokens 1 ms apart, 87 % (before: 92 %).
// Installed in turn workers only (installFastTransformStreams), before the SDK loads: eventsource-parser extends the
// global TransformStream when its module is evaluated.

import type {
  QueuingStrategy,
  ReadableStreamDefaultController,
  ReadableStreamDefaultReader,
  ReadableStreamReadResult,
  ReadableWritablePair,
  StreamPipeOptions,
  Transformer,
  TransformStreamDefaultController,
  UnderlyingSource,
} from "node:stream/web";

const NativeTransformStream = globalThis.TransformStream;
const nativePipeThrough = ReadableStream.prototype.pipeThrough;

type Controller = TransformStreamDefaultController<unknown>;
/** Where a stage's controller sends what its transformer does: a native controller, or a piped Stage. */
type Target = Pick<Controller, "desiredSize" | "enqueue" | "error" | "terminate">;

/**
 * The controller a transformer holds from `start` on. What it enqueues before the stream is set up (start may enqueue
 * at once, as the OpenAI provider's does) waits and goes out first.
 */
class StageController implements Controller {
  #target: Target | undefined;
  #early: unknown[] = [];

  bind(target: Target): void {
    this.#target = target;
    for (const chunk of this.#early) target.enqueue(chunk);
    this.#early = [];
  }

  get desiredSize(): number | null {
    return this.#target ? this.#target.desiredSize : 0;
  }

  enqueue(chunk?: unknown): void {
    if (this.#target) this.#target.enqueue(chunk);
    else this.#early.push(chunk);
  }

  error(reason?: unknown): void {
    this.#target?.error(reason);
  }

  terminate(): void {
    this.#target?.terminate();
  }
}

const identity: Transformer = {
  transform(chunk, controller) {
    controller.enqueue(chunk);
  },
};

export class FastTransformStream<I = unknown, O = unknown> {
  readonly #transformer: Transformer<I, O>;
  readonly #strategies: [QueuingStrategy<I> | undefined, QueuingStrategy<O> | undefined];
  readonly #controller = new StageController();
  readonly #started: unknown;
  #native: TransformStream<I, O> | undefined;
  #piped: { readable: ReadableStream<O>; writable: WritableStream<I> } | undefined;

  constructor(transformer: Transformer<I, O> = identity as Transformer<I, O>, writableStrategy?: QueuingStrategy<I>, readableStrategy?: QueuingStrategy<O>) {
    this.#transformer = transformer;
    this.#strategies = [writableStrategy, readableStrategy];
    this.#started = transformer.start?.(this.#controller as TransformStreamDefaultController<O>);
  }

  get readable(): ReadableStream<O> {
    return this.#piped?.readable ?? this.#materialize().readable;
  }

  get writable(): WritableStream<I> {
    return this.#piped?.writable ?? this.#materialize().writable;
  }

  /** A native TransformStream running this transformer, for a stream whose sides are used directly. */
  #materialize(): TransformStream<I, O> {
    if (this.#native) return this.#native;
    const transformer = this.#transformer;
    const controller = this.#controller as TransformStreamDefaultController<O>;
    const started = this.#started;
    this.#native = new NativeTransformStream<I, O>(
      {
        start: (native) => {
          this.#controller.bind(native);
          return started;
        },
        transform: transformer.transform ? (chunk) => transformer.transform!(chunk, controller) : undefined,
        flush: transformer.flush ? () => transformer.flush!(controller) : undefined,
        cancel: transformer.cancel ? (reason) => transformer.cancel!(reason) : undefined,
      },
      ...this.#strategies,
    );
    return this.#native;
  }

  /**
   * pipeThrough without the pipe: the readable side pulls a chunk from `source` and transforms it. When `source` is
   * itself a piped fast stage's readable side that nobody has read, this stage reads that stage's chunks straight from
   * it (see Stage), and the chain between the SDK's own streams runs as plain calls while chunks are at hand.
   */
  pipeFrom(source: ReadableStream<I>): ReadableStream<O> {
    const stage = new Stage<I, O>(this.#transformer, this.#controller as TransformStreamDefaultController<O>, this.#started, upstreamOf(source));
    this.#controller.bind(stage);
    const readable = new ReadableStream<O>(stage, this.#strategies[1] ?? { highWaterMark: 0 });
    stages.set(readable, stage);
    // As after a native pipeThrough, the writable side is locked: nobody else can write into the stage.
    const writable = new WritableStream<I>();
    writable.getWriter();
    this.#piped = { readable, writable };
    return readable;
  }

  /** Whether pipeThrough may take the fast path: nothing touched the stage's sides, and no pipe option asks for more. */
  canPipeFrom(options: StreamPipeOptions | undefined): boolean {
    return !this.#native && !this.#piped && !options?.signal && !options?.preventAbort && !options?.preventCancel && !options?.preventClose;
  }
}

type ReadResult<T> = ReadableStreamReadResult<T>;
const DONE = { done: true, value: undefined } as const;

/**
 * Where a stage reads. read() answers the next chunk when one is at hand; otherwise a promise that settles when it is
 * worth asking again (it carries nothing: the answer comes from the next read()). A waiting chain passes its source's
 * promise up unchanged, so a token that arrives over the network costs the stages between no promise of their own.
 */
interface Upstream<T> {
  read(): ReadResult<T> | Promise<unknown>;
  cancel(reason: unknown): Promise<void>;
}

/** A stage the next one may read directly, while nobody has read its readable side (mode "undecided"). */
interface Takeover<T> extends Upstream<T> {
  mode: "undecided" | "native" | "direct";
}

/** The stages behind readable sides returned by pipeFrom. */
const stages = new WeakMap<ReadableStream, Takeover<unknown>>();

/** A piped fast stage's chunks, read directly when nobody has read its readable side; otherwise through a reader. */
function upstreamOf<T>(source: ReadableStream<T>): Upstream<T> {
  const stage = stages.get(source) as Takeover<T> | undefined;
  if (stage?.mode === "undecided" && !source.locked) {
    source.getReader(); // locked as a pipe would lock it; its own reads never happen
    stage.mode = "direct";
    return stage;
  }
  return new ReaderUpstream(source.getReader());
}

/** Any other readable: one reader.read() at a time, its answer (or error) kept for the read() that follows. */
class ReaderUpstream<T> implements Upstream<T> {
  readonly #reader: ReadableStreamDefaultReader<T>;
  #result: ReadResult<T> | undefined;
  #failure: { error: unknown } | undefined;
  #reading: Promise<void> | undefined;
  readonly #settled = (result: ReadResult<T>) => {
    this.#result = result;
    this.#reading = undefined;
  };
  readonly #failed = (error: unknown) => {
    this.#failure = { error };
    this.#reading = undefined;
  };

  constructor(reader: ReadableStreamDefaultReader<T>) {
    this.#reader = reader;
  }

  read(): ReadResult<T> | Promise<unknown> {
    const result = this.#result;
    if (result) {
      this.#result = undefined;
      return result;
    }
    if (this.#failure) throw this.#failure.error;
    return (this.#reading ??= this.#reader.read().then(this.#settled, this.#failed));
  }

  cancel(reason: unknown): Promise<void> {
    return this.#reader.cancel(reason);
  }
}

/**
 * One piped stage: the transformer, its source, and what it produced. Its output is read either by the next fast stage
 * (`direct`: read() and cancel(), no stream between them) or through its native readable side (`native`: this object
 * is that stream's underlying source); until one of them reads (`undecided`), produced chunks wait in `queue`. A read
 * transforms source chunks until the transformer produced one, synchronously while the source has chunks at hand and
 * the transformer returns no promise; what it has to wait for, it hands to its reader to wait on.
 */
class Stage<I, O> implements Target, UnderlyingSource<O>, Takeover<O> {
  mode: Takeover<O>["mode"] = "undecided";
  readonly #transformer: Transformer<I, O>;
  /** The controller the transformer got in start (bound to this stage): Node hands the same one to every call. */
  readonly #controller: TransformStreamDefaultController<O>;
  readonly #source: Upstream<I>;
  /** The output side: open, closed (end, terminate or cancel) or errored. */
  #state: "readable" | "closed" | "errored" = "readable";
  #error: unknown;
  #queue: O[] = [];
  #output: ReadableStreamDefaultController<O> | undefined;
  #produced = false;
  /** No more reading from the source (it ended or failed, or the output ended). */
  #ended = false;
  /** What the stage itself waits for: the transformer's start, an asynchronous transform, flush or cancel. */
  #busy: Promise<void> | undefined;
  readonly #idle = () => {
    this.#busy = undefined;
  };
  readonly #pullAgain = () => this.#pull();

  constructor(transformer: Transformer<I, O>, controller: TransformStreamDefaultController<O>, starting: unknown, source: Upstream<I>) {
    this.#transformer = transformer;
    this.#controller = controller;
    this.#source = source;
    if (starting !== undefined) this.#wait(Promise.resolve(starting).then(undefined, (error: unknown) => this.error(error)));
  }

  // Target: what the transformer's controller does.

  get desiredSize(): number | null {
    if (this.#state === "errored") return null;
    if (this.#state === "closed") return 0;
    return this.mode === "native" ? this.#output!.desiredSize : -this.#queue.length;
  }

  enqueue(chunk?: unknown): void {
    if (this.#state !== "readable") throw new TypeError("The transform stream's readable side is closed or errored.");
    this.#produced = true;
    if (this.mode === "native") this.#output!.enqueue(chunk as O);
    else this.#queue.push(chunk as O);
  }

  error(reason?: unknown): void {
    if (this.#state !== "readable") return;
    this.#state = "errored";
    this.#error = reason;
    this.#queue = [];
    if (this.mode === "native") this.#output!.error(reason);
    this.#stop(reason);
  }

  terminate(): void {
    if (this.#state !== "readable") return;
    this.#state = "closed";
    if (this.mode === "native") this.#output!.close();
    // What Node cancels a terminated stage's source with.
    this.#stop(Object.assign(new TypeError("Invalid state: TransformStream has been terminated"), { code: "ERR_INVALID_STATE" }));
  }

  // UnderlyingSource: the native readable side.

  start(controller: ReadableStreamDefaultController<O>): void {
    this.#output = controller;
  }

  pull(): void | Promise<void> {
    if (this.mode === "undecided") {
      this.mode = "native";
      for (const chunk of this.#queue) this.#output!.enqueue(chunk);
      this.#queue = [];
      if (this.#state === "closed") this.#output!.close();
      if (this.#state === "errored") this.#output!.error(this.#error);
    }
    this.#produced = false;
    return this.#pull();
  }

  #pull(): void | Promise<void> {
    if (this.#produced || this.#state !== "readable") return;
    return this.#advance()?.then(this.#pullAgain);
  }

  // Upstream: read by the next stage.

  read(): ReadResult<O> | Promise<unknown> {
    if (this.#queue.length > 0) return { done: false, value: this.#queue.shift() as O };
    if (this.#state === "errored") throw this.#error;
    if (this.#state === "closed") return DONE;
    this.#produced = false;
    const waiting = this.#advance();
    if (waiting) return waiting;
    if (this.#queue.length === 0 && this.#state === "readable") throw new Error("A fast stream stage stopped without a chunk or an end.");
    return this.read();
  }

  async cancel(reason: unknown): Promise<void> {
    this.#queue = [];
    if (this.#state !== "readable") return;
    this.#state = "closed";
    this.#ended = true;
    await this.#transformer.cancel?.(reason);
    await this.#source.cancel(reason);
  }

  /**
   * Reads and transforms until the transformer produced a chunk or the stream ended (undefined), or until something
   * must be waited for (that promise: ask again when it settled).
   */
  #advance(): Promise<unknown> | undefined {
    while (!this.#produced && this.#state === "readable") {
      if (this.#busy) return this.#busy;
      if (this.#ended) return;
      let next: ReadResult<I> | Promise<unknown>;
      try {
        next = this.#source.read();
      } catch (error) {
        this.#wait(this.#sourceFailed(error));
        continue;
      }
      if (next instanceof Promise) return next;
      if (next.done) this.#wait(this.#finish());
      else this.#transform(next.value);
    }
  }

  #transform(chunk: I): void {
    try {
      const transformed = this.#transformer.transform ? this.#transformer.transform(chunk, this.#controller) : this.enqueue(chunk);
      // Most transformers are synchronous: only a returned promise is waited for.
      if (transformed) this.#wait(Promise.resolve(transformed).then(undefined, (error: unknown) => this.error(error)));
    } catch (error) {
      this.error(error);
    }
  }

  #wait(promise: Promise<void>): void {
    this.#busy = promise.then(this.#idle);
  }

  async #finish(): Promise<void> {
    this.#ended = true;
    try {
      await this.#transformer.flush?.(this.#controller);
    } catch (error) {
      this.error(error);
      return;
    }
    if (this.#state !== "readable") return;
    this.#state = "closed";
    if (this.mode === "native") this.#output!.close();
  }

  /** The source failed: as a native pipe aborts the stage's writable side, which cancels the transformer. */
  async #sourceFailed(error: unknown): Promise<void> {
    this.#ended = true;
    let reason = error;
    try {
      await this.#transformer.cancel?.(error);
    } catch (thrown) {
      reason = thrown;
    }
    this.error(reason);
  }

  #stop(reason: unknown): void {
    this.#ended = true;
    this.#source.cancel(reason).catch(() => undefined);
  }
}

class FastTextDecoderStream extends FastTransformStream<Parameters<InstanceType<typeof TextDecoder>["decode"]>[0], string> {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;

  constructor(label?: string, options?: ConstructorParameters<typeof TextDecoder>[1]) {
    const decoder = new TextDecoder(label, options);
    super({
      transform(chunk, controller) {
        const text = decoder.decode(chunk, { stream: true });
        if (text) controller.enqueue(text);
      },
      flush(controller) {
        const text = decoder.decode();
        if (text) controller.enqueue(text);
      },
    });
    this.encoding = decoder.encoding;
    this.fatal = decoder.fatal;
    this.ignoreBOM = decoder.ignoreBOM;
  }
}

/** Makes the global TransformStream and TextDecoderStream the fast ones, and pipeThrough take their fast path. */
export function installFastTransformStreams(): void {
  if (globalThis.TransformStream === (FastTransformStream as unknown)) return;
  ReadableStream.prototype.pipeThrough = function pipeThrough<T>(this: ReadableStream, transform: ReadableWritablePair<T, unknown>, options?: StreamPipeOptions): ReadableStream<T> {
    if (transform instanceof FastTransformStream && !this.locked && transform.canPipeFrom(options)) return transform.pipeFrom(this) as ReadableStream<T>;
    return nativePipeThrough.call(this, transform, options) as ReadableStream<T>;
  };
  globalThis.TransformStream = FastTransformStream as unknown as typeof TransformStream;
  globalThis.TextDecoderStream = FastTextDecoderStream as unknown as typeof TextDecoderStream;
}
