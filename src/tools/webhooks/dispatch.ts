// The shop's outbox as every process builds it: the Standard Webhooks signer over the endpoints' secrets, the configured
// retry schedule, and endpoint bookkeeping (failure streak, automatic disabling) when a delivery settles.
import type { Config } from "../../core/config.ts";
import type { Database } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import { Outbox } from "../../core/outbox/outbox.ts";
import { Signers } from "../../core/outbox/signers.ts";
import { standardWebhooksSigner } from "../../core/outbox/standard-webhooks.ts";
import { endpointSecret, settleEndpoint } from "./service.ts";

/** The signers other doors add theirs to (the UCP door: its RFC 9421 / JWS signers) before the outbox starts. */
export function createSigners(database: Database): Signers {
  const signers = new Signers();
  signers.register(standardWebhooksSigner((keyRef) => endpointSecret(database.prisma, keyRef)));
  return signers;
}

export function createOutbox(config: Config, database: Database, log: Logger, signers = createSigners(database)): Outbox {
  return new Outbox({
    database,
    log,
    signers,
    retryDelaysMs: config.webhookRetryDelaysMs,
    timeoutMs: config.webhookTimeoutMs,
    pollMs: config.outboxPollMs,
    allowLocal: config.webhooksAllowLocal,
    onSettled: settleEndpoint(database.prisma, config.webhookDisableAfter, log),
  });
}
