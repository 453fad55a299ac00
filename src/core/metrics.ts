// The process's Prometheus metrics, one registry per runtime (tests run several servers in one process), and the
// observer methods the doors, the executor, the assistants and the outbox report to.
import client from "prom-client";

/** Which door an HTTP request came in by (derived from its path, see src/http/observe.ts). */
export type DoorLabel = "rest" | "mcp" | "ucp" | "acp" | "chat" | "web" | "admin" | "session" | "webhooks" | "health" | "metrics" | "other";

/** Connections of the database pool, when there is one (PostgreSQL). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Latency buckets in seconds: a cached tool answer takes well under a millisecond, a checkout or a page tens of them. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A chat turn waits for a model: seconds to minutes. */
const TURN_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120];
/** A webhook delivery is one POST to someone else's server, bounded by WEBHOOK_TIMEOUT_MS. */
const DELIVERY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One label combination's counter and histogram children, made once and reused by every request that has it. */
interface HttpChildren {
  count: client.Counter.Internal;
  latency: client.Histogram.Internal<"door" | "route" | "method">;
}

export class Metrics {
  readonly registry = new client.Registry();

  private readonly httpRequests: client.Counter<"door" | "route" | "method" | "status">;
  private readonly httpDuration: client.Histogram<"door" | "route" | "method">;
  private readonly httpChildren = new Map<string, HttpChildren>();
  private readonly toolCalls: client.Counter<"tool" | "outcome">;
  private readonly toolDuration: client.Histogram<"tool">;
  private readonly chatTurns: client.Counter<"assistant" | "outcome">;
  private readonly chatTokens: client.Counter<"assistant" | "direction">;
  private readonly chatDuration: client.Histogram<"assistant">;
  private readonly webhookDeliveries: client.Counter<"outcome">;
  private readonly webhookDuration: client.Histogram;
  private readonly rateLimitRefusals: client.Counter<"door" | "kind">;

  /** `pool` reads the database pool's connections at each scrape (none for the embedded database). */
  constructor(pool?: () => PoolStats) {
    const registers = [this.registry];
    this.httpRequests = new client.Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by door, route template, method and status.",
      labelNames: ["door", "route", "method", "status"],
      registers,
    });
    this.httpDuration = new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to its response's last byte, by door, route template and method.",
      labelNames: ["door", "route", "method"],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.toolCalls = new client.Counter({
      name: "shop_tool_calls_total",
      help: "Tool calls through the executor (every door; catalogue answers served from the result cache are not calls), by tool and outcome (ok or the error class).",
      labelNames: ["tool", "outcome"],
      registers,
    });
    this.toolDuration = new client.Histogram({
      name: "shop_tool_call_duration_seconds",
      help: "Duration of tool calls through the executor, by tool.",
      labelNames: ["tool"],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.chatTurns = new client.Counter({
      name: "shop_chat_turns_total",
      help: "Assistant turns finished, by assistant (storefront, admin) and outcome (ok, error, aborted).",
      labelNames: ["assistant", "outcome"],
      registers,
    });
    this.chatTokens = new client.Counter({
      name: "shop_chat_tokens_total",
      help: "Model tokens of assistant turns, by assistant and direction (input, output).",
      labelNames: ["assistant", "direction"],
      registers,
    });
    this.chatDuration = new client.Histogram({
      name: "shop_chat_turn_duration_seconds",
      help: "Duration of assistant turns, by assistant.",
      labelNames: ["assistant"],
      buckets: TURN_BUCKETS,
      registers,
    });
    this.webhookDeliveries = new client.Counter({
      name: "shop_webhook_deliveries_total",
      help: "Webhook delivery attempts from the outbox, by outcome (delivered, retry: failed and scheduled again, dead: failed for the last time).",
      labelNames: ["outcome"],
      registers,
    });
    this.webhookDuration = new client.Histogram({
      name: "shop_webhook_delivery_duration_seconds",
      help: "Duration of webhook delivery attempts.",
      buckets: DELIVERY_BUCKETS,
      registers,
    });
    this.rateLimitRefusals = new client.Counter({
      name: "shop_rate_limit_refusals_total",
      help: "Requests refused with 429, by door and budget (anonymous, key: request budgets; auth: failed key guesses; other).",
      labelNames: ["door", "kind"],
      registers,
    });
    if (pool) {
      new client.Gauge({
        name: "shop_db_pool_connections",
        help: "PostgreSQL pool: open connections (total), idle ones, and queries waiting for a connection (waiting).",
        labelNames: ["state"],
        registers,
        collect() {
          const stats = pool();
          this.set({ state: "total" }, stats.total);
          this.set({ state: "idle" }, stats.idle);
          this.set({ state: "waiting" }, stats.waiting);
        },
      });
    }
    client.collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** One answered HTTP request. Children are cached per label combination: the hot path does one Map lookup. */
  httpRequest(door: DoorLabel, route: string, method: string, status: number, seconds: number): void {
    const key = `${door} ${route} ${method} ${status}`;
    let children = this.httpChildren.get(key);
    if (!children) {
      children = { count: this.httpRequests.labels(door, route, method, String(status)), latency: this.httpDuration.labels(door, route, method) };
      this.httpChildren.set(key, children);
    }
    children.count.inc();
    children.latency.observe(seconds);
  }

  /** One 429 answer and the budget that refused it. */
  rateLimited(door: DoorLabel, kind: string): void {
    this.rateLimitRefusals.labels(door, kind).inc();
  }

  /** One tool call through the executor: `tool` is a registered name or "unknown"; `error` what it failed with. */
  readonly toolCall = (tool: string, seconds: number, error?: { status: number }): void => {
    this.toolCalls.labels(tool, error ? outcomeOf(error.status) : "ok").inc();
    this.toolDuration.labels(tool).observe(seconds);
  };

  /** One finished assistant turn and the tokens it used. */
  readonly chatTurn = (assistant: string, outcome: string, usage: { inputTokens: number; outputTokens: number }, seconds: number): void => {
    this.chatTurns.labels(assistant, outcome).inc();
    if (usage.inputTokens > 0) this.chatTokens.labels(assistant, "input").inc(usage.inputTokens);
    if (usage.outputTokens > 0) this.chatTokens.labels(assistant, "output").inc(usage.outputTokens);
    this.chatDuration.labels(assistant).observe(seconds);
  };

  /** One webhook delivery attempt. */
  readonly webhookAttempt = (outcome: "delivered" | "retry" | "dead", seconds: number): void => {
    this.webhookDeliveries.labels(outcome).inc();
    this.webhookDuration.observe(seconds);
  };
}

/** The error class of a failed call, from its HTTP status: a bounded label value. */
function outcomeOf(status: number): string {
  return OUTCOMES[status] ?? (status >= 500 ? "error" : "client_error");
}

const OUTCOMES: Record<number, string> = {
  400: "invalid",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "too_large",
  422: "refused",
  429: "rate_limited",
  503: "unavailable",
};
