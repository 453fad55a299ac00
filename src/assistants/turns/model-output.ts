// What the model reads of a tool result: the result itself, or when it is too long a shorter JSON that says so.
import type { JSONValue } from "ai";

const NOTE =
  "The result was too long to show in full. Say so if it matters, and narrow the request (filters, a smaller limit, " +
  "paging with offset, or one item by its id or slug) to see the rest.";
/** Characters kept free for the envelope (truncated, total, shown, note) around the kept items. */
const ENVELOPE = 600;

/**
 * The tool output as the model gets it, at most `maxChars` characters of JSON (the UI stream and the stored chat keep the
 * whole result). Too long:
 * - a list becomes `{truncated: true, total, shown, items: [the first items that fit], note}`;
 * - an object keeps its fields and cuts its longest list the same way (`truncated: {field, total, shown}`);
 * - anything else (or a single item too long on its own) becomes `{truncated: true, chars, preview: "<start of the JSON>", note}`.
 */
export function forModel(output: unknown, maxChars: number): JSONValue {
  const value = (output ?? null) as JSONValue;
  const json = JSON.stringify(value);
  if (json.length <= maxChars) return value;
  if (Array.isArray(value)) {
    const items = leading(value, maxChars - ENVELOPE);
    if (items.length > 0) return { truncated: true, total: value.length, shown: items.length, items, note: NOTE };
  } else if (isObject(value)) {
    const field = longestList(value);
    if (field) {
      const list = value[field] as JSONValue[];
      const rest = JSON.stringify({ ...value, [field]: [] }).length;
      const items = leading(list, maxChars - ENVELOPE - rest);
      if (items.length > 0) return { ...value, [field]: items, truncated: { field, total: list.length, shown: items.length }, note: NOTE };
    }
  }
  return preview(json, maxChars);
}

/** The start of the JSON text as a string; quotes escaped inside it take room too, so shorten until it fits. */
function preview(json: string, maxChars: number): JSONValue {
  let length = Math.max(0, maxChars - ENVELOPE);
  for (;;) {
    const cut = { truncated: true, chars: json.length, preview: json.slice(0, length), note: NOTE };
    const over = JSON.stringify(cut).length - maxChars;
    if (over <= 0 || length === 0) return cut;
    length = Math.max(0, length - over);
  }
}

/** The first items whose JSON (with separators) fits in `budget` characters. */
function leading(items: JSONValue[], budget: number): JSONValue[] {
  let used = 2;
  let count = 0;
  for (const item of items) {
    used += JSON.stringify(item).length + 1;
    if (used > budget) break;
    count++;
  }
  return items.slice(0, count);
}

function longestList(value: { [key: string]: JSONValue }): string | undefined {
  let best: string | undefined;
  let bestLength = 0;
  for (const [key, item] of Object.entries(value)) {
    if (!Array.isArray(item)) continue;
    const length = JSON.stringify(item).length;
    if (length > bestLength) [best, bestLength] = [key, length];
  }
  return best;
}

function isObject(value: JSONValue): value is { [key: string]: JSONValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
