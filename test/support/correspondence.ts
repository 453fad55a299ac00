// Compares two answers to the same call: equal, except values a server generates itself (ids, random tokens, clock
// readings), which must correspond one-to-one across the whole run, and timestamps, which must lie close together.

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/;
const ID = /\b(?:c[a-z0-9]{24}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/;
/** A Standard Webhooks secret: standard base64, whose "+" and "/" would otherwise split it into words. */
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/]+={0,2}/;
const TOKEN = new RegExp(`(${ISO.source})|(${ID.source}|${WEBHOOK_SECRET.source})`, "g");
/** Two calls made within one test run: their clock readings differ by far less than this. */
const CLOCK_TOLERANCE_MS = 5 * 60_000;

type Piece = { kind: "time" | "id" | "word" | "sep"; value: string };

export class Correspondence {
  private readonly forward = new Map<string, string>();
  private readonly backward = new Map<string, string>();

  private readonly twins: boolean;

  /**
   * `twins`: the answers come from two servers cloned from one template, so ids and random tokens each server
   * generated may differ (consistently); otherwise (one server) only clock readings may differ.
   */
  constructor(twins: boolean) {
    this.twins = twins;
  }

  /** Throws, naming the path, at the first difference that is not a generated value. */
  check(a: unknown, b: unknown, path = "$"): void {
    if (typeof a === "string" && typeof b === "string") return this.strings(a, b, path);
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) fail(path, `${a.length} items`, `${b.length} items`);
      a.forEach((item, i) => this.check(item, b[i], `${path}[${i}]`));
      return;
    }
    if (isRecord(a) && isRecord(b)) {
      const keys = Object.keys(a).sort();
      if (JSON.stringify(keys) !== JSON.stringify(Object.keys(b).sort())) fail(path, Object.keys(a), Object.keys(b));
      for (const key of keys) this.check(a[key], b[key], `${path}.${key}`);
      return;
    }
    if (!Object.is(a, b)) fail(path, a, b);
  }

  private strings(a: string, b: string, path: string): void {
    const left = pieces(a);
    const right = pieces(b);
    if (left.length !== right.length) fail(path, a, b);
    left.forEach((piece, i) => {
      const other = right[i]!;
      if (piece.kind !== other.kind) fail(path, a, b);
      if (piece.kind === "time") {
        if (Math.abs(Date.parse(piece.value) - Date.parse(other.value)) > CLOCK_TOLERANCE_MS) fail(path, a, b);
      } else if (piece.kind === "id") {
        if (piece.value !== other.value && !this.twins) fail(path, a, b);
        this.pair(piece.value, other.value, path);
      } else if (piece.value !== other.value) {
        if (!(this.twins && piece.kind === "word" && generatedPair(piece.value, other.value))) fail(path, a, b);
        this.pair(piece.value, other.value, path);
      }
    });
  }

  /** Records that `a` (first answer) stands for `b` (second answer); a value may never stand for two others. */
  private pair(a: string, b: string, path: string): void {
    const known = this.forward.get(a);
    const knownBack = this.backward.get(b);
    if ((known !== undefined && known !== b) || (knownBack !== undefined && knownBack !== a)) {
      fail(path, `${a} (already paired with ${known ?? "nothing"})`, `${b} (already paired with ${knownBack ?? "nothing"})`);
    }
    this.forward.set(a, b);
    this.backward.set(b, a);
  }
}

/** Splits a string into clock readings, ids, words and separators. */
function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  const words = (part: string) => {
    for (const [i, value] of part.split(/([^\w-]+)/).entries()) if (value) out.push({ kind: i % 2 ? "sep" : "word", value });
  };
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    words(text.slice(last, match.index));
    out.push({ kind: match[1] ? "time" : "id", value: match[0] });
    last = match.index + match[0].length;
  }
  words(text.slice(last));
  return out;
}

/**
 * Random tokens (codes, secrets, nonces): same length; short ones (8 to 15 characters) with digits in both, or API-key
 * prefixes ("shop_" and 8 random letters or digits, which may hold no digit).
 */
function generatedPair(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return a.length >= 16 || (a.length >= 8 && /\d/.test(a) && /\d/.test(b)) || (KEY_PREFIX.test(a) && KEY_PREFIX.test(b));
}

const KEY_PREFIX = /^shop_[A-Za-z0-9]{8}_$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(path: string, a: unknown, b: unknown): never {
  throw new Error(`answers differ at ${path}: REST ${JSON.stringify(a)} vs MCP ${JSON.stringify(b)}`);
}
