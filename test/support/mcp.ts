// Talks to POST /api/mcp with plain JSON-RPC (no SDK), and reads MCP tool results back in REST terms for comparisons.
import { describeTool } from "../../src/tools/describe.ts";
import type { CallResult, TestServer } from "./server.ts";

export interface RpcOptions {
  key?: string;
  headers?: Record<string, string>;
  /** Send this string as the raw body instead of JSON-encoding the message. */
  raw?: string;
}

export interface RpcResult {
  status: number;
  headers: Headers;
  // The parsed JSON-RPC response (or problem) body; tests assert on its shape.
  body: Record<string, unknown> & { result?: Record<string, unknown> & ToolCallResult; error?: { code: number; message: string } };
  text: string;
}

export interface ToolCallResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

let nextId = 1;

/** POSTs one JSON-RPC message to /api/mcp, by default without an Accept header (a plain JSON client). */
export async function rpc(server: TestServer, message: unknown, options: RpcOptions = {}): Promise<RpcResult> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const response = await fetch(`${server.url}/api/mcp`, { method: "POST", headers, body: options.raw ?? JSON.stringify(message) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {}, text };
}

/** tools/call over plain JSON-RPC. */
export function mcpCallRaw(server: TestServer, name: string, args: unknown, options: RpcOptions = {}): Promise<RpcResult> {
  return rpc(server, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } }, options);
}

/** The documented rule: MCP wraps a result as `{ result }` unless the REST output schema is an object or a union of objects. */
export function wrapped(server: TestServer, name: string): boolean {
  const tool = server.runtime.registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const schema = describeTool(tool).outputSchema;
  const branches = (schema.anyOf ?? schema.oneOf ?? []) as Array<{ type?: unknown }>;
  return !(schema.type === "object" || (branches.length > 0 && branches.every((branch) => branch.type === "object")));
}

/**
 * tools/call, answered in REST terms: a refusal (isError) becomes { status: problem.status, body: problem }, a success
 * { status: 200, body: { ok: true, result } } with the result unwrapped — so REST and MCP answers compare directly.
 */
export async function mcpCall(server: TestServer, name: string, args: unknown, options: RpcOptions = {}): Promise<CallResult> {
  const response = await mcpCallRaw(server, name, args, options);
  if (response.status !== 200 || !response.body.result) {
    throw new Error(`tools/call ${name} answered HTTP ${response.status}: ${response.text}`);
  }
  const result = response.body.result;
  const structured = result.structuredContent;
  if (!structured) throw new Error(`tools/call ${name} has no structuredContent: ${response.text}`);
  expectTextMirrors(result);
  if (result.isError) return { status: Number(structured.status), headers: response.headers, body: structured };
  const value = wrapped(server, name) ? structured.result : structured;
  return { status: 200, headers: response.headers, body: { ok: true, result: value } };
}

/** The one text block carries the same JSON as structuredContent (for clients that only read text). */
function expectTextMirrors(result: ToolCallResult): void {
  const text = result.content?.length === 1 && result.content[0]!.type === "text" ? result.content[0]!.text : undefined;
  if (text === undefined || text !== JSON.stringify(result.structuredContent)) {
    throw new Error(`tools/call content is not one text block mirroring structuredContent: ${JSON.stringify(result.content)}`);
  }
}
