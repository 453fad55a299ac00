// The order event bodies of each UCP version, registered with the checkout core (which enqueues them in the transaction
// of the change) by the runtime at start, so every process that changes orders can write them.
import { UCP_JWS, UCP_RFC9421 } from "../../core/outbox/ucp-signers.ts";
import { registerOrderEventFormat } from "../../tools/checkout/order-events.ts";
import * as v0111 from "./v2026-01-11.ts";
import * as v0408 from "./v2026-04-08.ts";

export function registerUcpOrderEvents(): void {
  registerOrderEventFormat(
    {
      version: v0408.VERSION,
      signer: UCP_RFC9421,
      sends: () => true,
      // The full order entity (a current-state snapshot, as 2026-04-08 requires) with event_id and created_time as in
      // the version's example; Webhook-Id / Webhook-Timestamp carry the same id and time.
      body: (view, _event, meta) => ({ ...v0408.order(view, { baseUrl: meta.baseUrl }), event_id: meta.eventId, created_time: meta.occurredAt.toISOString() }),
    },
    true,
  );
  registerOrderEventFormat({
    version: v0111.VERSION,
    signer: UCP_JWS,
    sends: (event) => event === "order_placed" || event === "order_shipped",
    // The version's webhook body is the order with event_id and created_time; its reference server and conformance suite
    // read {event_type, checkout_id, order}: the body carries both.
    body: (view, event, meta) => {
      const entity = v0111.order(view, { baseUrl: meta.baseUrl });
      const { ucp: _ucp, ...order } = entity;
      return { event_type: event, event_id: meta.eventId, created_time: meta.occurredAt.toISOString(), ...entity, order };
    },
  });
}
