// The shop's outbox as every process builds it: the Standard Webhooks signer over the endpoints' secrets, the configured
// retry schedule, and endpoint bookkeeping (failure streak, automatic disabling) when a delivery settles.
import type { Config } from "../../core/config.ts";
import type { Database } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import { Outbox } from "../../core/outbox/outbox.ts";
import { Signers } from "../../core/outbox/signers.ts";
import { merchantSignatureSigner } from "../../core/outbox/merchant-signature.ts";
import { standardWebhooksSigner } from "../../core/outbox/standard-webhooks.ts";
import { endpointSecret, settleEndpoint } from "./service.ts";

/** The signers other doors add theirs to (the UCP door: its RFC 9421 / JWS signers) before the outbox starts. */
export function createSigners(database: Database): Signers {
  const signers = new Signers();
  signers.register(standardWebhooksSigner((keyRef) => endpointSecret(database.prisma, keyRef)));
  signers.register(merchantSignatureSigner((keyRef) => acpKeySecret(database, keyRef)));
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

/** The ACP signing secret of the API key an "api-key:<id>" reference names (null when it has none or is revoked). */
async function acpKeySecret(database: Database, keyRef: string): Promise<string | null> {
  if (!keyRef.startsWith("api-key:")) return null;
  const row = await database.prisma.apiKey.findUnique({ where: { id: keyRef.slice("api-key:".length) }, select: { acpSigningSecret: true, revokedAt: true } });
  return row && !row.revokedAt ? row.acpSigningSecret : null;
}
