// Serialized answers of catalogue reads per (read-model version, tool, input, door): a repeated search skips the walk,
// the JSON and its UTF-8 encoding (kept as bytes: encoding a 10 KB answer with Danish letters cost more than the rest of
// a hit), and, for clients that take gzip, the compression (kept beside the plain bytes, made at the entry's first such
// hit). MCP's entries also keep the CallToolResult the SDK answers with.
import type { Executor, Invocation } from "../tools/executor.ts";
import type { AnyTool } from "../tools/tool.ts";
import { recordCachedCall } from "../tools/trace.ts";
import { toolsetsAllow } from "../tools/toolsets.ts";
import { MIN_GZIP_BYTES, openGzip, type OpenGzip } from "./gzip.ts";

const MAX_BYTES = 32 * 1024 * 1024;
const MAX_ENTRIES = 20_000;

/** What the cache needs of the catalogue read model: a number that changes whenever its contents do. */
export interface Versioned {
  readonly version: number;
}

/** A door's form of a tool result: the text its response is (REST) or starts with (MCP), and what else it needs. */
export interface Form<V> {
  text: string;
  /** MCP: the CallToolResult the SDK serializes; REST: nothing. */
  value: V;
}

/** A serialized answer as the doors send it (see sendAnswer in http.ts). */
export interface Answer<V = unknown> {
  /** The form's text as UTF-8. */
  readonly bytes: Buffer;
  /** The form's value (see Form). */
  readonly value: V;
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
  /** Answers of every variant; a variant is always made by one door's form, so its entries hold that form's value. */
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
   * The tool's result put into a door's form by `form` (cached per `variant`). With `gzip` (the client takes it), a hit
   * on a large enough entry also carries the entry's gzip form, compressed once.
   */
  async render<V>(call: Invocation, variant: string, form: (result: unknown, tool: AnyTool) => Form<V>, gzip = false): Promise<Answer<V>> {
    const tool = this.executor.registry.get(call.name);
    // A read of drafts depends on the caller's scopes (products:write), so it is never shared through the cache; a caller
    // whose toolsets leave the tool out is refused by the executor.
    if (tool?.cache !== "catalog" || readsDrafts(call.input) || !toolsetsAllow(call.caller.toolsets, tool.name)) return this.answer(call, form, false);
    const version = this.catalog.version;
    if (version !== this.version) this.reset(version);
    const key = cacheKey(tool.name, variant, call.input);
    // An input nested too deep to serialize was never a valid one: the executor refuses it (400) without the cache.
    if (key === undefined) return this.answer(call, form, true);
    const hit = this.entries.get(key) as Answer<V> | undefined;
    if (hit !== undefined) {
      recordCachedCall(tool.name, call.door);
      if (gzip && hit.gzip === undefined && hit.varies) this.compress(hit);
      return hit;
    }
    const fresh = await this.answer(call, form, true);
    // Only store what was computed against the version still current (a write may have landed meanwhile).
    if (this.catalog.version === version) this.store(key, fresh);
    return fresh;
  }

  /** Runs the tool. */
  private async answer<V>(call: Invocation, form: (result: unknown, tool: AnyTool) => Form<V>, cacheable: boolean): Promise<Answer<V>> {
    const result = await this.executor.invoke(call);
    // invoke has refused an unknown tool.
    const { text, value } = form(result, this.executor.registry.get(call.name)!);
    const bytes = Buffer.from(text);
    return { bytes, value, varies: cacheable && bytes.length >= MIN_GZIP_BYTES };
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

/** The input asks for drafts (`drafts` given at all: the executor decides whether it is allowed and valid). */
function readsDrafts(input: unknown): boolean {
  return typeof input === "object" && input !== null && "drafts" in input;
}
