// Spans of the SQL sent outside Prisma (Database.query and exec: the outbox's claims, maintenance, migrations), after
// the OpenTelemetry database conventions: `<operation>` (the statement's first keyword), the query text with its
// placeholders (never the values), as a child of the operation that sent it. Prisma's own queries get their spans from
// its instrumentation (telemetry.ts).
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Database } from "./db-types.ts";
import { telemetryActive } from "./telemetry.ts";

const tracer = trace.getTracer("shop-server");
/** Longer texts (a migration) are cut: the span is for finding the statement, not for replaying it. */
const MAX_TEXT = 2_000;

/** The database with its query and exec traced while telemetry is active (the same object, its two methods wrapped). */
export function traceQueries(database: Database): Database {
  const query = database.query.bind(database);
  const exec = database.exec.bind(database);
  database.query = <T>(sql: string, params?: unknown[]) => inQuerySpan(database.kind, sql, () => query<T>(sql, params));
  database.exec = (sql) => inQuerySpan(database.kind, sql, () => exec(sql));
  return database;
}

/** Only inside a traced operation: the outbox's polls (every OUTBOX_POLL_MS) would otherwise each start a trace. */
function inQuerySpan<T>(kind: Database["kind"], sql: string, run: () => Promise<T>): Promise<T> {
  if (!telemetryActive() || !trace.getActiveSpan()) return run();
  const operation = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? "SQL";
  const attributes = {
    "db.system.name": "postgresql",
    "db.operation.name": operation,
    "db.query.text": sql.length > MAX_TEXT ? `${sql.slice(0, MAX_TEXT)}…` : sql,
    "shop.database": kind,
  };
  return tracer.startActiveSpan(operation, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await run();
    } catch (error) {
      span.setAttribute("error.type", error instanceof Error ? error.name : "error");
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
