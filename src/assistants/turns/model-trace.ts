// The span of each model call of an assistant's tool loop, after the OpenTelemetry GenAI conventions: `chat <model>`
// (CLIENT) with the model, token usage and finish reason. Loaded and applied only while telemetry is active (model.ts).
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import { wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from "ai";

/** What the spans name of the configured model (model.ts's ModelSettings, whose module loads this one). */
export interface TracedModelSettings {
  openaiModel: string;
  openaiBaseUrl: string | undefined;
}

const tracer = trace.getTracer("shop-server");

type WrappableModel = Parameters<typeof wrapLanguageModel>[0]["model"];
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware["wrapStream"]>>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

/** The model with a span per call: its model, token usage and finish reason, an error when the call or its stream fails. */
export function tracedModel(model: WrappableModel, settings: TracedModelSettings): LanguageModel {
  const server = settings.openaiBaseUrl ? URL.parse(settings.openaiBaseUrl) : URL.parse("https://api.openai.com");
  const base: Attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": settings.openaiModel,
    ...(server ? { "server.address": server.hostname } : {}),
  };
  const middleware: LanguageModelMiddleware = {
    wrapStream: async ({ doStream, params }) => {
      const span = tracer.startSpan(`chat ${settings.openaiModel}`, {
        kind: SpanKind.CLIENT,
        attributes: { ...base, ...(params.maxOutputTokens ? { "gen_ai.request.max_tokens": params.maxOutputTokens } : {}) },
      });
      let result: StreamResult;
      try {
        result = await context.with(trace.setSpan(context.active(), span), doStream);
      } catch (error) {
        failed(span, error);
        span.end();
        throw error;
      }
      return { ...result, stream: result.stream.pipeThrough(observe(span)) };
    },
    wrapGenerate: async ({ doGenerate }) =>
      tracer.startActiveSpan(`chat ${settings.openaiModel}`, { kind: SpanKind.CLIENT, attributes: base }, async (span) => {
        try {
          const result = await doGenerate();
          usage(span, result.usage.inputTokens.total, result.usage.outputTokens.total, result.finishReason.unified);
          return result;
        } catch (error) {
          failed(span, error);
          throw error;
        } finally {
          span.end();
        }
      }),
  };
  return wrapLanguageModel({ model, middleware });
}

/** Watches a model call's stream for its response metadata, usage and errors; the span ends with the stream. */
function observe(span: Span): TransformStream<StreamPart, StreamPart> {
  let ended = false;
  const end = () => {
    if (!ended) span.end();
    ended = true;
  };
  return new TransformStream<StreamPart, StreamPart>({
    transform(part, controller) {
      if (part.type === "response-metadata") {
        if (part.id) span.setAttribute("gen_ai.response.id", part.id);
        if (part.modelId) span.setAttribute("gen_ai.response.model", part.modelId);
      } else if (part.type === "finish") {
        usage(span, part.usage.inputTokens.total, part.usage.outputTokens.total, part.finishReason.unified);
      } else if (part.type === "error") {
        failed(span, part.error);
      }
      controller.enqueue(part);
    },
    flush: end,
    cancel: () => {
      if (!ended) span.setAttribute("error.type", "cancelled");
      end();
    },
  });
}

function usage(span: Span, input: number | undefined, output: number | undefined, finish: string): void {
  if (input !== undefined) span.setAttribute("gen_ai.usage.input_tokens", input);
  if (output !== undefined) span.setAttribute("gen_ai.usage.output_tokens", output);
  span.setAttribute("gen_ai.response.finish_reasons", [finish]);
  if (finish === "error") span.setStatus({ code: SpanStatusCode.ERROR });
}

function failed(span: Span, error: unknown): void {
  span.setAttribute("error.type", error instanceof Error ? error.name : "error");
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}
