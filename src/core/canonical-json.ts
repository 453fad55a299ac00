// Canonical JSON (RFC 8785, JCS) of a parsed JSON value: object members sorted by their names' UTF-16 code units, no
// whitespace, numbers and strings as ECMAScript serialises them. Equal JSON documents give equal strings, whatever
// their key order or number spelling (1.0 and 1); arrays keep their order.
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError("JSON has no non-finite numbers");
    return JSON.stringify(value ?? null);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(",")}}`;
}
