// OpenTelemetry traces: the SDK loads only when OTEL_EXPORTER_OTLP_ENDPOINT is set (or a test hands in a span
// processor). The code everywhere else speaks @opentelemetry/api alone, whose calls are no-ops until a provider is
// registered here; telemetryActive() lets the hot paths skip even those.
import type { SpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface TelemetryOptions {
  /** service.name of every span (OTEL_SERVICE_NAME, default "shop-server"). */
  serviceName?: string;
  /** Where spans go instead of the OTLP exporter (tests: a SimpleSpanProcessor over an InMemorySpanExporter). */
  spanProcessor?: SpanProcessor;
}

export interface Telemetry {
  /** Sends what is buffered and unregisters the provider: later spans are no-ops again. */
  shutdown(): Promise<void>;
}

let active = false;

/** Whether a tracer provider is registered in this thread (the middleware and the model wrapper skip their work without one). */
export function telemetryActive(): boolean {
  return active;
}

/**
 * Registers a tracer provider for this thread: its spans go to the OTLP exporter (which reads the standard OTEL_EXPORTER_OTLP_*
 * variables itself) in batches, or to `spanProcessor`. Also registers the AsyncLocalStorage context manager (so spans
 * nest across awaits), the W3C trace-context propagator, and Prisma's instrumentation (spans per query).
 */
export async function startTelemetry(options: TelemetryOptions = {}): Promise<Telemetry> {
  if (active) throw new Error("telemetry is already started in this thread");
  const [{ NodeTracerProvider, BatchSpanProcessor }, { resourceFromAttributes }, { PrismaInstrumentation, registerInstrumentations }, api] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/resources"),
    import("@prisma/instrumentation"),
    import("@opentelemetry/api"),
  ]);
  const processor = options.spanProcessor ?? new BatchSpanProcessor(new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter());
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName || "shop-server" }),
    spanProcessors: [processor],
  });
  provider.register();
  // Prisma's client asks a global tracing helper for spans on every query; enabling the instrumentation sets it (no
  // module patching: Prisma reads it itself).
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: [new PrismaInstrumentation()] });
  active = true;
  return {
    async shutdown() {
      if (!active) return;
      active = false;
      unregister();
      await provider.shutdown();
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
    },
  };
}
