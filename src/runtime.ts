// Builds one server process: database (migrated, seeded when empty), read models, registry, executor, auth and limits.
import type { LanguageModel } from "ai";
import crypto from "node:crypto";
import { Background } from "./core/background.ts";
import { loadConfig, type Config } from "./core/config.ts";
import { openDatabase, transactionOf, type Database } from "./core/db.ts";
import { createLogger, type Logger } from "./core/log.ts";
import { Metrics } from "./core/metrics.ts";
import { createMailer } from "./core/mail.ts";
import { startTelemetry, telemetryActive, type Telemetry } from "./core/telemetry.ts";
import { prepareDatabase } from "./setup.ts";
import { Authenticator } from "./http/auth.ts";
import { SessionManager } from "./http/session.ts";
import { sessionSecret, StorefrontSessions } from "./tools/user/session-store.ts";
import { StaffAuth } from "./http/staff-auth.ts";
import { StaffStore } from "./tools/staff/store.ts";
import { createPaymentProvider } from "./tools/money/payments/index.ts";
import { MemoryStore, RateLimiter, RedisStore, type RateLimitStore } from "./http/rate-limit.ts";
import { Executor } from "./tools/executor.ts";
import { ALL_TOOLS, createRegistry, type Registry } from "./tools/registry.ts";
import seedDemoTool from "./seed-demo-tool.ts";
import type { Collaborators } from "./tools/collaborators.ts";
import { CatalogReadModel } from "./tools/products/read-model.ts";
import { FeatureFlags } from "./tools/settings/flags.ts";
import { KeyVerifier } from "./tools/keys/verifier.ts";
import { dispatchDueCampaigns } from "./tools/marketing/campaigns.ts";
import { pruneVisitorData } from "./tools/user/retention.ts";
import { OrderEvents } from "./tools/orders/events.ts";
import { ChatService } from "./assistants/chat-service.ts";
import { ChatStore } from "./tools/chats/store.ts";
import { createOutbox } from "./tools/webhooks/dispatch.ts";
import type { Outbox } from "./core/outbox/outbox.ts";
import { DAY_MS, SigningKeys } from "./tools/keys/signing-keys.ts";

/** How often a process runs the retention pass (src/tools/user/retention.ts). */
const RETENTION_PASS_MS = 3600_000;

export interface Runtime {
  config: Config;
  log: Logger;
  database: Database;
  registry: Registry;
  collaborators: Collaborators;
  executor: Executor;
  auth: Authenticator;
  limiter: RateLimiter;
  /** Storefront cookie sessions (resolver of auth.sessions, session routes). */
  sessions: SessionManager;
  /** Staff sign-in and the `shop_admin` cookie (resolver of auth.staff). */
  staff: StaffAuth;
  /** Signs session cookies and payment links (SESSION_SECRET or the generated Setting row "session_secret"). */
  secret: string;
  /** The storefront and admin assistants (their transports: src/assistants/http.ts and attachChat). */
  chat: ChatService;
  /** Prefix of this deployment's Redis keys and channels (tests isolate theirs). */
  redisPrefix: string;
  /** Work the answers did not wait for (login e-mails, last-seen touches); tests await `idle()`. */
  background: Background;
  /** Delivers outbound webhooks from the durable outbox once the doors registered their signers (tests await `idle()`). */
  outbox: Outbox;
  /** The shop's signing keys: its webhook signers sign with them, the UCP profiles publish them. */
  signingKeys: SigningKeys;
  /** This process's Prometheus metrics (GET /metrics), fed by the doors, the executor, the assistants and the outbox. */
  metrics: Metrics;
  /** The clock (tests inject one to expire sessions). */
  now: () => Date;
  /** Set when the process begins its shutdown (src/main.ts): /readyz answers 503 so load balancers send nothing more. */
  draining: boolean;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  config?: Config;
  /** Use this database instead of opening one from the config (tests). */
  database?: Database;
  now?: () => Date;
  /** Namespace for rate-limit counters in Redis (tests isolate their budgets). */
  rateLimitPrefix?: string;
  /** Prefix of other Redis keys and channels, e.g. the socket.io adapter's (default "shop:"). */
  redisPrefix?: string;
  /** The assistants' model instead of the configured provider (tests script one); their turns then run on this thread. */
  model?: LanguageModel;
}

export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const config = options.config ?? loadConfig();
  const log = createLogger(config.logLevel);
  // Before anything else, so the start-up's own queries are traced too; a second runtime in one process (tests) shares
  // the first one's provider, which its starter shuts down.
  const telemetry: Telemetry | undefined =
    config.otelExporterEndpoint && !telemetryActive() ? await startTelemetry({ serviceName: config.otelServiceName }) : undefined;
  const database = options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, holder: "server" }));
  const metrics = new Metrics(database.poolStats?.bind(database));
  const { seeded } = await prepareDatabase(database, config.seed, log);
  if (seeded) log.info("demo shop seeded");
  const catalog = new CatalogReadModel(database, log);
  await catalog.start();
  const flags = new FeatureFlags(database, log);
  await flags.start();
  const mailer = createMailer(config);
  const secret = await sessionSecret(database.prisma, config.sessionSecret);
  const payments = await createPaymentProvider(config, secret);
  const keys = new KeyVerifier(database.prisma);
  const now = options.now ?? (() => new Date());
  const background = new Background(log);
  const sign = (text: string) => crypto.createHmac("sha256", secret).update(text).digest("base64url");
  const signingKeys = new SigningKeys(database.prisma, { rotateAfterMs: config.signingKeyRotationDays * DAY_MS, now, log });
  const outbox = createOutbox(config, database, log, { onAttempt: metrics.webhookAttempt });
  // Nobody hears order changes until the composition root subscribes (src/compose.ts).
  const collaborators: Collaborators = { catalog, mailer, db: database.prisma, transaction: transactionOf(database), payments, flags, keys, background, sign, outbox, orderEvents: new OrderEvents() };
  // Every tool, and the operator's demo seed (beside src/setup.ts: no tool imports the demo seed) for `shop seed demo`.
  const registry = createRegistry([...ALL_TOOLS, seedDemoTool]);
  const executor = new Executor({ config, database, registry, collaborators, log, now, observe: metrics.toolCall });
  let store: RateLimitStore = new MemoryStore();
  if (config.redisUrl) {
    const redis = await RedisStore.connect(config.redisUrl, log, options.rateLimitPrefix);
    await redis.ready(5_000).catch((error: Error) => log.warn("Redis not reachable yet; rate limits fail open until it is", { error: error.message }));
    store = redis;
  }
  const limiter = new RateLimiter(store, config.rateLimitAnonPerMin, config.rateLimitKeyPerMin, config.rateLimitAuthFailuresPerMin);
  const auth = new Authenticator(keys, limiter);
  const sessions = new SessionManager(new StorefrontSessions(database), secret, config.publicBaseUrl.startsWith("https:"), background);
  auth.sessions = (req) => sessions.resolve(req);
  const staff = new StaffAuth(new StaffStore(database.prisma), executor, config.publicBaseUrl.startsWith("https:"), now);
  auth.staff = staff.resolver;
  const chat = new ChatService({ config, log, executor, store: new ChatStore(database.prisma, database), flags, limiter, secret, now, auth, sessions, observeTurn: metrics.chatTurn, model: options.model });
  // Scheduled newsletter campaigns become "sent" once their sendAt has passed (claimed atomically, so any process may run it).
  const campaignTimer = setInterval(() => {
    dispatchDueCampaigns(database.prisma, now()).catch((error: unknown) => log.warn("campaign dispatch failed", { error: String(error) }));
  }, 60_000);
  campaignTimer.unref();
  // Visitors' sessions, carts, chats and sign-in codes past their retention window are deleted hourly (any process may).
  const retentionTimer = setInterval(() => {
    pruneVisitorData(database)
      .then((gone) => {
        if (Object.values(gone).some((n) => n > 0)) log.info("retention pass deleted expired visitor data", { ...gone });
      })
      .catch((error: unknown) => log.warn("retention pass failed", { error: String(error) }));
  }, RETENTION_PASS_MS);
  retentionTimer.unref();
  // Delivery starts in the composition root (src/compose.ts), once every door's signer is registered: events a crashed
  // process left go out at once and must find theirs.
  await outbox.listen();
  return {
    config,
    log,
    database,
    registry,
    collaborators,
    executor,
    auth,
    limiter,
    sessions,
    staff,
    secret,
    chat,
    redisPrefix: options.redisPrefix ?? "shop:",
    background,
    outbox,
    signingKeys,
    metrics,
    now,
    draining: false,
    async close() {
      clearInterval(campaignTimer);
      clearInterval(retentionTimer);
      await outbox.stop();
      await chat.close();
      await background.idle();
      await catalog.stop();
      await flags.stop();
      mailer.close();
      await store.close();
      await database.close();
      await telemetry?.shutdown();
    },
  };
}
