// JSON-RPC over HTTP, the pieces both MCP doors (/api/mcp and /ucp/mcp) share around the SDK.
import type { Request as HttpRequest, Response as HttpResponse } from "express";

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
