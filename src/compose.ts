// The composition root's wiring beside the express app: who hears an order change, in which order, and the signers
// their events go out with. createApp wires the server's runtime with it; the CLI's operator executor subscribes the
// same doors to its own hub.
import { merchantSignatureSigner } from "./api/acp/merchant-signature.ts";
import { acpOrderEvents } from "./api/acp/acp-order-events.ts";
import { ucpOrderEvents } from "./api/ucp/ucp-order-events.ts";
import { ucpWebhookSigners } from "./api/ucp/webhook-signers.ts";
import type { Runtime } from "./runtime.ts";
import { keyWebhookSecret } from "./tools/keys/order-webhook.ts";
import type { OrderEvents } from "./tools/orders/events.ts";
import { integratorWebhooks } from "./tools/orders/webhook-events.ts";

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
