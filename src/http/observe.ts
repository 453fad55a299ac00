// Watches every request, mounted first: when its response finishes, one JSON access-log line on stdout and the HTTP
// metrics (requests and latency by door, route template and status; 429s by budget).
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { DoorLabel, Metrics } from "../core/metrics.ts";
import type { Caller } from "../tools/context.ts";
import { traceIds } from "../core/log.ts";
import { factsOf } from "./request-facts.ts";
import { requestId } from "./requests.ts";

export interface ObserveOptions {
  metrics: Metrics;
  /** Write the access log (LOG_LEVEL debug or info). */
  log: boolean;
  /** Whether a tool of this name is registered: only those name a REST route (a typo must not become a label). */
  knownTool: (name: string) => boolean;
}

/** The doors by path prefix, as src/app.ts mounts them (the routers ignore case, so do these); anything else is the web. */
const DOORS: ReadonlyArray<readonly [RegExp, DoorLabel]> = [
  [/^\/api\/v1\/(?:tools|openapi\.json)(?:\/|$)/i, "rest"],
  [/^\/api\/mcp(?:\/|$)/i, "mcp"],
  [/^\/api\/v1\/chat(?:\/|$)/i, "chat"],
  [/^\/api\/v1\/session(?:\/|$)/i, "session"],
  [/^\/api(?:\/|$)/i, "other"],
  [/^\/(?:ucp|\.well-known\/ucp)(?:\/|$)/i, "ucp"],
  [/^\/(?:acp|\.well-known\/acp\.json)(?:\/|$)/i, "acp"],
  [/^\/admin(?:\/|$)/i, "admin"],
  [/^\/webhooks(?:\/|$)/i, "webhooks"],
  [/^\/(?:healthz|readyz)$/i, "health"],
  [/^\/metrics$/i, "metrics"],
];

const TOOL_PATH = /^\/api\/v1\/tools\/([^/]+)$/i;

function doorOf(path: string): DoorLabel {
  for (const [pattern, door] of DOORS) if (pattern.test(path)) return door;
  return "web";
}

export function observe({ metrics, log, knownTool }: ObserveOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    // Mounted after the request's trace span is made active: its ids go on the access-log line.
    const ids = log ? traceIds() : undefined;
    res.on("finish", () => {
      const ms = performance.now() - started;
      // originalUrl: a mounted router strips its prefix from req.url while it runs, and the response may finish inside it.
      const url = req.originalUrl;
      const query = url.indexOf("?");
      const path = query === -1 ? url : url.slice(0, query);
      const door = doorOf(path);
      const status = res.statusCode;
      metrics.httpRequest(door, routeOf(req, door, path, knownTool), req.method, status, ms / 1000);
      const facts = factsOf(res);
      if (status === 429) metrics.rateLimited(door, facts.rateLimited ?? "other");
      if (!log) return;
      const line = {
        time: new Date().toISOString(),
        level: "info",
        message: "request",
        method: req.method,
        path,
        status,
        durationMs: Math.round(ms * 10) / 10,
        door,
        caller: callerKind(facts.caller),
        requestId: requestId(req),
        ...ids,
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    });
    next();
  };
}

/**
 * A low-cardinality route: a REST tool call is its tool's name (a bounded set), anything else the template of the
 * express route that answered it ("/products/:slug"), or "unmatched" (assets, 404 pages). Never the raw path.
 */
function routeOf(req: Request, door: DoorLabel, path: string, knownTool: (name: string) => boolean): string {
  if (door === "rest") {
    const name = TOOL_PATH.exec(path)?.[1];
    if (name !== undefined) return knownTool(name) ? name : "/api/v1/tools/:name";
  }
  const template: unknown = req.route?.path;
  return typeof template === "string" ? template : "unmatched";
}

/** anonymous, key, session, staff, or agent: a key or keyless caller an AI agent acts through (MCP client, UCP profile). */
function callerKind(caller: Caller | undefined): string {
  if (!caller) return "anonymous";
  if ((caller.kind === "key" || caller.kind === "anonymous") && (caller.agent !== undefined || caller.agentProfile !== undefined)) return "agent";
  return caller.kind;
}
