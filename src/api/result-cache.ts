// Serialized answers of catalogue reads per (read-model version, tool, input): a repeated search skips the walk, the JSON
// and its UTF-8 encoding (kept as bytes: encoding a 10 KB answer with Danish letters cost more than the rest of a hit),
// and, for clients that take gzip, the compression (kept beside the plain bytes, made at the entry's first such hit).
import type { Executor, Invocation } from "../tools/executor.ts";
import { MIN_GZIP_BYTES, openGzip, type OpenGzip } from "./gzip.ts";

const MAX_BYTES = 32 * 1024 * 1024;
const MAX_ENTRIES = 20_000;

/** What the cache needs of the catalogue read model: a number that changes whenever its contents do. */
export interface Versioned {
  readonly version: number;
}

/** A serialized answer as the doors send it (see sendAnswer in http.ts). */
export interface Answer {
  /** The answer's UTF-8 bytes. */
  readonly bytes: Buffer;
  /** Its gzip form, once made: null when gzip would not pay. Set only on cached answers of MIN_GZIP_BYTES or more. */
  gzip?: OpenGzip | null;
  /** Whether the answer's encoding depends on Accept-Encoding (a cacheable answer of MIN_GZIP_BYTES or more). */
  readonly varies: boolean;
}

/**
 * Only tools declaring `cache: "catalog"` are cached: anonymous reads whose result is a function of the input and the
 * catalogue read model alone. A hit skips the executor, which is sound because such a tool authorises every caller
 * and an input that validated once validates again; rate limits are counted before the door gets here.
 */
export class ResultCache {
  private entries = new Map<string, Answer>();
  private bytes = 0;
  private version = -1;

  private readonly executor: Executor;
  private readonly catalog: Versioned;

  constructor(executor: Executor, catalog: Versioned) {
    this.executor = executor;
    this.catalog = catalog;
  }

  /**
   * The tool's result serialized as JSON, put into a door's form by `render` (cached per `variant`), as UTF-8. With
   * `gzip` (the client takes it), a hit on a large enough entry also carries the entry's gzip form, compressed once.
   */
  async render(call: Invocation, variant: string, render: (json: string) => string, gzip = false): Promise<Answer> {
    const tool = this.executor.registry.get(call.name);
    if (tool?.cache !== "catalog") return this.answer(call, render, false);
    const version = this.catalog.version;
    if (version !== this.version) this.reset(version);
    const key = cacheKey(tool.name, variant, call.input);
    // An input nested too deep to serialize was never a valid one: the executor refuses it (400) without the cache.
    if (key === undefined) return this.answer(call, render, true);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      if (gzip && hit.gzip === undefined && hit.varies) this.compress(hit);
      return hit;
    }
    const fresh = await this.answer(call, render, true);
    // Only store what was computed against the version still current (a write may have landed meanwhile).
    if (this.catalog.version === version) this.store(key, fresh);
    return fresh;
  }

  /** Runs the tool. */
  private async answer(call: Invocation, render: (json: string) => string, cacheable: boolean): Promise<Answer> {
    const bytes = Buffer.from(render(JSON.stringify(await this.executor.invoke(call))));
    return { bytes, varies: cacheable && bytes.length >= MIN_GZIP_BYTES };
  }

  private store(key: string, answer: Answer): void {
    if (this.entries.size >= MAX_ENTRIES || this.bytes + answer.bytes.length > MAX_BYTES) this.reset(this.version);
    this.entries.set(key, answer);
    this.bytes += answer.bytes.length + key.length;
  }

  /** Adds the entry's gzip form (counted in the budget; a full budget leaves the entry plain until the next reset). */
  private compress(entry: Answer): void {
    if (this.bytes + entry.bytes.length > MAX_BYTES) {
      entry.gzip = null;
      return;
    }
    entry.gzip = openGzip(entry.bytes) ?? null;
    this.bytes += entry.gzip?.head.length ?? 0;
  }

  private reset(version: number): void {
    this.entries = new Map();
    this.bytes = 0;
    this.version = version;
  }
}

function cacheKey(tool: string, variant: string, input: unknown): string | undefined {
  try {
    return `${tool}\n${variant}\n${JSON.stringify(input)}`;
  } catch {
    return undefined;
  }
}
