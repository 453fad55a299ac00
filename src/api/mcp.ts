// The MCP door, POST /api/mcp: the official SDK answers every MCP request, 2026-07-28 and the 2025 era on one stateless
// endpoint, behind the Origin/Host guard and the same admission (keys, scopes, rate limits) as REST.
import express, { type Request as HttpRequest, type Response as HttpResponse, type Router } from "express";
import { CLIENT_INFO_META_KEY, isInitializeRequest } from "@modelcontextprotocol/server";
import { Invalid, problemOf, RateLimited, toToolError, ToolError } from "../core/errors.ts";
import type { Config } from "../core/config.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { narrowToolsets, parseToolsets } from "../tools/toolsets.ts";
import { acceptsGzip } from "../http/gzip.ts";
import { isTooDeep, textBody } from "../http/body.ts";
import { admit, admitCaller, requestId, sendAnswer, sendProblem, type Gate } from "../http/requests.ts";
import { requestAddress } from "../http/address.ts";
import { bearerOf, challenge, missingScope, tokenCaller, type McpOAuth } from "./mcp-oauth.ts";
import { mcpGuard } from "./mcp-guard.ts";
import { sdkHeaders, sendRpcError } from "./mcp-http.ts";
import { SdkDoor, type Exchange } from "./mcp-sdk.ts";
import { inMcpSpan, mcpFailed, noteRpcAnswer, type RpcRequest } from "./mcp-trace.ts";
import type { ResultCache } from "../http/result-cache.ts";
import { BODY_LIMIT } from "./rest.ts";

/** JSON-RPC error codes of this door. 429 (outside the reserved −32768…−32000) says "rate limited" with `data.retryAfter`. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
const RATE_LIMITED = 429;
/** JSON-RPC's implementation-defined server error, as the SDK transport uses for HTTP-level refusals. */
const SERVER_ERROR = -32000;

/** Headers the SDK reads from an MCP request (besides every Mcp-Param-*); everything else stays at the door. */

export function mcpRouter(executor: Executor, gate: Gate, config: Config, cache: ResultCache, oauth?: McpOAuth): Router {
  const router = express.Router();
  const guard = mcpGuard(config);
  const sdk = new SdkDoor(executor, cache, gate.log);
  const known = (tool: string) => executor.registry.get(tool) !== undefined;

  const text = textBody({ limit: BODY_LIMIT });
  // The guard, then the body (a refused Origin is answered before its body is read), as one handler: each handler of a
  // route is a step of the router's dispatch. JSON nested too deeply is refused as the parse error it is to JSON-RPC.
  const guardedBody = (req: HttpRequest, res: HttpResponse, next: (error?: unknown) => void) => {
    if (!guard.check(req, res)) return;
    text(req, res, (error?: unknown) => {
      if (isTooDeep(error)) sendRpcError(res, 400, PARSE_ERROR, `Parse error: ${(error as Error).message}`, null);
      else next(error);
    });
  };

  // One route, so a request matches the path once and is dispatched by its method (OPTIONS, POST, anything else).
  const route = router.route("/api/mcp");
  route.options((req, res) => guard.preflight(req, res));

  route.post(guardedBody, async (req: HttpRequest, res: HttpResponse) => {
    const id = requestId(req);
    let caller: Caller | ToolError;
    try {
      // An OAuth access token (anything but an API key) is checked by the authorization server; keys go on as before.
      const bearer = oauth ? bearerOf(req) : undefined;
      if (oauth && bearer !== undefined && !bearer.startsWith("shop_")) {
        const token = await oauth.verify(bearer);
        if (!token) return challenge(res, oauth, 401, "invalid_token", "The access token is invalid, expired, revoked or meant for another resource.");
        caller = tokenCaller(token, requestAddress(req));
        await admitCaller(gate.limiter, caller, res);
      } else {
        caller = await admit(gate, req, res);
        // ?as=shopper: a shopper's connection always signs in, and its challenge asks for the shopper scopes.
        const shopper = oauth !== undefined && req.query.as === "shopper";
        if ((oauth?.required || shopper) && caller.kind === "anonymous") {
          return challenge(res, oauth, 401, undefined, "This MCP endpoint needs an OAuth access token or an API key.", shopper ? oauth.shopperScopes?.join(" ") : undefined);
        }
      }
    } catch (error) {
      caller = toToolError(error);
      if (caller.status >= 500) gate.log.error("mcp admission failed", { requestId: id, error: String(error) });
    }
    let body: unknown;
    try {
      body = JSON.parse(typeof req.body === "string" ? req.body : "");
    } catch {
      sendRpcError(res, 400, PARSE_ERROR, "Parse error: the body is not valid JSON.", null);
      return;
    }
    if (Array.isArray(body)) {
      sendRpcError(res, 400, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported; POST one message per request.", null);
      return;
    }
    const request = requestParts(body);
    // ?toolsets=orders,returns narrows what this connection lists and may call, within the key's own toolsets.
    if (!(caller instanceof ToolError) && req.query.toolsets !== undefined) {
      try {
        caller = narrowedCaller(caller, req.query.toolsets);
      } catch (error) {
        sendProblem(res, toToolError(error), id);
        return;
      }
    }
    const admitted = caller;
    await inMcpSpan(request, req.headers, known, async (span) => {
      const { id: messageId, method, params } = request;
      if (admitted instanceof RateLimited) {
        // MCP clients back off on a JSON-RPC error they can read: HTTP 429, Retry-After, and data.retryAfter in seconds.
        res.set("Retry-After", String(admitted.retryAfterSeconds));
        const data = { retryAfter: admitted.retryAfterSeconds, ...problemOf(admitted, id) };
        sendRpcError(res, 429, RATE_LIMITED, admitted.message, messageId, data);
        mcpFailed(span, String(RATE_LIMITED), admitted.message, RATE_LIMITED);
        return;
      }
      // A refused tool call is a tool result (isError) the model can read; any other refused request fails over HTTP.
      if (admitted instanceof ToolError && !(method === "tools/call" && messageId !== null)) {
        sendProblem(res, admitted, id);
        mcpFailed(span, admitted.code, admitted.message);
        return;
      }
      if (!(admitted instanceof ToolError)) recordAgent(admitted, body, request, req);
      // A token lacking a tool's scope is told so over HTTP (403 insufficient_scope), so its client can ask for more.
      const needed = oauth && !(admitted instanceof ToolError) && admitted.oauthClient && method === "tools/call" ? missingScope(executor, admitted, params?.name) : undefined;
      if (oauth && needed) {
        challenge(res, oauth, 403, "insufficient_scope", `This tool needs the scope "${needed}".`, needed);
        mcpFailed(span, "insufficient_scope", needed);
        return;
      }
      const exchange: Exchange = { caller: admitted, requestId: id, sentArguments: params?.arguments, gzip: acceptsGzip(req.headers["accept-encoding"]) };
      try {
        const response = await sdk.answer(body, sdkHeaders(req), exchange);
        const sent = await send(res, response, exchange);
        if (exchange.refused) mcpFailed(span, "tool_error", exchange.refused);
        else if (span && !exchange.answer) noteRpcAnswer(span, response.status, sent);
      } catch (error) {
        gate.log.error("mcp request failed", { requestId: id, error: String(error) });
        sendRpcError(res, 500, INTERNAL_ERROR, "Internal error", messageId);
        mcpFailed(span, String(INTERNAL_ERROR), "Internal error", INTERNAL_ERROR);
      }
    });
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

/** The caller limited further to the toolsets a `?toolsets=` query names (each a known area; 400 otherwise). */
function narrowedCaller(caller: Caller, query: unknown): Caller {
  if (typeof query !== "string") throw new Invalid("Name the toolsets once, comma-separated: ?toolsets=orders,returns.");
  const toolsets = narrowToolsets(caller.toolsets, parseToolsets(query));
  return toolsets ? { ...caller, toolsets } : caller;
}

/** The id, method and params of a JSON-RPC request, as far as the body names them (the SDK judges the rest). */
type RequestParts = RpcRequest;

function requestParts(body: unknown): RequestParts {
  if (typeof body !== "object" || body === null) return { id: null };
  const { id, method, params } = body as Record<string, unknown>;
  return {
    id: typeof id === "string" || typeof id === "number" ? id : null,
    method,
    params: typeof params === "object" && params !== null ? (params as Record<string, unknown>) : undefined,
  };
}

/**
 * Sends the SDK's response. When its result is a cached answer and it starts with the answer's bytes (mcp-tools.ts
 * makes them as the SDK serializes; should the SDK ever write otherwise, its bytes go out as they are), it goes out as
 * that answer: gzip-encoded to a client that takes gzip, from the answer's gzip form closed with the rest of the bytes.
 */
async function send(res: HttpResponse, response: Response, { answer, gzip }: Exchange): Promise<Buffer> {
  const body = Buffer.from(await response.arrayBuffer());
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (answer && response.status === 200 && answer.bytes.equals(body.subarray(0, answer.bytes.length))) sendAnswer(res, answer, gzip, body);
  else res.end(body);
  return body;
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
function recordAgent(caller: Caller, body: unknown, { method, params }: RequestParts, req: HttpRequest): void {
  if (caller.oauthClient) {
    // An OAuth client is named by its client id (its metadata document's URL, or the id registration gave it).
    caller.agent = `oauth:${caller.oauthClient}`.slice(0, 200);
    return;
  }
  const meta = params?._meta as Record<string, unknown> | undefined;
  const initialize = method === "initialize" && isInitializeRequest(body) ? body.params.clientInfo : undefined;
  const info = (meta?.[CLIENT_INFO_META_KEY] ?? initialize) as
    | { name?: unknown; version?: unknown }
    | undefined;
  const name = typeof info?.name === "string" && info.name.trim() ? info.name : header(req, "user-agent");
  const version = typeof info?.version === "string" && info.version.trim() ? info.version.trim().slice(0, 100) : undefined;
  caller.agent = name?.trim() ? name.trim().slice(0, 200) : "mcp";
  if (version && name === info?.name) caller.agentVersion = version;
}

