// The client's address of an express request: req.ip follows TRUST_PROXY (app.set("trust proxy") in src/app.ts).
import type { Request } from "express";

/** The client's address for rate limits, throttles and logs; the socket's peer when express has none. */
export function requestAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}
