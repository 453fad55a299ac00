// The MCP door, POST /api/mcp: 2026-07-28 and the 2025 era on one stateless endpoint, behind the Origin/Host guard.
import express, { type Request as HttpRequest, type Response as HttpResponse, type Router } from "express";
import {
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  isInitializeRequest,
  isJSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from "@modelcontextprotocol/server";
import { problemOf, RateLimited, toToolError, ToolError } from "../core/errors.ts";
import type { Config } from "../core/config.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { acceptsGzip } from "./gzip.ts";
import { admit, requestId, sendAnswer, sendProblem, type Gate } from "./http.ts";
import { fastAnswer, plainEnvelope, plainModernRequest, responseEnd } from "./mcp-fast.ts";
import { mcpGuard } from "./mcp-guard.ts";
import { SdkDoor, type Exchange } from "./mcp-sdk.ts";
import type { ResultCache } from "./result-cache.ts";
import { BODY_LIMIT } from "./rest.ts";

/** JSON-RPC error codes of this door. 429 (outside the reserved −32768…−32000) says "rate limited" with `data.retryAfter`. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
const RATE_LIMITED = 429;
/** JSON-RPC's implementation-defined server error, as the SDK transport uses for HTTP-level refusals. */
const SERVER_ERROR = -32000;

/** Headers the SDK reads from an MCP request; everything else stays at the door. */
const FORWARDED = ["mcp-protocol-version", "mcp-method", "mcp-name"];
const LEGACY_VERSIONS = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

interface Classified {
  era: "legacy" | "modern";
  message: JSONRPCMessage;
  /** `params.arguments` as parsed from the body, before any schema (see Exchange.sentArguments). */
  sentArguments: unknown;
}

export function mcpRouter(executor: Executor, gate: Gate, config: Config, cache: ResultCache): Router {
  const router = express.Router();
  const guard = mcpGuard(config);
  const sdk = new SdkDoor(executor, gate.log);

  const text = express.text({ type: () => true, limit: BODY_LIMIT });
  // The guard, then the body (a refused Origin is answered before its body is read), as one handler: each handler of a
  // route is a step of the router's dispatch.
  const guardedBody = (req: HttpRequest, res: HttpResponse, next: (error?: unknown) => void) => {
    if (guard.check(req, res)) text(req, res, next);
  };

  // One route, so a request matches the path once and is dispatched by its method (OPTIONS, POST, anything else).
  const route = router.route("/api/mcp");
  route.options((req, res) => guard.preflight(req, res));

  route.post(guardedBody, async (req: HttpRequest, res: HttpResponse) => {
    const id = requestId(req);
    let caller: Caller | ToolError;
    try {
      caller = await admit(gate, req, res);
    } catch (error) {
      caller = toToolError(error);
      if (caller.status >= 500) gate.log.error("mcp admission failed", { requestId: id, error: String(error) });
    }
    const classified = classify(req);
    if ("status" in classified) {
      sendRpcError(res, classified.status, classified.code, classified.message, classified.id, classified.data);
      return;
    }
    const { era, message, sentArguments } = classified;
    const messageId = "id" in message && message.id !== undefined ? message.id : null;
    if (caller instanceof RateLimited) {
      // MCP clients back off on a JSON-RPC error they can read: HTTP 429, Retry-After, and data.retryAfter in seconds.
      res.set("Retry-After", String(caller.retryAfterSeconds));
      const data = { retryAfter: caller.retryAfterSeconds, ...problemOf(caller, id) };
      sendRpcError(res, 429, RATE_LIMITED, caller.message, messageId, data);
      return;
    }
    // A refused tool call is a tool result (isError) the model can read; any other refused request fails over HTTP.
    if (caller instanceof ToolError && !("method" in message && message.method === "tools/call" && messageId !== null)) {
      sendProblem(res, caller, id);
      return;
    }
    if (!(caller instanceof ToolError)) recordAgent(caller, message, req);
    const exchange: Exchange = { caller, requestId: id, sentArguments };
    try {
      if (config.mcpFastPath && "method" in message && messageId !== null && (era === "legacy" ? isJSONRPCRequest(message) : plainModernRequest(req.headers, message.method, message.params))) {
        const gzip = acceptsGzip(req.headers["accept-encoding"]);
        const fast = fastAnswer(executor, cache, { method: message.method, params: message.params }, exchange, gzip, era);
        if (fast) {
          sendAnswer(res, await fast, gzip, responseEnd(messageId));
          return;
        }
      }
      const headers = sdkHeaders(req);
      const answer = era === "modern" ? await sdk.modernRequest(message, headers, exchange) : await sdk.legacyRequest(message, headers, exchange);
      res.status(answer.status);
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(await answer.text());
    } catch (error) {
      gate.log.error("mcp request failed", { requestId: id, error: String(error) });
      sendRpcError(res, 500, INTERNAL_ERROR, "Internal error", messageId);
    }
  });

  route.all((req: HttpRequest, res: HttpResponse) => {
    if (!guard.check(req, res)) return;
    res.set("Allow", "POST, OPTIONS");
    sendRpcError(
      res,
      405,
      SERVER_ERROR,
      `${req.method} is not supported here: this MCP endpoint is stateless Streamable HTTP (no sessions, no server-sent event ` +
        "stream). POST one JSON-RPC message per request, e.g. {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}.",
      null,
    );
  });

  return router;
}

type Fault = { status: number; code: number; message: string; id: string | number | null; data?: unknown };

/**
 * Parses the body and decides the era. A request that claims the 2026-07-28 envelope (`_meta` protocol version, or a
 * modern MCP-Protocol-Version header) goes through the SDK's own classification, which also checks the Mcp-* headers
 * against the body; anything else is 2025-era traffic, served as before (plain JSON-RPC POSTs included).
 */
function classify(req: HttpRequest): Classified | Fault {
  let value: unknown;
  try {
    value = JSON.parse(typeof req.body === "string" ? req.body : "");
  } catch {
    return { status: 400, code: PARSE_ERROR, message: "Parse error: the body is not valid JSON.", id: null };
  }
  if (Array.isArray(value)) {
    return { status: 400, code: INVALID_REQUEST, message: "Invalid Request: JSON-RPC batches are not supported; POST one message per request.", id: null };
  }
  const version = header(req, "mcp-protocol-version");
  if (!claimsModern(value, version)) {
    if (!isMessage(value)) {
      const given = (value as { id?: unknown } | null)?.id;
      const id = typeof given === "string" || typeof given === "number" ? given : null;
      return { status: 400, code: INVALID_REQUEST, message: "Invalid Request: the body is not a JSON-RPC 2.0 message.", id };
    }
    return { era: "legacy", message: value, sentArguments: argumentsOf(value) };
  }
  const methodHeader = header(req, "mcp-method");
  const verdict = modernVerdicts.keyOf(value, version, methodHeader);
  if (verdict !== undefined && modernVerdicts.has(verdict)) return { era: "modern", message: value as JSONRPCMessage, sentArguments: argumentsOf(value) };
  const outcome = classifyInboundRequest({ httpMethod: "POST", protocolVersionHeader: version, mcpMethodHeader: methodHeader, mcpNameHeader: header(req, "mcp-name"), body: value });
  if (outcome.kind === "reject") {
    const given = (value as { id?: unknown } | null)?.id;
    const id = typeof given === "string" || typeof given === "number" ? given : null;
    return { status: outcome.httpStatus, code: outcome.code, message: outcome.message, id, data: outcome.data };
  }
  const sentArguments = argumentsOf(value);
  if (outcome.kind !== "modern") return { era: "legacy", message: value as JSONRPCMessage, sentArguments };
  if (verdict !== undefined) modernVerdicts.add(verdict);
  return { era: "modern", message: outcome.message, sentArguments };
}

/**
 * The SDK's verdicts on 2026-07-28 requests, by what decides them. Its classifier validates the envelope with zod, 5 to
 * 15 µs a request, while a client sends the same envelope every time. For a request of the SDK's own JSON-RPC request
 * shape with an envelope of version, capabilities and client info only, the verdict depends on nothing but the method,
 * the envelope and the MCP-Protocol-Version and Mcp-Method headers (Mcp-Name is the handler's to check), so an accepted
 * one is remembered; everything else is classified afresh. Bounded.
 */
const modernVerdicts = {
  accepted: new Set<string>(),
  keyOf(value: unknown, version: string | undefined, methodHeader: string | undefined): string | undefined {
    if (!isJSONRPCRequest(value) || !plainEnvelope(value.params)) return undefined;
    return JSON.stringify([value.method, version ?? null, methodHeader ?? null, value.params._meta]);
  },
  has(key: string): boolean {
    return this.accepted.has(key);
  },
  add(key: string): void {
    if (this.accepted.size >= 1_000) this.accepted.clear();
    this.accepted.add(key);
  },
};

function argumentsOf(value: unknown): unknown {
  return (value as { params?: { arguments?: unknown } } | null)?.params?.arguments;
}

function claimsModern(value: unknown, versionHeader: string | undefined): boolean {
  if (versionHeader !== undefined && !LEGACY_VERSIONS.has(versionHeader)) return true;
  const meta = (value as { params?: { _meta?: unknown } } | null)?.params?._meta;
  return typeof meta === "object" && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

/** A JSON-RPC 2.0 request, notification or response object (the SDK checks the rest of the shape). */
function isMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return false;
  if ("method" in message) return typeof message.method === "string";
  return "id" in message && ("result" in message || "error" in message);
}

/** A request header as one string (express's req.get, without its case folding and aliases: names here are lower case). */
function header(req: HttpRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * Records the MCP client acting on the caller, for flagging AI-made changes: the 2026-07-28 `_meta` clientInfo every
 * request carries, else an `initialize`'s clientInfo, else the User-Agent (a stateless 2025-era request remembers no
 * earlier initialize), else "mcp".
 */
function recordAgent(caller: Caller, message: JSONRPCMessage, req: HttpRequest): void {
  const meta = "params" in message ? (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta : undefined;
  const initialize = "method" in message && message.method === "initialize" && isInitializeRequest(message) ? message.params.clientInfo : undefined;
  const info = (meta?.[CLIENT_INFO_META_KEY] ?? initialize) as
    | { name?: unknown; version?: unknown }
    | undefined;
  const name = typeof info?.name === "string" && info.name.trim() ? info.name : header(req, "user-agent");
  const version = typeof info?.version === "string" && info.version.trim() ? info.version.trim().slice(0, 100) : undefined;
  caller.agent = name?.trim() ? name.trim().slice(0, 200) : "mcp";
  if (version && name === info?.name) caller.agentVersion = version;
}

function sdkHeaders(req: HttpRequest): Headers {
  // The body is already parsed; the SDK sees a canonical JSON request, so plain `curl -d` posts work too.
  const headers = new Headers({ accept: "application/json, text/event-stream", "content-type": "application/json" });
  for (const name of FORWARDED) {
    const value = req.get(name);
    if (value !== undefined) headers.set(name, value);
  }
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith("mcp-param-") && typeof value === "string") headers.set(name, value);
  }
  return headers;
}

function sendRpcError(res: HttpResponse, status: number, code: number, message: string, id: string | number | null, data?: unknown): void {
  const error = data === undefined ? { code, message } : { code, message, data };
  res.status(status).type("application/json").send(JSON.stringify({ jsonrpc: "2.0", id, error }));
}
