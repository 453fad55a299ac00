// HTTP pieces shared by the REST and MCP doors: admitting a request (caller + rate limit) and writing problems.
import crypto from "node:crypto";
import type { Request, Response } from "express";
import { problemOf, RateLimited, toToolError, type ToolError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { Caller } from "../tools/context.ts";
import type { Authenticator } from "./auth.ts";
import { rateLimitHeaders, type RateLimiter, type RateLimitState } from "./rate-limit.ts";

export interface Gate {
  auth: Authenticator;
  limiter: RateLimiter;
  log: Logger;
}

/** Identifies the caller and counts the request against its budget; sets the RateLimit headers. */
export async function admit(gate: Gate, req: Request, res: Response): Promise<Caller> {
  const caller = await gate.auth.caller(req);
  await admitCaller(gate.limiter, caller, res);
  return caller;
}

/** Counts a request of a known caller against its budget and sets the RateLimit headers; 429 when it is spent. */
export async function admitCaller(limiter: RateLimiter, caller: Caller, res: Response): Promise<void> {
  const state = await spend(limiter, caller);
  res.set(rateLimitHeaders(state));
  if (!state.allowed) throw new RateLimited(state.resetSeconds);
}

/** Counts one request of this caller against its budget: per key, else per client address. */
export function spend(limiter: RateLimiter, caller: Caller): Promise<RateLimitState> {
  const keyed = caller.kind === "key";
  return limiter.check(keyed ? `key:${caller.keyId}` : `addr:${caller.address}`, keyed);
}

export function requestId(req: Request): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
}

/** Writes an RFC 9457 problem (application/problem+json) for any thrown value. */
export function sendProblem(res: Response, error: unknown, id: string, log?: Logger): void {
  const mapped: ToolError = toToolError(error);
  if (mapped.status >= 500 && log && mapped.code === "internal") log.error("request failed", { requestId: id, error: String(error) });
  if (mapped.status === 401) res.set("WWW-Authenticate", 'Bearer realm="shop"');
  if (mapped instanceof RateLimited) res.set("Retry-After", String(mapped.retryAfterSeconds));
  res.status(mapped.status).type("application/problem+json").send(JSON.stringify(problemOf(mapped, id)));
}
