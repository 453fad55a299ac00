// The registry seen through MCP: tool listings (schemas, annotations) and tool results (structuredContent + text).
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { Problem } from "../core/errors.ts";
import type { AnyTool } from "../tools/tool.ts";
import { describeTool, type JsonSchema } from "./catalogue.ts";
import { compactSchema } from "./mcp-schema.ts";

/**
 * MCP requires `outputSchema` to describe an object and `structuredContent` to be one. A tool whose result is always an
 * object (an object, or a union of objects) is published as is, so structuredContent equals the REST `result`; any
 * other result (an array, a nullable) is wrapped as `{ "result": <REST result> }`. Decided per tool from its schema.
 */
export function wrapsResult(tool: AnyTool): boolean {
  return !alwaysObject(describeTool(tool).outputSchema);
}

function alwaysObject(schema: JsonSchema): boolean {
  if (schema.type === "object") return true;
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && branches.length > 0 && branches.every((branch: JsonSchema) => alwaysObject(branch));
}

const listings = new WeakMap<AnyTool, Tool>();

/**
 * A tool as tools/list shows it: name, description, compact input schema and annotations. Output schemas are left out
 * of the listing (they were over half of it: 128k of 238k characters for a * key); structuredContent still follows
 * mcpOutputSchema(), and GET /api/v1/tools and the OpenAPI document publish the full output schemas.
 */
export function mcpTool(tool: AnyTool): Tool {
  let listing = listings.get(tool);
  if (!listing) {
    const description = describeTool(tool);
    listing = {
      name: tool.name,
      description: description.description,
      inputSchema: compactSchema(description.inputSchema) as Tool["inputSchema"],
      annotations: { ...description.annotations },
    };
    listings.set(tool, listing);
  }
  return listing;
}

/** The schema a tool's structuredContent follows: its REST output schema, wrapped as `{ result }` when needed. */
export function mcpOutputSchema(tool: AnyTool): JsonSchema {
  const schema = describeTool(tool).outputSchema;
  return wrapsResult(tool) ? wrapped(schema) : { type: "object", ...schema };
}

/** `{ result: schema }`, with any `$defs` hoisted to the root so `#/$defs/...` references still resolve. */
function wrapped(schema: JsonSchema): JsonSchema {
  const { $defs, ...inner } = schema;
  return {
    type: "object",
    properties: { result: inner },
    required: ["result"],
    additionalProperties: false,
    ...($defs === undefined ? {} : { $defs }),
  };
}

/** A successful call: the REST `result` as structuredContent (wrapped when needed) and the same JSON as text. */
export function toolResult(tool: AnyTool, result: unknown): CallToolResult {
  const structured = (wrapsResult(tool) ? { result } : result) as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

/** A refusal: the REST problem object as structuredContent, flagged isError, with its JSON as text for the model. */
export function refusal(problem: Problem): CallToolResult {
  const structured = { ...problem } as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured, isError: true };
}
