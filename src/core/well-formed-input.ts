// What any input value may hold, decided once for every door: no NUL, no lone surrogates, no prototype keys, bounded depth;
// and how text the shop cannot refuse (what a model wrote) is made storable.
import type { FieldError } from "./errors.ts";

/** Deeper than any tool input needs (a page layout nests a few levels); stops stack-hungry values before zod sees them. */
export const MAX_DEPTH = 32;

// PostgreSQL text cannot hold U+0000 (22021) and JSON columns refuse lone surrogates (22P02), so refuse both up front.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ILL_FORMED = new RegExp(`\\u0000|${LONE_SURROGATE.source}`, "g");
// `__proto__` cannot survive a JS object (assigning it sets the prototype, so zod silently drops it); `constructor` and
// `prototype` survive, but a map lookup with them finds Object's own members, and no shop data needs those names.
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Text with each NUL character and lone surrogate replaced by U+FFFD (a refused key echoed in an error path, stored text). */
function printable(text: string): string {
  return text.replace(ILL_FORMED, "\uFFFD");
}

/**
 * A JSON value as PostgreSQL can store it: NUL characters and lone surrogates in its strings and keys become U+FFFD.
 * For text the shop cannot refuse as input, such as what a model wrote.
 */
export function storable<T>(value: T): T {
  if (typeof value === "string") return printable(value) as T;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(storable) as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [printable(key), storable(item)])) as T;
}

function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "Text must not contain the NUL character (U+0000).";
  if (LONE_SURROGATE.test(text)) return "Text must be well-formed Unicode (it contains a lone surrogate, e.g. \\ud800 without its pair).";
  return undefined;
}

/**
 * The problems of a parsed JSON value, each with its path ("(root)", "shipping.name", "attributes.__proto__"): NUL
 * characters and lone surrogates in strings and keys, prototype keys, objects built with a foreign prototype (what a
 * `__proto__` key becomes after a parser assigned it) and nesting deeper than MAX_DEPTH. Empty when the value is fine.
 */
export function illFormed(value: unknown): FieldError[] {
  const problems: FieldError[] = [];
  const at = (path: string[]) => (path.length ? path.join(".") : "(root)");
  const walk = (item: unknown, path: string[]): void => {
    if (problems.length >= 20) return;
    if (typeof item === "string") {
      const problem = textProblem(item);
      if (problem) problems.push({ path: at(path), message: problem });
      return;
    }
    if (item === null || typeof item !== "object") return;
    if (path.length >= MAX_DEPTH) {
      problems.push({ path: at(path), message: `Values may nest at most ${MAX_DEPTH} levels deep.` });
      return;
    }
    const proto = Object.getPrototypeOf(item) as unknown;
    if (proto !== (Array.isArray(item) ? Array.prototype : Object.prototype) && proto !== null) {
      problems.push({ path: at([...path, "__proto__"]), message: "The key __proto__ is not allowed." });
      return;
    }
    for (const [key, child] of Object.entries(item)) {
      const keyProblem = PROTOTYPE_KEYS.has(key) ? `The key ${key} is not allowed.` : textProblem(key);
      if (keyProblem) problems.push({ path: at([...path, printable(key)]), message: keyProblem });
      else walk(child, [...path, key]);
    }
  };
  walk(value, []);
  return problems;
}
