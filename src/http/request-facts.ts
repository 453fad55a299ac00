// What a door learns about a request (its caller, the budget that refused it) for the access log and the metrics,
// which report it once the response has finished (src/http/observe.ts).
import type { Response } from "express";
import type { Caller } from "../tools/context.ts";

/** The budget a 429 answer came from: a request budget (anonymous per address, key per key) or the failed-key budget. */
export type RefusalKind = "anonymous" | "key" | "auth";

export interface RequestFacts {
  caller?: Caller;
  rateLimited?: RefusalKind;
}

/** The facts recorded on this response so far. */
export function factsOf(res: Response): RequestFacts {
  return res.locals as RequestFacts;
}

/** Records who is calling (the object itself: a door may still name the agent acting on it). */
export function noteCaller(res: Response, caller: Caller): void {
  factsOf(res).caller = caller;
}

/** Records that a rate-limit budget refused this request. */
export function noteRateLimited(res: Response, kind: RefusalKind): void {
  factsOf(res).rateLimited = kind;
}
