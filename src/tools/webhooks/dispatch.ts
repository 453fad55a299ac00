// The shop's outbox as every process builds it: the Standard Webhooks signer over the endpoints' secrets, the configured
// retry schedule, and endpoint bookkeeping (failure streak, automatic disabling) when a delivery settles. The agent
// doors register their own signers on it (src/compose.ts) before it starts delivering.
import type { Config } from "../../core/config.ts";
import type { Database } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import { Outbox, type OutboxOptions } from "../../core/outbox/outbox.ts";
import { Signers } from "../../core/outbox/signers.ts";
import { standardWebhooksSigner } from "../../core/outbox/standard-webhooks.ts";
import { endpointSecret, settleEndpoint } from "./endpoints.ts";

type OutboxExtras = Pick<OutboxOptions, "onAttempt" | "resolve" | "route">;

/**
 * The outbox with integrators' signer; `onAttempt` is told of every delivery attempt (metrics); `resolve` and `route` are
 * for tests that deliver to a local receiver without WEBHOOKS_ALLOW_LOCAL.
 */
export function createOutbox(config: Config, database: Database, log: Logger, extras: OutboxExtras = {}): Outbox {
  const signers = new Signers();
  signers.register(standardWebhooksSigner((keyRef) => endpointSecret(database.prisma, keyRef)));
  return new Outbox({
    database,
    log,
    signers,
    retryDelaysMs: config.webhookRetryDelaysMs,
    timeoutMs: config.webhookTimeoutMs,
    pollMs: config.outboxPollMs,
    allowLocal: config.webhooksAllowLocal,
    concurrency: config.webhookConcurrency,
    onSettled: settleEndpoint(database.prisma, config.webhookDisableAfter, log),
    ...extras,
  });
}
