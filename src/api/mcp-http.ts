// JSON-RPC over HTTP, the pieces the MCP doors (/api/mcp, /ucp/mcp, /acp/mcp) share around the SDK.
import type { Request as HttpRequest, Response as HttpResponse } from "express";
import { createMcpHandler, isLegacyRequest, ProtocolErrorCode, WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpHttpHandler, type Server } from "@modelcontextprotocol/server";

/** The MCP headers the SDK checks against the body (2026-07-28), forwarded to it with the mcp-param-* ones. */
const FORWARDED = new Set(["mcp-protocol-version", "mcp-method", "mcp-name"]);

/**
 * The headers of the request the SDK sees: its MCP headers on a canonical JSON request (the body is parsed already), so
 * plain `curl -d` posts work too.
 */
export function sdkHeaders(req: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json, text/event-stream", "content-type": "application/json" };
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string" && (FORWARDED.has(name) || name.startsWith("mcp-param-"))) headers[name] = value;
  }
  return headers;
}

/** A JSON-RPC error answered by the door itself (before or instead of the SDK), with this HTTP status. */
export function sendRpcError(res: HttpResponse, status: number, code: number, message: string, id: string | number | null, data?: unknown): void {
  const error = data === undefined ? { code, message } : { code, message, data };
  res.status(status).type("application/json").send(JSON.stringify({ jsonrpc: "2.0", id, error }));
}

/**
 * The one JSON-RPC message a protocol binding's POST carries (its body read as text), or undefined once a parse error or
 * a batch has been answered.
 */
export function rpcMessage(req: HttpRequest, res: HttpResponse): { body: unknown } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(typeof req.body === "string" ? req.body : "");
  } catch {
    sendRpcError(res, 400, ProtocolErrorCode.ParseError, "Parse error: the body is not valid JSON.", null);
    return undefined;
  }
  if (Array.isArray(body)) {
    sendRpcError(res, 400, ProtocolErrorCode.InvalidRequest, "JSON-RPC batches are not supported; POST one message per request.", null);
    return undefined;
  }
  return { body };
}

/** Sends the SDK's answer (a web Response) as the express response, with its headers; `status` overrides its status. */
export async function relay(response: Response, res: HttpResponse, status = response.status): Promise<void> {
  const bytes = Buffer.from(await response.arrayBuffer());
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.status(status).end(bytes);
}

/**
 * A stateless MCP endpoint on the official SDK (/api/mcp, /ucp/mcp, /acp/mcp): the 2026-07-28 era through the
 * SDK's per-request handler, the 2025 era on a stateless transport. Each request gets a server built around the door's
 * per-request state (its exchange: caller, request id, headers), which travels to the SDK's handler in authInfo.
 */
export class StatelessMcpEndpoint<X> {
  private readonly url: string;
  private readonly build: (exchange: X) => Server;
  private readonly modern: McpHttpHandler;

  constructor(url: string, build: (exchange: X) => Server, onRefused: (error: Error) => void) {
    this.url = url;
    this.build = build;
    this.modern = createMcpHandler((handler) => build(exchangeOf<X>(handler.authInfo, url)), { legacy: "reject", onerror: onRefused });
  }

  async answer(body: unknown, headers: Record<string, string>, exchange: X): Promise<Response> {
    const request = new Request(this.url, { method: "POST", headers });
    if (!(await isLegacyRequest(request, body))) {
      const authInfo: AuthInfo = { token: "", clientId: "", scopes: [], extra: { exchange } };
      return this.modern.fetch(request, { authInfo, parsedBody: body });
    }
    const server = this.build(exchange);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      await server.close();
    }
  }
}

function exchangeOf<X>(authInfo: AuthInfo | undefined, url: string): X {
  const exchange = authInfo?.extra?.exchange as X | undefined;
  if (!exchange) throw new Error(`${url}: a request reached the SDK without its exchange`);
  return exchange;
}
