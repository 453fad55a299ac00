// The fast path of /api/mcp: well-formed tools/call, tools/list and (2025 era) ping answered without building an SDK
// server, in both protocol eras; the answers are the SDK's own, byte for byte (test/api/mcp-modern.test.ts compares
// both paths request by request). A 2026-07-28 result is the 2025 one with `resultType` and the server's `_meta` (and
// the cache hints on tools/list); only requests whose headers and envelope need no judgement take it (plainModernRequest).
import type { IncomingHttpHeaders } from "node:http";
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import { problemOf, toToolError, ToolError } from "../core/errors.ts";
import type { Executor } from "../tools/executor.ts";
import type { AnyTool } from "../tools/tool.ts";
import { listedTools, SERVER_INFO, TOOLS_LIST_CACHE, type Exchange } from "./mcp-sdk.ts";
import { refusal, wrapsResult } from "./mcp-tools.ts";
import type { Answer, ResultCache } from "./result-cache.ts";

export type Era = "legacy" | "modern";

interface Request {
  method: string;
  params?: unknown;
}

/** The server's `_meta` on every 2026-07-28 result. */
const SERVER_META = { [SERVER_INFO_META_KEY]: SERVER_INFO };
/** What a 2026-07-28 result carries after its own fields (as the SDK stamps it), and its closing brace. */
const MODERN_TAIL = `,"resultType":"complete","_meta":${JSON.stringify(SERVER_META)}}`;

/**
 * The start of the serialized JSON-RPC response, `{"result":…` (for a catalogue read a cached answer; responseEnd ends
 * it), for a request the fast path answers, or undefined when the SDK must answer it (another method, an unknown tool,
 * anything malformed or unusual: the SDK owns every protocol error). `gzip`: the client takes gzip, so a cached answer
 * comes with its gzip form.
 */
export function fastAnswer(executor: Executor, cache: ResultCache, request: Request, exchange: Exchange, gzip = false, era: Era = "legacy"): Promise<Answer> | undefined {
  const params = request.params;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  switch (request.method) {
    case "tools/call": {
      if (!params || !onlyKeys(params, CALL_KEYS) || typeof params.name !== "string") return undefined;
      if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
      const tool = executor.registry.get(params.name);
      if (!tool) return undefined;
      return call(executor, cache, tool, params.arguments ?? {}, exchange, gzip, era);
    }
    case "tools/list": {
      if (params && !onlyKeys(params, META_KEYS)) return undefined;
      const tools = listedTools(executor, exchange.caller);
      const list = era === "legacy" ? { tools } : { tools, resultType: "complete", ...TOOLS_LIST_CACHE, _meta: SERVER_META };
      return Promise.resolve(result(JSON.stringify(list)));
    }
    case "ping":
      // 2026-07-28 has no ping: the SDK answers "method not found".
      if (era === "modern" || (params && !onlyKeys(params, META_KEYS))) return undefined;
      return Promise.resolve(EMPTY);
    default:
      return undefined;
  }
}

const CALL_KEYS = new Set(["name", "arguments", "_meta"]);
const EMPTY: Answer = result("{}");
const META_KEYS = new Set(["_meta"]);

/** Whether `params` is an object whose `_meta` envelope holds the protocol version, client capabilities and info, and nothing else. */
export function plainEnvelope(params: unknown): params is { _meta: Record<string, unknown> } & Record<string, unknown> {
  return isPlainObject(params) && isPlainObject(params._meta) && onlyKeys(params._meta, ENVELOPE_KEYS);
}

/** The 2026-07-28 protocol revision, the one modern revision the fast path answers. */
const MODERN = "2026-07-28";
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY]);

/**
 * Whether the fast path may answer a 2026-07-28 request. Classification (the SDK's, in mcp.ts) has validated its
 * envelope and compared the MCP headers it carries with the body; the SDK's handler then also requires those headers,
 * decodes an encoded Mcp-Name and checks Mcp-Param-* headers. So the fast path takes only requests whose headers are
 * all there and equal the body verbatim, with no Mcp-Param-* header and nothing in the envelope beyond the protocol
 * version, client capabilities and client info; the SDK answers everything else.
 */
export function plainModernRequest(headers: IncomingHttpHeaders, method: string, params: unknown): boolean {
  if (!plainEnvelope(params)) return false;
  if (params._meta[PROTOCOL_VERSION_META_KEY] !== MODERN || headers["mcp-protocol-version"] !== MODERN || headers["mcp-method"] !== method) return false;
  if (headers["mcp-name"] !== (method === "tools/call" ? params.name : undefined)) return false;
  for (const name in headers) if (name.startsWith("mcp-param-")) return false;
  return true;
}

/** `{"result":` and the CallToolResult JSON (see renderer), or the refusal (isError). */
async function call(executor: Executor, cache: ResultCache, tool: AnyTool, input: unknown, { caller, requestId }: Exchange, gzip: boolean, era: Era): Promise<Answer> {
  if (caller instanceof ToolError) return refused(problemOf(caller, requestId), era);
  try {
    return await cache.render({ name: tool.name, input, caller, door: "mcp", requestId }, era === "legacy" ? "mcp" : "mcp-2026", renderer(tool, era), gzip);
  } catch (error) {
    return refused(problemOf(toToolError(error), requestId), era);
  }
}

/** A refused call's answer: the problem as an isError CallToolResult. */
function refused(problem: ReturnType<typeof problemOf>, era: Era): Answer {
  const json = JSON.stringify(refusal(problem));
  return result(era === "legacy" ? json : withTail(json));
}

/**
 * How a tool's result JSON becomes `{"result":` and its CallToolResult: structuredContent and the same JSON as one text
 * block (and on 2026-07-28 the stamps of MODERN_TAIL). The envelope's start is part of the cached answer, so that its
 * gzip form covers it.
 */
function renderer(tool: AnyTool, era: Era): (json: string) => string {
  const wraps = wrapsResult(tool);
  const end = era === "legacy" ? "}" : MODERN_TAIL;
  return (json) => {
    const structured = wraps ? `{"result":${json}}` : json;
    return `{"result":{"content":[{"type":"text","text":${JSON.stringify(structured)}}],"structuredContent":${structured}${end}`;
  };
}

/** A result object's JSON with the 2026-07-28 stamps before its closing brace. */
function withTail(json: string): string {
  return json.slice(0, -1) + MODERN_TAIL;
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
