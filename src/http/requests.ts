// HTTP pieces shared by the REST and MCP doors: admitting a request (caller + rate limit) and writing problems.
import crypto from "node:crypto";
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Request, Response } from "express";
import { problemOf, RateLimited, toToolError, ToolError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { Caller } from "../tools/context.ts";
import type { Authenticator } from "./auth.ts";
import { isTooDeep } from "./body.ts";
import { closeGzip } from "./gzip.ts";
import { noteCaller, noteRateLimited } from "./request-facts.ts";
import { rateLimitHeaders, type RateLimiter, type RateLimitState } from "./rate-limit.ts";
import type { Answer } from "./result-cache.ts";

export interface Gate {
  auth: Authenticator;
  limiter: RateLimiter;
  log: Logger;
  /** The Set-Cookie value of a storefront session (re-issued when a tool moves the caller's session to a new id). */
  sessionCookie: (sessionId: string) => string;
}

/** Identifies the caller and counts the request against its budget; sets the RateLimit headers. */
export async function admit(gate: Gate, req: Request, res: Response): Promise<Caller> {
  let caller: Caller;
  try {
    caller = await gate.auth.caller(req);
  } catch (error) {
    // The only 429 identifying a caller throws: this address guessed keys too often.
    if (error instanceof RateLimited) noteRateLimited(res, "auth");
    throw error;
  }
  await admitCaller(gate.limiter, caller, res);
  return caller;
}

/** Counts a request of a known caller against its budget and sets the RateLimit headers; 429 when it is spent. */
export async function admitCaller(limiter: RateLimiter, caller: Caller, res: Response): Promise<void> {
  noteCaller(res, caller);
  const state = await spend(limiter, caller);
  res.set(rateLimitHeaders(state));
  if (!state.allowed) {
    noteRateLimited(res, state.policy);
    throw new RateLimited(state.resetSeconds);
  }
}

/** Counts one request of this caller against its budget: per key, else per client address. */
export function spend(limiter: RateLimiter, caller: Caller): Promise<RateLimitState> {
  const keyed = caller.kind === "key";
  return limiter.check(keyed ? `key:${caller.keyId}` : `addr:${caller.address}`, keyed);
}

/** A request header as one string (a repeated one joined with ", "), or undefined. */
export function headerValue(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The protocol doors' Request-Id: the first of these headers the caller sent, if well-formed, else a new one; echoed. */
export function echoRequestId(req: Request, res: Response, names: readonly string[] = ["request-id"]): string {
  const given = names.map((name) => headerValue(req, name)).find((value) => value !== undefined);
  const id = given !== undefined && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
  res.set("Request-Id", id);
  requestIds.set(req, id);
  return id;
}

/** Each request's id, once a door has asked for it: the access log names the id the door answered with. */
const requestIds = new WeakMap<Request, string>();

/** The request's id: its X-Request-Id when well-formed, else a new one; the same id every time it is asked for. */
export function requestId(req: Request): string {
  let id = requestIds.get(req);
  if (id === undefined) {
    const given = req.headers["x-request-id"];
    id = typeof given === "string" && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    requestIds.set(req, id);
  }
  return id;
}

/**
 * Sends a serialized answer with Node's own API: express's res.send re-reads the content type to add a charset and
 * checks freshness, a noticeable share of a cached tool call. `body` is the whole response when the answer is only its
 * start (an MCP response: the SDK's bytes, which begin with the cached answer's). With `gzip` (the client's
 * Accept-Encoding takes it) an answer that has a gzip form goes out gzip-encoded, closed with the rest of the body;
 * every answer whose encoding depends on Accept-Encoding says so in Vary, compressed or not.
 */
export function sendAnswer(res: Response, answer: Answer, gzip: boolean, body = answer.bytes): void {
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  if (answer.varies) {
    // The MCP door's guard has set Vary: Origin; nothing else sets Vary before an answer.
    const vary = res.getHeader("Vary");
    res.setHeader("Vary", vary === undefined ? "Accept-Encoding" : `${String(vary)}, Accept-Encoding`);
  }
  const compressed = gzip && answer.gzip ? closeGzip(answer.gzip, body.subarray(answer.bytes.length)) : undefined;
  if (compressed) res.setHeader("Content-Encoding", "gzip");
  const sent = compressed ?? body;
  res.setHeader("Content-Length", sent.length);
  res.end(sent);
}

/** Writes an RFC 9457 problem (application/problem+json) for any thrown value. */
export function sendProblem(res: Response, error: unknown, id: string, log?: Logger): void {
  const mapped: ToolError = toToolError(error);
  if (mapped.status >= 500 && log && mapped.code === "internal") log.error("request failed", { requestId: id, error: String(error) });
  if (mapped.status === 401) res.set("WWW-Authenticate", 'Bearer realm="shop"');
  if (mapped instanceof RateLimited) res.set("Retry-After", String(mapped.retryAfterSeconds));
  res.status(mapped.status).type("application/problem+json").send(JSON.stringify(problemOf(mapped, id)));
}

/**
 * Translates what express, body-parser and raw-body throw (bad JSON, JSON nested too deeply, too large, bad charset, a
 * body that is not the gzip it claims, an undecodable %-escape in the path) into problems: their 4xx `status` is
 * honoured, never a 500.
 */
export function httpError(error: unknown): unknown {
  const { type, status, statusCode } = error as { type?: unknown; status?: unknown; statusCode?: unknown };
  if (type === "entity.parse.failed") return new ToolError(400, "invalid_json", "Invalid JSON", "The request body is not valid JSON.");
  if (isTooDeep(error)) return new ToolError(400, "invalid_json", "Invalid JSON", (error as Error).message);
  if (type === "entity.too.large") return new ToolError(413, "payload_too_large", "Payload too large", "The request body is too large.");
  if (type === "charset.unsupported" || type === "encoding.unsupported") {
    return new ToolError(415, "unsupported_media_type", "Unsupported media type", "Send the body as UTF-8 JSON (identity, gzip, deflate or br encoded).");
  }
  const given = typeof status === "number" ? status : statusCode;
  if (typeof given === "number" && given >= 400 && given < 500) {
    return new ToolError(given, "bad_request", "Bad request", "The request could not be read: a malformed path, header or body encoding.");
  }
  return error;
}

/** What Node's HTTP parser refuses before express runs, as the status Node itself would answer. */
const PARSER_REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request header fields too large", "The request headers exceed 16 KB (an Authorization header of that size is no API key)."],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "Payload too large", "The chunk extensions are too large."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request timeout", "The request was not received in time."],
};

/** Answers requests Node's parser refuses (oversized headers, malformed HTTP) with a problem instead of a bare status line. */
export function answerParserErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, title, detail] = PARSER_REFUSALS[error.code ?? ""] ?? [400, "Bad request", "The request is not valid HTTP."];
    const body = JSON.stringify(problemOf(new ToolError(status, "bad_request", title, detail)));
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
