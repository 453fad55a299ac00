// Serialized answers of catalogue reads per (read-model version, tool, input): a repeated search skips the walk, the JSON
// and its UTF-8 encoding (kept as bytes: encoding a 10 KB answer with Danish letters cost more than the rest of a hit).
import type { Executor, Invocation } from "../tools/executor.ts";

const MAX_BYTES = 32 * 1024 * 1024;
const MAX_ENTRIES = 20_000;

/** What the cache needs of the catalogue read model: a number that changes whenever its contents do. */
export interface Versioned {
  readonly version: number;
}

/**
 * Only tools declaring `cache: "catalog"` are cached: anonymous reads whose result is a function of the input and the
 * catalogue read model alone. A hit skips the executor, which is sound because such a tool authorises every caller
 * and an input that validated once validates again; rate limits are counted before the door gets here.
 */
export class ResultCache {
  private entries = new Map<string, Buffer>();
  private bytes = 0;
  private version = -1;

  constructor(
    private readonly executor: Executor,
    private readonly catalog: Versioned,
  ) {}

  /** The tool's result serialized as JSON, put into a door's form by `render` (cached per `variant`), as UTF-8. */
  async render(call: Invocation, variant: string, render: (json: string) => string): Promise<Buffer> {
    const answer = async () => Buffer.from(render(JSON.stringify(await this.executor.invoke(call))));
    const tool = this.executor.registry.get(call.name);
    if (tool?.cache !== "catalog") return answer();
    const version = this.catalog.version;
    if (version !== this.version) this.reset(version);
    const key = cacheKey(tool.name, variant, call.input);
    // An input nested too deep to serialize was never a valid one: the executor refuses it (400) without the cache.
    if (key === undefined) return answer();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const fresh = await answer();
    // Only store what was computed against the version still current (a write may have landed meanwhile).
    if (this.catalog.version === version) this.store(key, fresh);
    return fresh;
  }

  private store(key: string, answer: Buffer): void {
    if (this.entries.size >= MAX_ENTRIES || this.bytes + answer.length > MAX_BYTES) this.reset(this.version);
    this.entries.set(key, answer);
    this.bytes += answer.length + key.length;
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
