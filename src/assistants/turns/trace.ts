// The span of one assistant turn, after the OpenTelemetry GenAI conventions: `invoke_agent <assistant>`, parent of the
// turn's model calls and tool calls (a turn worker continues it from the carrier it is sent). No-op without telemetry.
import { context, propagation, ROOT_CONTEXT, SpanStatusCode, trace, type Context } from "@opentelemetry/api";
import { telemetryActive } from "../../core/telemetry.ts";
import type { TurnReport } from "./tool-loop.ts";

const tracer = trace.getTracer("shop-server");

/** A span context across the thread boundary: W3C traceparent/tracestate headers. */
export type TraceCarrier = Record<string, string>;

/** Runs a turn (its tool loop, saving and log line) inside its span; `noteTurn` adds how it went. */
export function inTurnSpan(assistant: string, model: string, fn: () => Promise<void>): Promise<void> {
  if (!telemetryActive()) return fn();
  const attributes = { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": assistant, "gen_ai.request.model": model };
  return tracer.startActiveSpan(`invoke_agent ${assistant}`, { attributes }, async (span) => {
    try {
      await fn();
    } finally {
      span.end();
    }
  });
}

/** Records the turn's usage and failure on its span (the active one). */
export function noteTurn(report: TurnReport): void {
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttributes({ "gen_ai.usage.input_tokens": report.inputTokens, "gen_ai.usage.output_tokens": report.outputTokens, "shop.turn.steps": report.steps });
  if (report.failure) {
    span.setAttribute("error.type", report.broken ? "turn_failed" : "turn_error");
    span.setStatus({ code: SpanStatusCode.ERROR, message: report.failure });
  }
}

/** The active span as a carrier for a turn worker (empty without telemetry). */
export function currentCarrier(): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a worker continues a turn in. */
export function contextOf(carrier: TraceCarrier | undefined): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
}
