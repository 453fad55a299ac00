// The registry seen through MCP: tool listings (schemas, annotations, one list per scope set) and tool results
// (structuredContent + text).
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { Problem } from "../core/errors.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import type { AnyTool, ToolAnnotations } from "../tools/tool.ts";
import { describeTool, type JsonSchema } from "../tools/describe.ts";
import { compactSchema } from "../tools/compact-schema.ts";
import type { Form } from "../http/result-cache.ts";

/** Distinct scope sets whose tool list is kept; more only empty the memo. */
const MAX_LISTS = 256;

/**
 * tools/list for each caller: the listings of the tools it may call, in registry (name) order. executor.allows reads
 * a caller's kind, scopes and toolsets alone, so one list serves every caller of the same kind, scopes and toolsets.
 */
export class ToolLists {
  private readonly lists = new Map<string, Tool[]>();

  private readonly executor: Executor;

  constructor(executor: Executor) {
    this.executor = executor;
  }

  for(caller: Caller): Tool[] {
    const toolsets = caller.toolsets ? [...caller.toolsets].sort().join(",") : "*";
    const key = `${caller.kind} ${toolsets} ${[...caller.scopes].sort().join(" ")}`;
    let list = this.lists.get(key);
    if (!list) {
      if (this.lists.size >= MAX_LISTS) this.lists.clear();
      list = this.executor.registry.tools.filter((tool) => this.executor.allows(tool, caller)).map(mcpTool);
      this.lists.set(key, list);
    }
    return list;
  }
}

/**
 * A tool as tools/list shows it: name, description, compact input schema and annotations. Output schemas are left out
 * of the listing (they were over half of it: 128k of 238k characters for a * key); GET /api/v1/tools and the OpenAPI
 * document publish the full output schemas. The input schema's objects are listed open (see openObjects).
 */
export function mcpTool(tool: AnyTool): Tool {
  let listing = listings.get(tool);
  if (!listing) {
    const description = describeTool(tool);
    listing = {
      name: tool.name,
      description: description.description,
      inputSchema: openObjects(compactSchema(description.inputSchema, tool.name)) as Tool["inputSchema"],
      annotations: compactAnnotations(description.annotations),
    };
    listings.set(tool, listing);
  }
  return listing;
}

const listings = new WeakMap<AnyTool, Tool>();

/**
 * The schema without `additionalProperties: false` (6.3k of a * listing's 120k budget: 219 objects): the listing names
 * every property a tool takes, and the server refuses any other with a 400 problem naming it, as it always did. The
 * only values the listed schema accepts and the tool's refuses are objects with properties the tool does not have.
 * Records (`additionalProperties: {schema}`) keep theirs. GET /api/v1/tools, OpenAPI and the assistants keep them.
 */
export function openObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjects);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) if (!(key === "additionalProperties" && value === false)) out[key] = openObjects(value);
  return out;
}

/** The MCP specification's value for a hint a tool leaves out. */
export const HINT_DEFAULTS: Readonly<ToolAnnotations> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * The same hints in fewer characters (5.7k of a * listing's 120k budget): a hint equal to the MCP default is left out,
 * and so are destructiveHint and idempotentHint beside readOnlyHint: true, which the specification calls meaningful
 * only for tools that are not read-only. A client reading the listing with the specification's defaults sees the
 * registry's hints; GET /api/v1/tools and OpenAPI keep all four.
 */
export function compactAnnotations(hints: ToolAnnotations): Tool["annotations"] {
  const out: Partial<ToolAnnotations> = {};
  for (const name of Object.keys(HINT_DEFAULTS) as Array<keyof ToolAnnotations>) {
    if (hints.readOnlyHint && (name === "destructiveHint" || name === "idempotentHint")) continue;
    if (hints[name] !== HINT_DEFAULTS[name]) out[name] = hints[name];
  }
  return out;
}

/**
 * A successful call, in the form the result cache keeps for MCP: the CallToolResult (the REST `result` as
 * structuredContent, wrapped when needed, and the same JSON as text), and as text the start of the SDK's JSON-RPC
 * response carrying it, `{"result":` and the result's JSON without its closing brace (mcp.ts sends the cached bytes'
 * gzip form when the SDK's response does start with them).
 */
export function callForm(result: unknown, tool: AnyTool): Form<CallToolResult> {
  const structured = (wrapsResult(tool) ? { result } : result) as Record<string, unknown>;
  const value: CallToolResult = { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  return { text: `{"result":${JSON.stringify(value).slice(0, -1)}`, value };
}

/** A refusal: the REST problem object as structuredContent, flagged isError, with its JSON as text for the model. */
export function refusal(problem: Problem): CallToolResult {
  const structured = { ...problem } as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured, isError: true };
}

/**
 * MCP requires structuredContent to be an object. A tool whose result is always an object (an object, or a union of
 * objects) is published as is, so structuredContent equals the REST `result`; any other result (an array, a nullable)
 * is wrapped as `{ "result": <REST result> }`. Decided per tool from its output schema.
 */
function wrapsResult(tool: AnyTool): boolean {
  return !alwaysObject(describeTool(tool).outputSchema);
}

function alwaysObject(schema: JsonSchema): boolean {
  if (schema.type === "object") return true;
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && branches.length > 0 && branches.every((branch: JsonSchema) => alwaysObject(branch));
}
