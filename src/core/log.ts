// A minimal structured logger: one JSON line per event on stderr, filtered by LOG_LEVEL; a line written inside a traced
// span carries its traceId and spanId, so the log and the trace find each other. The server's few stdout lines
// (listening, the setup link, the access log) have the same shape.
import { isSpanContextValid, trace } from "@opentelemetry/api";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** One log line: `{time, level, message, ...fields}` and a newline. */
export function jsonLine(level: Exclude<LogLevel, "silent">, message: string, fields?: Record<string, unknown>): string {
  return `${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`;
}

/** The trace and span id of the active span, when tracing is on and a span is active. */
export function traceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : undefined;
}

export function createLogger(level: LogLevel): Logger {
  const threshold = LEVELS[level] ?? LEVELS.info;
  const write = (name: Exclude<LogLevel, "silent">) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[name] < threshold) return;
    process.stderr.write(jsonLine(name, message, { ...traceIds(), ...fields }));
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
