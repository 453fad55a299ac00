// What a protocol MCP binding's tools/list promises, as instances to send: the smallest arguments a tool's advertised
// input schema accepts (required fields only, arrays at their least length, the first branch of an anyOf), and the same
// with one required field left out; Ajv judges each against the advertised schema before the server does.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Schema = Record<string, unknown>;
/** The path of a field, as "checkout.line_items.0.item.id". */
export type Path = string;

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);

/** Whether an instance satisfies a schema. */
export function accepts(schema: Schema, instance: unknown): boolean {
  return ajv.validate(schema, instance);
}

/** `$ref`s point into the root schema's `$defs` (the compact listing shares large repeated subschemas there). */
function resolve(root: Schema, node: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const name = ref.replace(/^#\/\$defs\//, "");
  return resolve(root, (root.$defs as Record<string, Schema>)[name]!);
}

/**
 * The smallest instance of `schema`. `fill(path)` gives a leaf's value where the test has one (ids, URLs, a value a
 * pattern asks for); else strings are "x" (as long as minLength asks), numbers their minimum, booleans false, enums their
 * first value.
 */
export function minimalInstance(schema: Schema, fill: (path: Path) => unknown): unknown {
  const build = (node: Schema, path: string): unknown => {
    node = resolve(schema, node);
    const given = fill(path);
    if (given !== undefined) return given;
    if (Array.isArray(node.anyOf)) return build(node.anyOf[0] as Schema, path);
    if ("const" in node) return node.const;
    if (Array.isArray(node.enum)) return node.enum[0];
    switch (node.type) {
      case "object": {
        const properties = (node.properties ?? {}) as Record<string, Schema>;
        const required = (node.required ?? []) as string[];
        return Object.fromEntries(required.map((key) => [key, build(properties[key] ?? {}, join(path, key))]));
      }
      case "array":
        return Array.from({ length: Number(node.minItems ?? 0) }, (_, index) => build((node.items ?? {}) as Schema, join(path, index)));
      case "string":
        return "x".repeat(Math.max(1, Number(node.minLength ?? 1)));
      case "integer":
      case "number":
        return node.minimum ?? 0;
      case "boolean":
        return false;
      default:
        return null;
    }
  };
  return build(schema, "");
}

/**
 * The fullest instance of `schema`: every declared property, arrays with one item (or as many as minItems asks), the
 * first branch of an anyOf; leaves as in minimalInstance, strings of a format in that format.
 */
export function fullInstance(schema: Schema, fill: (path: Path) => unknown): unknown {
  const build = (node: Schema, path: string, depth: number): unknown => {
    node = resolve(schema, node);
    const given = fill(path);
    if (given !== undefined) return given;
    if (Array.isArray(node.anyOf)) return build(node.anyOf[0] as Schema, path, depth);
    if ("const" in node) return node.const;
    if (Array.isArray(node.enum)) return node.enum[0];
    switch (node.type) {
      case "object": {
        const properties = (node.properties ?? {}) as Record<string, Schema>;
        if (depth > 8) return {};
        return Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, build(child, join(path, key), depth + 1)]));
      }
      case "array":
        return Array.from({ length: Math.max(1, Number(node.minItems ?? 0)) }, (_, index) => build((node.items ?? {}) as Schema, join(path, index), depth + 1));
      case "string":
        if (node.format === "uri") return "https://example.dk/x";
        if (node.format === "email") return "buyer@example.dk";
        if (node.format === "date-time") return new Date().toISOString();
        return "x".repeat(Math.max(1, Number(node.minLength ?? 1)));
      case "integer":
      case "number":
        return node.minimum ?? (typeof node.maximum === "number" ? Math.min(0, node.maximum) : 0);
      case "boolean":
        return false;
      default:
        return null;
    }
  };
  return build(schema, "", 0);
}

/** The paths of every required field the instance has (inside the anyOf branch it was built from). */
export function requiredPaths(schema: Schema, instance: unknown): Path[] {
  const paths: Path[] = [];
  const walk = (node: Schema, value: unknown, path: string) => {
    node = resolve(schema, node);
    if (Array.isArray(node.anyOf)) return walk(node.anyOf[0] as Schema, value, path);
    if (Array.isArray(value)) return value.forEach((item, index) => walk((node.items ?? {}) as Schema, item, join(path, index)));
    if (!value || typeof value !== "object") return;
    const properties = (node.properties ?? {}) as Record<string, Schema>;
    for (const key of (node.required ?? []) as string[]) {
      if (!(key in value)) continue;
      paths.push(join(path, key));
      walk(properties[key] ?? {}, (value as Record<string, unknown>)[key], join(path, key));
    }
  };
  walk(schema, instance, "");
  return paths;
}

/** A copy of the instance without the field at `path`. */
export function without(instance: unknown, path: Path): unknown {
  const copy = structuredClone(instance) as Record<string, unknown>;
  const keys = path.split(".");
  const last = keys.pop()!;
  const parent = keys.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
  delete parent[last];
  return copy;
}

function join(path: string, key: string | number): string {
  return path ? `${path}.${key}` : String(key);
}
