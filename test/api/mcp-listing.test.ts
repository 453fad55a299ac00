// The MCP tools/list: under the token budget, portable, and equivalent to the catalogue schemas it is compacted from.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { HINT_DEFAULTS, openObjects } from "../../src/api/mcp-tools.ts";
import { describeTool, type JsonSchema } from "../../src/tools/describe.ts";
import { mcpCall, rpc } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";

/** ≈ 30,000 tokens: the widest listing must stay below this many characters. */
const BUDGET = 120_000;

const { server } = useServer();
let listing: { text: string; tools: Array<{ name: string; inputSchema: JsonSchema; outputSchema?: JsonSchema; annotations: Record<string, boolean> }> };
beforeAll(async () => {
  const response = await rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { key: await server.key("*") });
  listing = { text: JSON.stringify(response.body.result), tools: (response.body.result as typeof listing).tools };
});

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
const validator = (schema: JsonSchema) => ajv.compile(schema);

/** Values around `value` that a schema may accept or refuse: each field emptied, nulled, retyped, pushed out of range. */
function mutations(value: unknown): unknown[] {
  const out: unknown[] = [value, {}, { __unknown: 1 }, null, [], "x"];
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      for (const replacement of [null, "", "x", -1, 0, 1.5, 1e6, Number.MAX_SAFE_INTEGER, true, [], {}, "2026-01-01T10:00:00Z", "2026-01-01"]) {
        out.push({ ...value, [key]: replacement });
      }
      const { [key]: _dropped, ...rest } = value as Record<string, unknown>;
      out.push(rest);
    }
  }
  return out;
}

describe("MCP tools/list", () => {
  it(`stays under ${BUDGET.toLocaleString("en")} characters for a * key`, () => {
    expect(listing.tools.length).toBe(server.runtime.registry.tools.length);
    expect(listing.text.length, "node scripts/mcp-listing-size.ts names the largest tools (docs/mcp.md)").toBeLessThan(BUDGET);
  });

  it("uses only portable schema forms: no type arrays, no empty additionalProperties, no regex beside a named format, no ±2^53 bounds", () => {
    const problems: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      const schema = node as JsonSchema;
      if (Array.isArray(schema.type)) problems.push(`${at}: type array`);
      if (schema.additionalProperties && typeof schema.additionalProperties === "object" && Object.keys(schema.additionalProperties).length === 0) problems.push(`${at}: empty additionalProperties`);
      if (schema.format === "date-time" && schema.pattern) problems.push(`${at}: date-time pattern`);
      if (schema.minimum === -Number.MAX_SAFE_INTEGER || schema.maximum === Number.MAX_SAFE_INTEGER) problems.push(`${at}: ±2^53 bound`);
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}.${key}`);
    };
    for (const tool of listing.tools) walk(tool, tool.name);
    expect(problems).toEqual([]);
  });

  it("gives the layout tree shared definitions instead of repeating each section type", () => {
    const setLayout = listing.tools.find((tool) => tool.name === "pages.set_layout")!;
    const defs = Object.keys((setLayout.inputSchema.$defs ?? {}) as object);
    expect(defs).toEqual(expect.arrayContaining(["hero", "text"]));
    expect(JSON.stringify(setLayout.inputSchema)).toContain('"$ref":"#/$defs/hero"');
  });

  it("accepts and refuses what the catalogue schemas do, on every example and its mutations, but for unknown properties", () => {
    for (const listed of listing.tools) {
      const tool = server.runtime.registry.get(listed.name)!;
      const compact = validator(listed.inputSchema);
      const full = validator(openObjects(describeTool(tool).inputSchema) as JsonSchema);
      for (const input of tool.examples.flatMap(mutations)) {
        expect(compact(input), `${tool.name} input ${JSON.stringify(input)}`).toBe(full(input));
      }
    }
  });

  it("lists objects open (the listing names every property) while the server refuses an unknown property with a 400", async () => {
    expect(listing.text).not.toContain('"additionalProperties":false');
    const refused = await mcpCall(server, "orders.list", { limit: 1, __unknown: 1 }, { key: await server.key("*") });
    expect(refused).toMatchObject({ status: 400, body: { code: "invalid_input" } });
  });

  it("lists each tool's hints so that, read with the MCP defaults, they say what the registry says", () => {
    for (const tool of listing.tools) {
      const registered = server.runtime.registry.get(tool.name)!.annotations;
      const read = { ...HINT_DEFAULTS, ...tool.annotations };
      expect(read.readOnlyHint, tool.name).toBe(registered.readOnlyHint);
      expect(read.openWorldHint, tool.name).toBe(registered.openWorldHint);
      // destructiveHint and idempotentHint mean something only for a tool that is not read-only (MCP 2025-06-18 on).
      if (!registered.readOnlyHint) expect([read.destructiveHint, read.idempotentHint], tool.name).toEqual([registered.destructiveHint, registered.idempotentHint]);
      else expect(Object.keys(tool.annotations).sort(), tool.name).not.toContain("destructiveHint");
    }
  });

  it("leaves output schemas out (structuredContent keeps the documented shape, checked by the parity test)", () => {
    for (const tool of listing.tools) expect(tool.outputSchema, tool.name).toBeUndefined();
  });
});
