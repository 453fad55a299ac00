// The composition root's wiring beside the express app: who hears an order change, in which order. createApp wires
// the server's runtime with it; the CLI's operator executor subscribes the same.
import { acpOrderEvents } from "./api/acp/order-events.ts";
import { ucpOrderEvents } from "./api/ucp/order-events.ts";
import type { OrderEvents } from "./tools/orders/events.ts";
import { integratorWebhooks } from "./tools/orders/webhook-events.ts";

/** Integrators' webhooks first, then the agent protocols' doors: each writes its own events to the outbox. */
export function subscribeOrderEvents(events: OrderEvents): OrderEvents {
  events.subscribe(integratorWebhooks);
  events.subscribe(ucpOrderEvents);
  events.subscribe(acpOrderEvents);
  return events;
}
