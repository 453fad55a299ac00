// The span of one tool call, after the OpenTelemetry GenAI conventions for tool execution: `execute_tool <name>`, its
// status ERROR when the call is refused or fails (the result a door shows as an error, MCP's isError).
import { SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import { toToolError } from "../core/errors.ts";
import { telemetryActive } from "../core/telemetry.ts";
import type { Door } from "./context.ts";

const tracer = trace.getTracer("shop-server");

function attributes(name: string, door: Door): Attributes {
  return { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.type": "function", "shop.door": door };
}

/** Runs `fn` inside the tool call's span (active, so database spans nest under it). */
export function inToolSpan<T>(name: string, door: Door, fn: () => Promise<T>): Promise<T> {
  if (!telemetryActive()) return fn();
  return tracer.startActiveSpan(`execute_tool ${name}`, { attributes: attributes(name, door) }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A call answered from the result cache (the executor was skipped): a span of its own, marked as a cache hit. */
export function recordCachedCall(name: string, door: Door): void {
  if (!telemetryActive()) return;
  tracer.startSpan(`execute_tool ${name}`, { attributes: { ...attributes(name, door), "shop.cache.hit": true } }).end();
}

function failed(span: Span, error: unknown): void {
  const problem = toToolError(error);
  span.setAttribute("error.type", problem.code);
  span.setAttribute("shop.problem.status", problem.status);
  span.setStatus({ code: SpanStatusCode.ERROR, message: problem.message });
}
