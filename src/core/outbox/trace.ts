// The span of one webhook delivery attempt (CLIENT), after the OpenTelemetry HTTP client conventions plus the event:
// `POST webhook <event type>`, the receiver's host and port, the status code, an error when the attempt failed. Each
// attempt starts a trace of its own (retries run long after the change that caused the event); the receiver gets its
// traceparent. A no-op without telemetry.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import { telemetryActive } from "../telemetry.ts";

/** What the span names of a claimed event. */
export interface DeliveredEvent {
  id: string;
  type: string;
  url: string;
  attempts: number;
}

export type { Span };

const tracer = trace.getTracer("shop-server");

export function inDeliverySpan(event: DeliveredEvent, fn: (span: Span | undefined) => Promise<void>): Promise<void> {
  if (!telemetryActive()) return fn(undefined);
  // A URL that does not parse fails the attempt in deliver(), which the span then records.
  const url = URL.parse(event.url);
  const attributes: Attributes = {
    "http.request.method": "POST",
    ...(url && {
      "server.address": url.hostname,
      "server.port": url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80,
      "url.scheme": url.protocol.replace(/:$/, ""),
    }),
    "shop.webhook.event_type": event.type,
    "shop.webhook.event_id": event.id,
    "shop.webhook.attempt": event.attempts + 1,
  };
  return tracer.startActiveSpan(`POST webhook ${event.type}`, { kind: SpanKind.CLIENT, root: true, attributes }, async (span) => {
    try {
      await fn(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The signer's headers plus the active span's traceparent, so a traced receiver continues the delivery's trace. */
export function withTraceContext(headers: Record<string, string>): Record<string, string> {
  if (!telemetryActive()) return headers;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return { ...carrier, ...headers };
}

export function deliveryOutcome(span: Span | undefined, statusCode: number | null, error: string | null): void {
  if (!span) return;
  if (statusCode !== null) span.setAttribute("http.response.status_code", statusCode);
  if (error === null) return;
  span.setAttribute("error.type", statusCode === null ? "network" : String(statusCode));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error });
}
