// The span of one HTTP request (SERVER), after the OpenTelemetry HTTP conventions: `<method> <route>` once a router
// matched a route, continuing the caller's trace when it sent a W3C traceparent. Mounted first; a no-op without telemetry.
import type { NextFunction, Request, Response } from "express";
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { telemetryActive } from "../core/telemetry.ts";

const tracer = trace.getTracer("shop-server");

export function traceRequests() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!telemetryActive()) {
      next();
      return;
    }
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": req.method, "url.path": req.path, "url.scheme": req.protocol } },
      parent,
    );
    const active = trace.setSpan(parent, span);
    // The body arrives in events of the request stream, emitted outside this async context: bound, their listeners
    // (body parsers, and through them the routes) run inside the request's span.
    context.bind(active, req);
    context.bind(active, res);
    res.once("finish", () => finish(span, req, res));
    res.once("close", () => {
      if (!res.writableFinished) finish(span, req, res, "the client closed the connection before the answer was sent");
    });
    context.with(active, next);
  };
}

function finish(span: Span, req: Request, res: Response, aborted?: string): void {
  const route = routeOf(req);
  if (route) {
    span.updateName(`${req.method} ${route}`);
    span.setAttribute("http.route", route);
  }
  span.setAttribute("http.response.status_code", res.statusCode);
  if (aborted) {
    span.setAttribute("error.type", "aborted");
    span.setStatus({ code: SpanStatusCode.ERROR, message: aborted });
  } else if (res.statusCode >= 500) {
    span.setAttribute("error.type", String(res.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** The matched route's template (`/api/v1/tools/:name`): low-cardinality, unlike the path. Undefined when none matched. */
function routeOf(req: Request): string | undefined {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === "string" ? `${req.baseUrl}${path}` : undefined;
}
