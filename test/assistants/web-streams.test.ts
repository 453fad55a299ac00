// The turn worker's fast TransformStream (src/assistants/web-streams.ts) against Node's own: every case runs the same
// pipeline with both and expects the same chunks, errors, cancellations and terminations; a stream whose sides are used
// directly, or piped with options, is a native one; TextDecoderStream and a subclass (eventsource-parser's) keep working.
import type { Transformer } from "node:stream/web";
import { describe, expect, it } from "vitest";
import { FastTransformStream, installFastTransformStreams } from "../../src/assistants/web-streams.ts";

const NativeTransformStream = globalThis.TransformStream;
const NativeTextDecoderStream = globalThis.TextDecoderStream;
installFastTransformStreams();

type Make = (transformer?: Transformer<unknown, unknown>) => TransformStream<unknown, unknown>;
const KINDS: Array<[string, Make]> = [
  ["native", (transformer) => new NativeTransformStream(transformer)],
  ["fast", (transformer) => new TransformStream(transformer)],
];

/** A source of `chunks` that records how often it was pulled and why it was cancelled. */
function source(chunks: unknown[], options: { failAfter?: number } = {}) {
  const seen = { pulls: 0, cancelled: undefined as unknown };
  let next = 0;
  const stream = new ReadableStream<unknown>({
    pull(controller) {
      seen.pulls++;
      if (options.failAfter !== undefined && next === options.failAfter) controller.error(new Error("source broke"));
      else if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
    cancel(reason) {
      seen.cancelled = reason;
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

async function readAll(stream: ReadableStream<unknown>): Promise<{ chunks: unknown[]; error?: string }> {
  const chunks: unknown[] = [];
  try {
    for await (const chunk of stream as unknown as AsyncIterable<unknown>) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error: String(error) };
  }
}

/** Runs `scenario` with native and fast transform streams; both must come out the same. */
async function same<T>(scenario: (make: Make) => Promise<T>): Promise<T> {
  const [native, fast] = [await scenario(KINDS[0]![1]), await scenario(KINDS[1]![1])];
  expect(fast).toEqual(native);
  return fast;
}

/**
 * `stream` through the stage under test, alone or between two pass-through stages (a chain, whose fast stages read
 * each other directly) that log their cancels and flushes into `log`. The log is compared sorted: the stages of a chain
 * must see the same cancels and flushes as Node's, not in the same microtask order.
 */
/** An error as Node prints its own (`TypeError [ERR_INVALID_STATE]: …`). */
const described = (reason: unknown) => (reason instanceof Error ? `${reason.name}${"code" in reason ? ` [${String(reason.code)}]` : ""}: ${reason.message}` : String(reason));
type Through = (make: Make, stream: ReadableStream<unknown>, transformer: Transformer<unknown, unknown>, log: string[]) => ReadableStream<unknown>;
const SHAPES: Array<[string, Through]> = [
  ["alone", (make, stream, transformer) => stream.pipeThrough(make(transformer))],
  [
    "in a chain",
    (make, stream, transformer, log) => {
      const watch = (name: string): Transformer<unknown, unknown> => ({
        transform: (chunk, controller) => controller.enqueue(chunk),
        flush: () => void log.push(`${name} flushed`),
        cancel: (reason) => void log.push(`${name} cancelled: ${described(reason)}`),
      });
      return stream.pipeThrough(make(watch("before"))).pipeThrough(make(transformer)).pipeThrough(make(watch("after")));
    },
  ],
];

describe("fast TransformStream", () => {
  it("transforms through several stages as the native one does: none, one or two chunks out per chunk, async, flush, start", async () => {
    const result = await same(async (make) => {
      const { stream } = source([1, 2, 3, 4]);
      const out = stream
        .pipeThrough(make({ start: (c) => c.enqueue("start"), transform: (n, c) => void (Number(n) % 2 ? c.enqueue(n) : undefined) }))
        .pipeThrough(make({ transform: async (n, c) => (await Promise.resolve(), c.enqueue(n), c.enqueue(`${String(n)}!`)), flush: (c) => c.enqueue("flushed") }))
        .pipeThrough(make());
      return readAll(out);
    });
    expect(result).toEqual({ chunks: ["start", "start!", 1, "1!", 3, "3!", "flushed"] });
  });

  describe.each(SHAPES)("%s", (_shape, through) => {
    it("errors the readable side and cancels the source when a transform throws", async () => {
      const result = await same(async (make) => {
        const log: string[] = [];
        const { stream, seen } = source([1, 2, 3]);
        const read = await readAll(through(make, stream, { transform: (n, c) => (n === 2 ? Promise.reject(new Error("bad chunk")) : c.enqueue(n)) }, log));
        await new Promise((resolve) => setTimeout(resolve, 10));
        return { read, cancelled: String(seen.cancelled), log: log.sort() };
      });
      expect(result).toMatchObject({ read: { chunks: [1], error: "Error: bad chunk" }, cancelled: "Error: bad chunk" });
    });

    it("passes a source's error on, and tells the transformer (cancel) as a native pipe's abort does", async () => {
      const result = await same(async (make) => {
        const log: string[] = [];
        let cancelled: unknown;
        const read = await readAll(through(make, source([1, 2], { failAfter: 1 }).stream, { transform: (n, c) => c.enqueue(n), cancel: (reason) => void (cancelled = String(reason)) }, log));
        return { read, cancelled, log: log.sort() };
      });
      expect(result).toMatchObject({ read: { chunks: [1], error: "Error: source broke" }, cancelled: "Error: source broke" });
    });

    it("cancels the transformer and the source when the reader cancels", async () => {
      const result = await same(async (make) => {
        const log: string[] = [];
        const { stream, seen } = source([1, 2, 3]);
        let transformerCancelled: unknown;
        const reader = through(make, stream, { transform: (n, c) => c.enqueue(n), cancel: (reason) => void (transformerCancelled = reason) }, log).getReader();
        const first = await reader.read();
        await reader.cancel("person left");
        await new Promise((resolve) => setTimeout(resolve, 10));
        return { first: first.value, transformerCancelled, sourceCancelled: seen.cancelled, log: log.sort() };
      });
      expect(result).toMatchObject({ first: 1, transformerCancelled: "person left", sourceCancelled: "person left" });
    });

    it("does not flush a stage whose reader cancelled while it waited for its source", async () => {
      const result = await same(async (make) => {
        const log: string[] = [];
        let flushed = false;
        const slow = new ReadableStream<unknown>({ pull: () => new Promise(() => undefined) }, { highWaterMark: 0 });
        const reader = through(make, slow, { transform: (n, c) => c.enqueue(n), flush: () => void (flushed = true) }, log).getReader();
        const pending = reader.read();
        await new Promise((resolve) => setTimeout(resolve, 10));
        await reader.cancel("person left");
        const { done } = await pending;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return { done, flushed, log: log.sort() };
      });
      expect(result).toMatchObject({ done: true, flushed: false });
    });

    it("closes on terminate and cancels the source", async () => {
      const result = await same(async (make) => {
        const log: string[] = [];
        const { stream, seen } = source([1, 2, 3]);
        const read = await readAll(through(make, stream, { transform: (n, c) => (c.enqueue(n), n === 2 ? c.terminate() : undefined) }, log));
        await new Promise((resolve) => setTimeout(resolve, 10));
        return { read, cancelled: seen.cancelled !== undefined, log: log.sort() };
      });
      expect(result).toMatchObject({ read: { chunks: [1, 2] }, cancelled: true });
    });
  });

  it("hands the transformer the same controller in start, transform and flush, in a chain too", async () => {
    const result = await same(async (make) => {
      const seen: boolean[] = [];
      let started: unknown;
      const watched = make({ start: (c) => void (started = c), transform: (n, c) => (seen.push(c === started), c.enqueue(n)), flush: (c) => void seen.push(c === started) });
      await readAll(source([1, 2]).stream.pipeThrough(make()).pipeThrough(watched).pipeThrough(make()));
      return seen;
    });
    expect(result).toEqual([true, true, true]);
  });

  it("carries undefined and null chunks through a chain", async () => {
    const result = await same(async (make) => readAll(source([undefined, null, 0, ""]).stream.pipeThrough(make()).pipeThrough(make()).pipeThrough(make())));
    expect(result).toEqual({ chunks: [undefined, null, 0, ""] });
  });

  it("reads its source only as its reader asks", async () => {
    const { stream, seen } = source(Array.from({ length: 100 }, (_, i) => i));
    const reader = stream.pipeThrough(new TransformStream()).pipeThrough(new TransformStream()).getReader();
    for (let i = 0; i < 3; i++) expect((await reader.read()).value).toBe(i);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.pulls).toBeLessThanOrEqual(5);
    await reader.cancel();
  });

  it("is a native stream when its sides are used directly, or piped with options", async () => {
    const direct = new TransformStream({ transform: (n, c) => c.enqueue(Number(n) * 10) });
    const writer = direct.writable.getWriter();
    void writer.write(4).then(() => writer.close());
    expect(await readAll(direct.readable)).toEqual({ chunks: [40] });

    const piped = source([1, 2]).stream.pipeThrough(new TransformStream(), { preventCancel: true });
    expect(await readAll(piped)).toEqual({ chunks: [1, 2] });
  });

  it("refuses a locked source or a stream piped twice, as the native one does", async () => {
    const locked = source([1]).stream;
    locked.getReader();
    expect(() => locked.pipeThrough(new TransformStream())).toThrow(TypeError);
    const once = new TransformStream();
    source([1]).stream.pipeThrough(once);
    expect(() => source([2]).stream.pipeThrough(once)).toThrow(TypeError);
    expect(once.writable.locked).toBe(true);
  });

  it("decodes text split inside a character, like Node's TextDecoderStream", async () => {
    const bytes = new TextEncoder().encode("Solbriller til 499 kr — ø, æ, å 😎");
    const pieces = [bytes.slice(0, 25), bytes.slice(25, 26), bytes.slice(26, 37), bytes.slice(37)];
    const decode = async (decoder: TransformStream<Uint8Array, string>) => (await readAll(source(pieces).stream.pipeThrough(decoder))).chunks.join("");
    expect(await decode(new TextDecoderStream())).toBe(await decode(new NativeTextDecoderStream()));
    expect(await decode(new TextDecoderStream())).toBe("Solbriller til 499 kr — ø, æ, å 😎");
    expect(new TextDecoderStream().encoding).toBe("utf-8");
  });

  it("carries a subclass made after installing, as the AI SDK's SSE parser is", async () => {
    const { EventSourceParserStream } = await import("eventsource-parser/stream");
    const parser = new EventSourceParserStream();
    expect(parser).toBeInstanceOf(FastTransformStream);
    const events = await readAll(source(['data: {"a":', '1}\n\ndata: [DONE]\n\n']).stream.pipeThrough(parser));
    expect(events.chunks.map((event) => (event as { data: string }).data)).toEqual(['{"a":1}', "[DONE]"]);
  });
});
