// The fast path of /api/mcp: well-formed 2025-era tools/call, tools/list and ping answered without building an SDK
// server; the answers are the SDK's own (test/api/mcp-modern.test.ts compares both paths request by request).
// 2026-07-28 requests always go through the SDK, whose header checks past classification are not public API.
import { problemOf, toToolError, ToolError } from "../core/errors.ts";
import type { Executor } from "../tools/executor.ts";
import type { AnyTool } from "../tools/tool.ts";
import { listedTools, type Exchange } from "./mcp-sdk.ts";
import { refusal, wrapsResult } from "./mcp-tools.ts";
import type { Answer, ResultCache } from "./result-cache.ts";

interface Request {
  method: string;
  params?: unknown;
}

/**
 * The start of the serialized JSON-RPC response, `{"result":…` (for a catalogue read a cached answer; responseEnd ends
 * it), for a request the fast path answers, or undefined when the SDK must answer it (another method, an unknown tool,
 * anything malformed or unusual: the SDK owns every protocol error). `gzip`: the client takes gzip, so a cached answer
 * comes with its gzip form.
 */
export function fastAnswer(executor: Executor, cache: ResultCache, request: Request, exchange: Exchange, gzip = false): Promise<Answer> | undefined {
  const params = request.params;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  switch (request.method) {
    case "tools/call": {
      if (!params || !onlyKeys(params, CALL_KEYS) || typeof params.name !== "string") return undefined;
      if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
      const tool = executor.registry.get(params.name);
      if (!tool) return undefined;
      return call(executor, cache, tool, params.arguments ?? {}, exchange, gzip);
    }
    case "tools/list": {
      if (params && !onlyKeys(params, META_KEYS)) return undefined;
      return Promise.resolve(result(JSON.stringify({ tools: listedTools(executor, exchange.caller) })));
    }
    case "ping":
      if (params && !onlyKeys(params, META_KEYS)) return undefined;
      return Promise.resolve(EMPTY);
    default:
      return undefined;
  }
}

const CALL_KEYS = new Set(["name", "arguments", "_meta"]);
const EMPTY: Answer = result("{}");
const META_KEYS = new Set(["_meta"]);

/** `{"result":` and the CallToolResult JSON (see renderer), or the refusal (isError). */
async function call(executor: Executor, cache: ResultCache, tool: AnyTool, input: unknown, { caller, requestId }: Exchange, gzip: boolean): Promise<Answer> {
  if (caller instanceof ToolError) return result(JSON.stringify(refusal(problemOf(caller, requestId))));
  try {
    return await cache.render({ name: tool.name, input, caller, door: "mcp", requestId }, "mcp", renderer(tool), gzip);
  } catch (error) {
    return result(JSON.stringify(refusal(problemOf(toToolError(error), requestId))));
  }
}

const renderers = new WeakMap<AnyTool, (json: string) => string>();

/**
 * How a tool's result JSON becomes `{"result":` and its CallToolResult: structuredContent and the same JSON as one text
 * block. The envelope's start is part of the cached answer, so that its gzip form covers it. Made once per tool (a
 * closure made per call costs ~1 µs under tsx, which names it).
 */
function renderer(tool: AnyTool): (json: string) => string {
  let render = renderers.get(tool);
  if (!render) {
    const wraps = wrapsResult(tool);
    render = (json) => {
      const structured = wraps ? `{"result":${json}}` : json;
      return `{"result":{"content":[{"type":"text","text":${JSON.stringify(structured)}}],"structuredContent":${structured}}`;
    };
    renderers.set(tool, render);
  }
  return render;
}

/** An answer made for this request alone: `{"result":` and the result's JSON. */
function result(json: string): Answer {
  return { bytes: Buffer.from(`{"result":${json}`), varies: false };
}

/** The end of a fast-path response, made per request (its id), sent after the answer (which is not copied). */
export function responseEnd(id: string | number): string {
  return `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function onlyKeys(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in object) if (!allowed.has(key)) return false;
  return true;
}
