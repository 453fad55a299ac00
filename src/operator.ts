// The `shop` process's composition root (src/cli.ts loads it when a command needs it): the executor commands run through
// when no server holds the database (the key, staff and webhook tools over this process's database, called as the
// local operator; inside a server the commands use the server's own executor, so its caches follow at once) and the ACP
// feed `shop feed acp` writes. The commands themselves (src/cli) never hold the database.
import crypto from "node:crypto";
import { sessionSecret } from "./tools/user/session-store.ts";
import { Background } from "./core/background.ts";
import type { Config } from "./core/config.ts";
import { transactionOf, type Database } from "./core/db.ts";
import { createLogger } from "./core/log.ts";
import { createMailer } from "./core/mail.ts";
import { Executor } from "./tools/executor.ts";
import keys from "./tools/keys/index.ts";
import { KeyVerifier } from "./tools/keys/verifier.ts";
import { createPaymentProvider } from "./tools/money/payments/index.ts";
import importProducts from "./tools/products/import.ts";
import importUcpSamples from "./tools/import/ucp_samples.ts";
import seedDemo from "./seed-demo-tool.ts";
import { CatalogReadModel } from "./tools/products/read-model.ts";
import { Registry } from "./tools/tool-registry.ts";
import type { Collaborators } from "./tools/collaborators.ts";
import { FeatureFlags } from "./tools/settings/flags.ts";
import staff from "./tools/staff/index.ts";
import { createOutbox } from "./tools/webhooks/dispatch.ts";
import { OrderEvents } from "./tools/orders/events.ts";
import { subscribeOrderEvents } from "./compose.ts";
import { AcpFeed, type FeedFiles } from "./api/acp/feed.ts";
import webhooks from "./tools/webhooks/index.ts";

/**
 * Only the key, staff and webhook tools, products.import and the whole-shop writes (setup.seed_demo,
 * import.ucp_samples) are registered, so the catalogue read model and the feature
 * flags are never read and stay unstarted (no initial load, no LISTEN connection: products.import's changes reach the
 * servers by NOTIFY); mail and payments are the configured ones.
 */
export async function operatorExecutor(config: Config, database: Database): Promise<Executor> {
  const log = createLogger(config.logLevel);
  const secret = await sessionSecret(database.prisma, config.sessionSecret);
  const collaborators: Collaborators = {
    catalog: new CatalogReadModel(database, log),
    flags: new FeatureFlags(database, log),
    mailer: createMailer(config),
    db: database.prisma,
    transaction: transactionOf(database),
    payments: await createPaymentProvider(config, secret),
    keys: new KeyVerifier(database.prisma),
    background: new Background(log),
    sign: (text) => crypto.createHmac("sha256", secret).update(text).digest("base64url"),
    // Never started here: what a command queues, the server processes deliver (NOTIFY, polling).
    outbox: createOutbox(config, database, log),
    // No tool registered here changes an order; were one added, its events would be written as the server writes them.
    orderEvents: subscribeOrderEvents(new OrderEvents()),
  };
  return new Executor({ config, database, registry: new Registry([...keys, ...staff, ...webhooks, importProducts, importUcpSamples, seedDemo]), collaborators, log, now: () => new Date() });
}

/**
 * The ACP feed's files (`shop feed acp`), the same bytes GET /acp/feed/… serves, from a catalogue read model loaded once
 * (never started: no LISTEN), in this process or inside the server that holds the database.
 */
export async function operatorAcpFeed(config: Config, database: Database): Promise<FeedFiles> {
  const catalog = new CatalogReadModel(database, createLogger(config.logLevel));
  await catalog.reload();
  return new AcpFeed(catalog, database.prisma, config.publicBaseUrl, () => new Date()).files();
}
