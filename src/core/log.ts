// A minimal structured logger: one JSON line per event on stderr, filtered by LOG_LEVEL; a line written inside a traced
// span carries its traceId and spanId, so the log and the trace find each other.
import { isSpanContextValid, trace } from "@opentelemetry/api";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: LogLevel): Logger {
  const threshold = LEVELS[level] ?? LEVELS.info;
  const write = (name: Exclude<LogLevel, "silent">) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[name] < threshold) return;
    const span = trace.getActiveSpan()?.spanContext();
    const ids = span && isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : undefined;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: name, message, ...ids, ...fields })}\n`);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
