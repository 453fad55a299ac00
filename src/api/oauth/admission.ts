// Rate limits in front of the authorization server: its endpoints are open to anyone, so each request counts against the
// client address's anonymous budget, and client registrations (each one a stored row) against a small budget of their own.
import type { Request, Response } from "express";
import { anonymousCaller } from "../../http/auth.ts";
import { requestAddress } from "../../http/address.ts";
import { noteRateLimited } from "../../http/request-facts.ts";
import { rateLimitHeaders } from "../../http/rate-limit.ts";
import { spend, type Gate } from "../../http/requests.ts";
import { OAUTH_ROUTES } from "./authorization-server.ts";

/** Client registrations (RFC 7591) one address may make per rate-limit window. */
export const REGISTRATIONS_PER_WINDOW = 10;

/** Counts the request; answers 429 in OAuth's error form (RFC 6749 §5.2 names no code for it) and returns false when spent. */
export async function oauthAdmitted(gate: Gate, req: Request, res: Response): Promise<boolean> {
  const address = requestAddress(req);
  const state = await spend(gate.limiter, anonymousCaller(address));
  res.set(rateLimitHeaders(state));
  let retryAfter = state.allowed ? null : state.resetSeconds;
  if (retryAfter === null && req.method === "POST" && req.path === OAUTH_ROUTES.registration) {
    const hit = await gate.limiter.store.hit(`oauthreg:${address}`);
    if (hit.count > REGISTRATIONS_PER_WINDOW) retryAfter = Math.max(1, Math.ceil(hit.resetMs / 1000));
  }
  if (retryAfter === null) return true;
  noteRateLimited(res, "anonymous");
  res
    .status(429)
    .set({ "Retry-After": String(retryAfter), "Cache-Control": "no-store" })
    .json({ error: "temporarily_unavailable", error_description: `Too many requests from this address; try again in ${retryAfter} s.` });
  return false;
}
