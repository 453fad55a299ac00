// The composition root's wiring beside the express app: who hears an order change, in which order, and the signers
// their events go out with. createApp wires the server's runtime with it; the CLI's operator executor subscribes the
// same doors to its own hub.
import { AcpFeed } from "./api/acp/feed.ts";
import { merchantSignatureSigner } from "./api/acp/merchant-signature.ts";
import { ACP_RULES, type AcpDeps } from "./api/acp/operations.ts";
import { UCP_RULES, type UcpDeps } from "./api/ucp/operations.ts";
import { IdempotencyStore } from "./core/idempotency.ts";
import { StoredImages } from "./tools/images/stored.ts";
import type { WebDeps } from "./web/deps.ts";
import { paymentPageUrl } from "./tools/money/payments/provider.ts";
import { handoffUrl } from "./tools/checkout/handoff.ts";
import { acpOrderEvents } from "./api/acp/acp-order-events.ts";
import { ucpOrderEvents } from "./api/ucp/ucp-order-events.ts";
import { ucpWebhookSigners } from "./api/ucp/webhook-signers.ts";
import type { Runtime } from "./runtime.ts";
import { keyWebhookSecret } from "./tools/keys/order-webhook.ts";
import type { OrderEvents } from "./tools/orders/events.ts";
import { integratorWebhooks } from "./tools/orders/webhook-events.ts";
import { AuthorizationServer } from "./api/oauth/authorization-server.ts";
import { OAuthStore } from "./tools/keys/oauth-store.ts";

/** Integrators' webhooks first, then the agent protocols' doors: each writes its own events to the outbox. */
export function subscribeOrderEvents(events: OrderEvents): OrderEvents {
  events.subscribe(integratorWebhooks);
  events.subscribe(ucpOrderEvents);
  events.subscribe(acpOrderEvents);
  return events;
}

/**
 * Subscribes the doors to the runtime's order events, registers their signers beside the integrators' one, and then
 * starts delivery: an event a crashed process left goes out at once, and its signer must be there.
 */
export function composeDoors(runtime: Runtime): void {
  const { outbox, collaborators, signingKeys, config, log } = runtime;
  subscribeOrderEvents(collaborators.orderEvents);
  for (const signer of ucpWebhookSigners(signingKeys, config.publicBaseUrl)) outbox.signers.register(signer);
  outbox.signers.register(merchantSignatureSigner((keyId) => keyWebhookSecret(collaborators, keyId)));
  // The runtime listened already (failing to fails the start-up): what start() still awaits has settled.
  outbox.start().catch((error: unknown) => log.error("the outbox did not start", { error: String(error) }));
}

/** The UCP door's deps: the executor, its clock, log and config, the agent budget, the shop's keys, its idempotency store. */
export function ucpDeps(runtime: Runtime): UcpDeps {
  const { executor, config, log, now, limiter, signingKeys, database, collaborators } = runtime;
  return { executor, config, log, now, limiter, signingKeys, idempotency: new IdempotencyStore(database.prisma, now, UCP_RULES), sign: collaborators.sign };
}

/** The ACP door's deps: the executor, its clock, log and config, its idempotency store, payment links and product feed. */
export function acpDeps(runtime: Runtime): AcpDeps {
  const { executor, config, log, now, database, collaborators, secret } = runtime;
  return {
    executor,
    config,
    log,
    now,
    idempotency: new IdempotencyStore(database.prisma, now, ACP_RULES),
    paymentLink: (orderId) => paymentPageUrl(config.publicBaseUrl, secret, orderId),
    handoffLink: (sessionId, expiresAt) => handoffUrl(config.publicBaseUrl, collaborators.sign, sessionId, new Date(expiresAt)),
    feed: new AcpFeed(collaborators.catalog, database.prisma, config.publicBaseUrl, now),
  };
}

/** The shop's OAuth authorization server: its records in the database, signing with the shop's rotating keys. */
export function authorizationServer(runtime: Runtime): AuthorizationServer {
  const { config, log, database, signingKeys, secret, now } = runtime;
  return new AuthorizationServer({ config, log, store: new OAuthStore(database.prisma, now), signingKeys, secret });
}

/**
 * The web door's deps: the executor and HTTP plumbing its pages use, the catalogue and payment provider, the stored
 * images, and the authorization server's side of the OAuth consent pages.
 */
export function webDeps(runtime: Runtime, oauth: AuthorizationServer): WebDeps {
  const { config, log, executor, auth, limiter, sessions, staff, secret, registry, now, collaborators, database } = runtime;
  const { catalog, payments } = collaborators;
  return { config, log, executor, auth, limiter, sessions, staff, secret, registry, now, catalog, payments, images: new StoredImages(database.prisma), oauth };
}
