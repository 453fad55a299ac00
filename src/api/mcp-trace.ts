// The span of one MCP request (SERVER, under the HTTP request's), after the OpenTelemetry MCP conventions:
// `<mcp.method.name> <target>` ("tools/call orders.get"), an error when the answer is a JSON-RPC error or an isError
// tool result (error.type "tool_error"). A no-op without telemetry.
import type { IncomingHttpHeaders } from "node:http";
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import { telemetryActive } from "../core/telemetry.ts";

const tracer = trace.getTracer("shop-server");

/** A JSON-RPC request as far as the door parsed it. */
export interface RpcRequest {
  id: string | number | null;
  method?: unknown;
  params?: Record<string, unknown>;
}

/**
 * Runs the door's answer inside the request's span (undefined without telemetry or without a method name). `known` says
 * whether a tool name is the registry's: only those become part of a span name, so a client cannot mint span names.
 */
export function inMcpSpan(
  request: RpcRequest,
  headers: IncomingHttpHeaders,
  known: (tool: string) => boolean,
  fn: (span: Span | undefined) => Promise<void>,
): Promise<void> {
  const { method, params, id } = request;
  if (!telemetryActive() || typeof method !== "string") return fn(undefined);
  const named = targetOf(method, params);
  const target = named && (method !== "tools/call" || known(named)) ? named : undefined;
  const attributes: Attributes = { "mcp.method.name": method, "network.transport": "tcp", "network.protocol.name": "http" };
  if (id !== null) attributes["jsonrpc.request.id"] = String(id);
  const version = header(headers, "mcp-protocol-version") ?? (method === "initialize" ? stringParam(params, "protocolVersion") : undefined);
  if (version) attributes["mcp.protocol.version"] = version;
  const session = header(headers, "mcp-session-id");
  if (session) attributes["mcp.session.id"] = session;
  if (method === "tools/call" && target) Object.assign(attributes, { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": target });
  if (method === "prompts/get" && target) attributes["gen_ai.prompt.name"] = target;
  return tracer.startActiveSpan(target ? `${method} ${target}` : method, { kind: SpanKind.SERVER, attributes }, async (span) => {
    try {
      await fn(span);
    } catch (error) {
      mcpFailed(span, "internal", String(error));
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks the request failed: `type` is error.type (a JSON-RPC error code, "tool_error", an HTTP problem's code). */
export function mcpFailed(span: Span | undefined, type: string, message?: string, rpcCode?: number): void {
  if (!span) return;
  span.setAttribute("error.type", type);
  if (rpcCode !== undefined) span.setAttribute("rpc.response.status_code", String(rpcCode));
  span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
}

/** Reads the SDK's answer for a JSON-RPC error (the SDK answers some with HTTP 200). Only called while tracing. */
export function noteRpcAnswer(span: Span | undefined, status: number, body: Buffer): void {
  if (!span) return;
  let code: unknown;
  let message: unknown;
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { error?: { code?: unknown; message?: unknown } };
    code = parsed.error?.code;
    message = parsed.error?.message;
  } catch {
    // Not JSON (an event stream, an empty body): the HTTP status says all there is.
  }
  if (typeof code === "number") mcpFailed(span, String(code), typeof message === "string" ? message : undefined, code);
  else if (status >= 400) mcpFailed(span, String(status));
}

/** The low-cardinality target of a method: the tool or prompt name (a resource URI would make a span name per resource). */
function targetOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  return method === "tools/call" || method === "prompts/get" ? stringParam(params, "name") : undefined;
}

function stringParam(params: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = params?.[name];
  return typeof value === "string" && value.length <= 200 ? value : undefined;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
}
