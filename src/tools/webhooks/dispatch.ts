// The shop's outbox as every process builds it: the Standard Webhooks signer over the endpoints' secrets, the configured
// retry schedule, and endpoint bookkeeping (failure streak, automatic disabling) when a delivery settles.
import type { Config } from "../../core/config.ts";
import type { Database } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import { Outbox, type OutboxOptions } from "../../core/outbox/outbox.ts";
import { Signers } from "../../core/outbox/signers.ts";
import { SigningKeys } from "../../core/outbox/signing-keys.ts";
import { merchantSignatureSigner } from "../../core/outbox/merchant-signature.ts";
import { standardWebhooksSigner } from "../../core/outbox/standard-webhooks.ts";
import { detachedJwsSigner, rfc9421Signer } from "../../core/outbox/ucp-signers.ts";
import { endpointSecret, settleEndpoint } from "./service.ts";

/**
 * Every signer an outbox event may name, registered before the outbox starts (events left by a crash go out at once):
 * Standard Webhooks for integrators, and UCP's two versions (RFC 9421; detached JWS) with the shop's signing key.
 */
function createSigners(database: Database, config: Pick<Config, "publicBaseUrl">, keys: SigningKeys): Signers {
  const signers = new Signers();
  signers.register(standardWebhooksSigner((keyRef) => endpointSecret(database.prisma, keyRef)));
  signers.register(rfc9421Signer(keys, `${config.publicBaseUrl}/.well-known/ucp`));
  signers.register(detachedJwsSigner(keys, `${config.publicBaseUrl}/ucp/.well-known/ucp`));
  signers.register(merchantSignatureSigner((keyRef) => acpKeySecret(database, keyRef)));
  return signers;
}

export interface OutboxExtras extends Pick<OutboxOptions, "onAttempt" | "resolve" | "route"> {
  /** The shop's signing keys the UCP door also publishes (one cache for both). */
  keys?: SigningKeys;
}

/**
 * The outbox with every signer; `onAttempt` is told of every delivery attempt (metrics); `resolve` and `route` are for
 * tests that deliver to a local receiver without WEBHOOKS_ALLOW_LOCAL.
 */
export function createOutbox(config: Config, database: Database, log: Logger, { keys = new SigningKeys(database.prisma), ...extras }: OutboxExtras = {}): Outbox {
  return new Outbox({
    database,
    log,
    signers: createSigners(database, config, keys),
    retryDelaysMs: config.webhookRetryDelaysMs,
    timeoutMs: config.webhookTimeoutMs,
    pollMs: config.outboxPollMs,
    allowLocal: config.webhooksAllowLocal,
    concurrency: config.webhookConcurrency,
    onSettled: settleEndpoint(database.prisma, config.webhookDisableAfter, log),
    ...extras,
  });
}

/** The ACP signing secret of the API key an "api-key:<id>" reference names (null when it has none or is revoked). */
async function acpKeySecret(database: Database, keyRef: string): Promise<string | null> {
  if (!keyRef.startsWith("api-key:")) return null;
  const row = await database.prisma.apiKey.findUnique({ where: { id: keyRef.slice("api-key:".length) }, select: { acpSigningSecret: true, revokedAt: true } });
  return row && !row.revokedAt ? row.acpSigningSecret : null;
}
