// Environment configuration, read once; the names are pinned in DESIGN.md.
import os from "node:os";
import path from "node:path";
import { trustProxy } from "./client-address.ts";

export interface Config {
  /**
   * Which profile the server runs under (SHOP_ENV, else NODE_ENV=production): production refuses unsafe settings at
   * start (src/core/production.ts) and seeds no demo shop unless SEED=demo says so.
   */
  profile: "production" | "development";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  publicBaseUrl: string;
  seed: "demo" | "none";
  rateLimitAnonPerMin: number;
  rateLimitKeyPerMin: number;
  /** Which proxies may name the client's address in X-Forwarded-For (TRUST_PROXY: hop count, addresses/CIDRs, "none"). */
  trustProxy: string;
  /** Failed API-key authentications per client address per minute before 429 (RATE_LIMIT_AUTH_FAILURES_PER_MIN). */
  rateLimitAuthFailuresPerMin: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  sessionSecret: string;
  /** Check every tool result against its output schema (on in tests, off in production for speed). */
  validateOutput: boolean;
  stockPhotoAccessKey: string | undefined;
  stockPhotoApiUrl: string;
  /** How long a stock-photo search may take before it gives up (UNSPLASH_TIMEOUT_MS, default 8000). */
  stockPhotoTimeoutMs: number;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiUrl: string | undefined;
  /** STRIPE_PUBLISHABLE_KEY (pk_…): agents tokenise cards with it for the UCP Stripe handler (offered with the secret key). */
  stripePublishableKey: string | undefined;
  /** What Stripe Checkout offers (payment_method_types), in the order shown; the storefront says exactly these. */
  stripePaymentMethods: readonly StripeMethod[];
  smtpUrl: string | undefined;
  mailFrom: string;
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  openaiModel: string;
  /** Which OpenAI API the assistants speak: "responses" (OpenAI) or "chat" (/chat/completions, for OpenAI-compatible servers). */
  openaiApiStyle: "responses" | "chat";
  /** Assistant turns one chat owner (session, staff user, key) may start per minute. */
  chatTurnsPerMin: number;
  /** How long a socket.io turn keeps running after its last listener disconnected, so a reconnect can resume it. */
  chatResumeGraceMs: number;
  /** Worker threads that run assistant turns (CHAT_WORKERS; 0 runs them on the main thread). */
  chatWorkers: number;
  /** More browser origins (or hostnames) allowed to call /api/mcp besides loopback and PUBLIC_BASE_URL; "*" allows any. */
  mcpAllowedOrigins: string[];
  /** MCP_OAUTH_REQUIRED=1: /api/mcp refuses a request with neither API key nor access token (401), so OAuth clients sign in. */
  mcpOAuthRequired: boolean;
  /** OAUTH_LOOPBACK_CLIENT_IDS=1 (tests, local development): Client ID Metadata Documents at http://127.0.0.1 are accepted. */
  oauthLoopbackClientIds: boolean;
  /** UCP_TEST_MODE=1: the test payment handler (mock_payment_handler) is offered and accepted. */
  ucpTestMode: boolean;
  /** UCP_SIMULATION_SECRET: with test mode, enables POST /ucp/testing/simulate-shipping/{orderId} for callers sending it. */
  ucpSimulationSecret: string | null;
  /** UCP_ALLOW_LOCAL_PROFILES=1: agent profiles may live on loopback or private addresses (tests, local development). */
  ucpAllowLocalProfiles: boolean;
  /** Let webhook receivers sit on loopback and private addresses (WEBHOOKS_ALLOW_LOCAL=1: tests, local development). */
  webhooksAllowLocal: boolean;
  /**
   * Waits between a webhook's failed attempts, in ms (WEBHOOK_RETRY_SCHEDULE, seconds, comma-separated); an event gets
   * one attempt more than there are waits. Default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over ~28 h.
   */
  webhookRetryDelaysMs: number[];
  /** How long a webhook receiver may take to answer (WEBHOOK_TIMEOUT_MS, default 10000). */
  webhookTimeoutMs: number;
  /** How often each process looks for due webhook deliveries besides being woken (OUTBOX_POLL_MS, default 5000). */
  outboxPollMs: number;
  /** Webhook deliveries each process has in flight at once, each to another receiver (WEBHOOK_CONCURRENCY, default 32). */
  webhookConcurrency: number;
  /** Consecutive events that used up every retry before an endpoint is disabled (WEBHOOK_DISABLE_AFTER, default 5). */
  webhookDisableAfter: number;
  /** Days after which the UCP signing key is replaced by a new one (SIGNING_KEY_ROTATION_DAYS, default 90; 0 never). */
  signingKeyRotationDays: number;
  /** METRICS_PUBLIC=1: GET /metrics answers without a key (otherwise a key with metrics:read or `*`). */
  metricsPublic: boolean;
  /** On SIGTERM, how long in-flight requests and chat turns may take to finish before the rest is cut off (SHUTDOWN_TIMEOUT_MS, default 10000). */
  shutdownTimeoutMs: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go (OTLP over HTTP); unset, the OpenTelemetry SDK is not even loaded. */
  otelExporterEndpoint: string | undefined;
  /** OTEL_SERVICE_NAME: service.name of this server's spans (default "shop-server"). */
  otelServiceName: string;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** The Stripe Checkout payment methods a Danish shop may offer in DKK. */
const STRIPE_METHODS = ["card", "mobilepay", "klarna"] as const;
type StripeMethod = (typeof STRIPE_METHODS)[number];

/** A Stripe publishable key (pk_test_… or pk_live_…); a secret key here would be published, so it is refused. */
function publishableKey(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^pk_(test|live)_[A-Za-z0-9]+$/.test(raw)) throw new Error("STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_test_… or pk_live_…)");
  return raw;
}

function stripeMethods(raw: string | undefined): StripeMethod[] {
  const names = (raw ?? "card,mobilepay").split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(STRIPE_METHODS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length) throw new Error(`STRIPE_PAYMENT_METHODS must list some of ${STRIPE_METHODS.join(", ")}, got "${raw}"`);
  return [...new Set(names)] as StripeMethod[];
}

function apiStyle(raw: string | undefined): Config["openaiApiStyle"] {
  if (raw === undefined || raw === "" || raw === "responses") return "responses";
  if (raw === "chat") return "chat";
  throw new Error(`OPENAI_API_STYLE must be "responses" or "chat", got "${raw}"`);
}

/** nodemailer's SMTP URL (smtp://user:pass@host:587, smtps://…); checked here because nodemailer loads only at the first e-mail. */
function smtpUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^smtps?:\/\/[^/]/.test(raw)) throw new Error(`SMTP_URL must be an smtp:// or smtps:// URL, got "${raw.replace(/\/\/[^@/]*@/, "//…@")}"`);
  return raw;
}

/** WEBHOOK_RETRY_SCHEDULE: seconds between attempts ("5,300,1800"), as milliseconds. */
function retrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === "") return [5, 300, 1800, 7200, 18000, 36000, 36000].map((s) => s * 1000);
  return raw.split(",").map((part) => {
    const seconds = Number(part.trim());
    if (part.trim() === "" || !Number.isFinite(seconds) || seconds < 0) throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, got "${raw}"`);
    return Math.round(seconds * 1000);
  });
}

/** TRUST_PROXY, checked at start-up so a typo stops the server instead of trusting every peer or none. */
function trustProxySetting(raw: string | undefined): string {
  const setting = raw?.trim() || "loopback";
  trustProxy(setting);
  return setting;
}

/** SHOP_ENV (production or development) wins; else NODE_ENV=production means production, anything else development. */
function profileOf(env: Env): Config["profile"] {
  const explicit = env.SHOP_ENV?.trim();
  if (explicit === "production" || explicit === "development") return explicit;
  if (explicit) throw new Error(`SHOP_ENV must be "production" or "development", got "${explicit}"`);
  return env.NODE_ENV === "production" ? "production" : "development";
}

/** SEED: demo or none; unset, development seeds the demo shop into an empty database and production does not. */
function seedOf(raw: string | undefined, profile: Config["profile"]): Config["seed"] {
  const value = raw?.trim();
  if (!value) return profile === "production" ? "none" : "demo";
  if (value === "demo" || value === "none") return value;
  throw new Error(`SEED must be "demo" or "none", got "${raw}"`);
}

export function loadConfig(env: Env = process.env): Config {
  const profile = profileOf(env);
  const port = int(env, "PORT", 3000);
  const host = env.HOST || "0.0.0.0";
  const seed = seedOf(env.SEED, profile);
  const logLevel = (env.LOG_LEVEL ?? (env.VITEST ? "silent" : "info")) as Config["logLevel"];
  return {
    profile,
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ""),
    seed,
    rateLimitAnonPerMin: int(env, "RATE_LIMIT_ANON_PER_MIN", 120),
    rateLimitKeyPerMin: int(env, "RATE_LIMIT_KEY_PER_MIN", 1200),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    rateLimitAuthFailuresPerMin: int(env, "RATE_LIMIT_AUTH_FAILURES_PER_MIN", 20),
    logLevel,
    sessionSecret: env.SESSION_SECRET || "",
    validateOutput: env.VALIDATE_OUTPUT ? env.VALIDATE_OUTPUT === "1" : Boolean(env.VITEST),
    stockPhotoAccessKey: env.UNSPLASH_ACCESS_KEY || undefined,
    stockPhotoApiUrl: env.UNSPLASH_API_URL || "https://api.unsplash.com",
    stockPhotoTimeoutMs: int(env, "UNSPLASH_TIMEOUT_MS", 8000),
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripeApiUrl: env.STRIPE_API_URL || undefined,
    stripePublishableKey: publishableKey(env.STRIPE_PUBLISHABLE_KEY),
    stripePaymentMethods: stripeMethods(env.STRIPE_PAYMENT_METHODS),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || "Nordlys Optik <ordre@nordlys-optik.dk>",
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
    openaiModel: env.OPENAI_MODEL || "gpt-4.1-mini",
    openaiApiStyle: apiStyle(env.OPENAI_API_STYLE),
    chatTurnsPerMin: int(env, "CHAT_TURNS_PER_MIN", 20),
    chatResumeGraceMs: int(env, "CHAT_RESUME_GRACE_MS", 15_000),
    // One thread beside the main one on a two-core machine; more only help with more cores and many chats at once.
    chatWorkers: int(env, "CHAT_WORKERS", Math.min(4, Math.max(1, os.availableParallelism() - 1))),
    mcpAllowedOrigins: (env.MCP_ALLOWED_ORIGINS ?? "").split(",").map((origin) => origin.trim()).filter(Boolean),
    mcpOAuthRequired: env.MCP_OAUTH_REQUIRED === "1",
    oauthLoopbackClientIds: env.OAUTH_LOOPBACK_CLIENT_IDS === "1",
    ucpTestMode: env.UCP_TEST_MODE === "1",
    ucpSimulationSecret: env.UCP_SIMULATION_SECRET || null,
    ucpAllowLocalProfiles: env.UCP_ALLOW_LOCAL_PROFILES === "1",
    webhooksAllowLocal: env.WEBHOOKS_ALLOW_LOCAL === "1",
    webhookRetryDelaysMs: retrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
    webhookTimeoutMs: int(env, "WEBHOOK_TIMEOUT_MS", 10_000),
    outboxPollMs: Math.max(100, int(env, "OUTBOX_POLL_MS", 5_000)),
    webhookConcurrency: Math.max(1, int(env, "WEBHOOK_CONCURRENCY", 32)),
    webhookDisableAfter: Math.max(1, int(env, "WEBHOOK_DISABLE_AFTER", 5)),
    signingKeyRotationDays: int(env, "SIGNING_KEY_ROTATION_DAYS", 90),
    metricsPublic: env.METRICS_PUBLIC === "1",
    shutdownTimeoutMs: int(env, "SHUTDOWN_TIMEOUT_MS", 10_000),
    otelExporterEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    otelServiceName: env.OTEL_SERVICE_NAME || "shop-server",
  };
}
