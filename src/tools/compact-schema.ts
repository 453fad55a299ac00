// The compact, portable JSON Schema MCP's tools/list shows: the registry's schema minus what repeats or says nothing.
import type { JsonSchema } from "./describe.ts";

/** Formats JSON Schema names: a `pattern` beside one of them only spells the format out again (zod emits both). */
const NAMED_FORMATS = new Set(["date-time", "date", "time", "duration", "email", "uuid", "uri", "ipv4", "ipv6"]);
const SAFE = Number.MAX_SAFE_INTEGER;
/**
 * A subschema repeated in one tool's schema is shared through `$defs` when that saves at least this many characters
 * net of its definition and the `$ref`s (a handful of characters is not worth an indirection a reader must follow).
 */
const SHARE_GAIN = 40;

/**
 * The same schema in fewer characters and in the form MCP clients read everywhere. It accepts and refuses the same
 * values, except integers beyond ±(2^53 − 1), which no JSON client represents exactly (the server still refuses them),
 * and values whose format the named `format` and zod's regex judge differently (e.g. date-times with an offset: zod
 * wants Z, which the descriptions and the server instructions say):
 * - `pattern` dropped where `format` names the same thing (`date-time`, `email` …);
 * - the ±9007199254740991 bounds of integers dropped;
 * - `type: [X, "null"]` written as `anyOf: [{type: X …}, {type: "null"}]` (portable; Inspector warns on type arrays);
 * - the empty `additionalProperties: {}` and `propertyNames: {type: "string"}` of records dropped (both allow anything);
 * - a property's description that only spells its name out again (`orderId`: "Order id."), or its name and the tool's
 *   area (`slug` of products.get: "Product slug."), or says what its name and bounds already do (`limit`: "Page size.")
 *   dropped;
 * - a subschema used more than once (a layout section inside a column, an address, an id) defined once under `$defs`
 *   when that makes the schema shorter by SHARE_GAIN characters or more.
 */
export function compactSchema(schema: JsonSchema, toolName?: string): JsonSchema {
  const area = toolName ? words(toolName.split(".")[0]!).map((word) => word.replace(/s$/, "")) : [];
  return share(trim(schema, area) as JsonSchema);
}

/** Descriptions a field's name and bounds say already, by field name (the catalogue and OpenAPI keep them). */
const SELF_EVIDENT: Readonly<Record<string, string>> = { limit: "Page size.", offset: "Items to skip.", confirm: "Confirms the deletion." };

function trim(value: unknown, area: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => trim(item, area));
  if (!value || typeof value !== "object") return value;
  const node = value as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(node)) {
    if (key === "pattern" && typeof node.format === "string" && NAMED_FORMATS.has(node.format)) continue;
    if (node.type === "integer" && ((key === "minimum" && item === -SAFE) || (key === "maximum" && item === SAFE))) continue;
    if (key === "additionalProperties" && isEmptyObject(item)) continue;
    if (key === "propertyNames" && isStringType(item)) continue;
    if (key === "properties") out[key] = Object.fromEntries(Object.entries(item as JsonSchema).map(([name, sub]) => [name, trim(withoutEcho(name, sub, area), area)]));
    else out[key] = key === "$defs" ? mapValues(item as JsonSchema, (def) => trim(def, area)) : trim(item, area);
  }
  return Array.isArray(out.type) ? nullableAsAnyOf(out) : out;
}

/**
 * The property's schema without a description whose words are all in its name and the tool's area ("Order id." of
 * `orderId`, "Product slug." of products.get's `slug`), or that SELF_EVIDENT names.
 */
function withoutEcho(name: string, sub: unknown, area: readonly string[]): unknown {
  if (!isObject(sub) || typeof sub.description !== "string") return sub;
  const named = new Set([...words(name), ...area]);
  if (SELF_EVIDENT[name] !== sub.description && !words(sub.description).every((word) => named.has(word))) return sub;
  const { description: _echo, ...rest } = sub;
  return rest;
}

/** Lower-case words of a camelCase name or a sentence; "e-mail" is "email". */
function words(text: string): string[] {
  return text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().replace(/e-mail/g, "email").split(/[^a-z0-9]+/).filter(Boolean);
}

/** `{type: ["string", "null"], minLength: 1, description}` → `{anyOf: [{type: "string", minLength: 1}, {type: "null"}], description}`. */
function nullableAsAnyOf(node: JsonSchema): JsonSchema {
  const types = node.type as string[];
  const { type: _type, description, title, default: fallback, ...rest } = node;
  const branches = types.map((type) => (type === "null" ? { type } : { type, ...rest }));
  return {
    anyOf: branches,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
  };
}

/** Moves repeated subschemas to `$defs` (largest first, while sharing pays) and points every use at them with `$ref`. */
function share(schema: JsonSchema): JsonSchema {
  const defs: Record<string, unknown> = { ...((schema.$defs as Record<string, unknown> | undefined) ?? {}) };
  let root: JsonSchema = { ...schema };
  delete root.$defs;
  for (;;) {
    const uses = new Map<string, Use>();
    count(root, uses, undefined);
    for (const [key, def] of Object.entries(defs)) if (isObject(def)) count(def, uses, key);
    const worth = [...uses].filter(([json, use]) => gain(json, use, defs) >= SHARE_GAIN).sort((a, b) => b[0].length - a[0].length);
    if (worth.length === 0) break;
    const [json, use] = worth[0]!;
    const name = defName(JSON.parse(json) as JsonSchema, use.key, defs);
    defs[name] = JSON.parse(json);
    const ref = { $ref: `#/$defs/${name}` };
    root = replace(root, json, ref);
    for (const [key, def] of Object.entries(defs)) if (key !== name && isObject(def)) defs[key] = replace(def, json, ref);
  }
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

/** How often a subschema occurs, and the property name it first occurs under (its readable name). */
interface Use {
  n: number;
  key: string | undefined;
}

/** Characters saved by defining `json` once and referring to it at each use (an estimate: the name is not yet chosen). */
function gain(json: string, use: Use, defs: Record<string, unknown>): number {
  const name = use.key ?? "shared";
  const ref = `{"$ref":"#/$defs/${name}"}`.length;
  const definition = `"${name}":`.length + json.length + 1 + (Object.keys(defs).length ? 0 : ',"$defs":{}'.length);
  return use.n * (json.length - ref) - definition;
}

/** Keywords whose value is one subschema, and keywords whose value is a list or a map of them. */
const ONE = new Set(["items", "additionalProperties", "not", "propertyNames", "contains", "if", "then", "else"]);
const LIST = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const MAP = new Set(["properties", "$defs", "patternProperties", "dependentSchemas"]);

/** Calls `visit` on every subschema position of a schema node (not on the node itself), rebuilding the node. */
function mapSubschemas(node: JsonSchema, visit: (sub: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (ONE.has(key) && isObject(value)) out[key] = visit(value);
    else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map((item) => (isObject(item) ? visit(item) : item));
    else if (MAP.has(key) && isObject(value)) out[key] = mapValues(value, (item) => (isObject(item) ? visit(item) : item));
    else out[key] = value;
  }
  return out;
}

/** Counts every subschema below `node`, keyed by its JSON, with the nearest property name above its first use. */
function count(node: JsonSchema, uses: Map<string, Use>, key: string | undefined): void {
  const names = new Map<JsonSchema, string>();
  if (isObject(node.properties)) for (const [name, sub] of Object.entries(node.properties)) if (isObject(sub)) names.set(sub, name);
  mapSubschemas(node, (sub) => {
    const json = JSON.stringify(sub);
    const name = names.get(sub) ?? key;
    const use = uses.get(json);
    if (use) use.n++;
    else uses.set(json, { n: 1, key: name });
    count(sub, uses, name);
    return sub;
  });
}

function replace(node: JsonSchema, json: string, ref: JsonSchema): JsonSchema {
  return mapSubschemas(node, (sub) => (JSON.stringify(sub) === json ? ref : replace(sub, json, ref)));
}

/**
 * A readable name: the subschema's discriminating constant (`{type: {const: "hero"}}` → "hero"), else its title, else
 * the property it first appears under (`destination`, `id`).
 */
function defName(schema: JsonSchema, key: string | undefined, taken: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, { const?: unknown }>;
  const constant = Object.values(properties).find((property) => typeof property?.const === "string")?.const as string | undefined;
  const base = (constant ?? (typeof schema.title === "string" ? schema.title : (key ?? "shared"))).replace(/[^A-Za-z0-9_-]/g, "_");
  let name = base;
  for (let n = 2; name in taken; n++) name = `${base}${n}`;
  return name;
}

function mapValues(object: JsonSchema, fn: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]));
}

function isObject(value: unknown): value is JsonSchema {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}

function isStringType(value: unknown): boolean {
  return JSON.stringify(value) === '{"type":"string"}';
}
