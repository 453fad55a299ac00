// UCP order events, the UCP door's subscriber of the order-event hub: when an order placed through a UCP checkout
// session is placed, shipped, delivered, cancelled or refunded, has its items edited (orders.change_items), or gains
// fulfilment events or adjustments from outside (orders.record_events), the order in the shapes of the version the session was created with is written to the outbox
// in the transaction of the change, addressed to the webhook URL the agent's profile gave at creation and signed as that
// version requires (webhook-signers.ts).
import crypto from "node:crypto";
import type { OrderView } from "../../tools/checkout/get_order.ts";
import { agentOrderView, placedFrom } from "../../tools/checkout/placed-from.ts";
import type { OrderChange, OrderSubscriber } from "../../tools/orders/events.ts";
import { UCP_JWS, UCP_RFC9421, ucpEventRef } from "./webhook-signers.ts";
import * as v0111 from "./v2026-01-11.ts";
import * as v0408 from "./v2026-04-08.ts";
import * as v0825 from "./v2026-08-25.ts";

type UcpOrderEvent = "order_placed" | "order_shipped" | "order_delivered" | "order_canceled" | "order_refunded" | "order_updated";

/** How one protocol version writes an order event: its body and the signer it goes out with. */
interface OrderEventFormat {
  signer: string;
  /** Whether the version has this event (2026-01-11 agents know only order_placed and order_shipped). */
  sends(event: UcpOrderEvent): boolean;
  body(view: OrderView, event: UcpOrderEvent, meta: { eventId: string; occurredAt: Date; shop: v0408.Shop }): unknown;
}

const FORMATS = new Map<string, OrderEventFormat>([
  [v0825.VERSION, {
    signer: UCP_RFC9421,
    sends: () => true,
    // As 2026-04-08: the order entity in this version's shape (Standard-Webhooks-style Webhook-Id / Webhook-Timestamp,
    // RFC 9421 signature with Content-Digest). The policies are not read here: the event's order carries none.
    body: (view, _event, meta) => ({ ...v0825.order(view, meta.shop), event_id: meta.eventId, created_time: meta.occurredAt.toISOString() }),
  }],
  [v0408.VERSION, {
    signer: UCP_RFC9421,
    sends: () => true,
    // The full order entity (a current-state snapshot, as 2026-04-08 requires) with event_id and created_time as in
    // the version's example; Webhook-Id / Webhook-Timestamp carry the same id and time.
    body: (view, _event, meta) => ({ ...v0408.order(view, meta.shop), event_id: meta.eventId, created_time: meta.occurredAt.toISOString() }),
  }],
  [v0111.VERSION, {
    signer: UCP_JWS,
    sends: (event) => event === "order_placed" || event === "order_shipped",
    // The version's webhook body is the order with event_id and created_time; its reference server and conformance suite
    // read {event_type, checkout_id, order}: the body carries both.
    body: (view, event, meta) => {
      const entity = v0111.order(view, meta.shop);
      const { ucp: _ucp, ...order } = entity;
      return { event_type: event, event_id: meta.eventId, created_time: meta.occurredAt.toISOString(), ...entity, order };
    },
  }],
]);

/** Sessions that name no version known here get the newest one's events. */
const DEFAULT_VERSION = v0408.VERSION;

/** Status changes that are order events. */
const STATUS_EVENTS: Partial<Record<string, UcpOrderEvent>> = {
  shipped: "order_shipped",
  delivered: "order_delivered",
  cancelled: "order_canceled",
  refunded: "order_refunded",
  partial_refund: "order_refunded",
};

/** The event an order change is to a UCP agent, if any: anything recorded that no status change reported is an update. */
function eventOf(change: OrderChange): UcpOrderEvent | undefined {
  switch (change.type) {
    case "checkout_completed":
      return "order_placed";
    case "status_changed":
      return STATUS_EVENTS[change.to];
    case "fulfilment_recorded":
      return change.unreported > 0 ? "order_updated" : undefined;
    case "items_changed":
      return "order_updated";
    default:
      return undefined;
  }
}

/** Enqueues the event when the order came from a UCP checkout whose agent gave a webhook URL; else nothing. */
export const ucpOrderEvents: OrderSubscriber = async (scope, change) => {
  const event = eventOf(change);
  if (!event) return;
  const session = await placedFrom(scope, change.orderId);
  if (!session || session.protocol !== "ucp" || !session.webhookUrl) return;
  const format = FORMATS.get(session.protocolVersion ?? "") ?? FORMATS.get(DEFAULT_VERSION)!;
  if (!format.sends(event)) return;
  const view = await agentOrderView(scope, session);
  const eventId = crypto.randomUUID();
  const occurredAt = scope.now();
  await scope.collaborators.outbox.enqueue(scope, {
    type: `ucp.${event}`,
    url: session.webhookUrl,
    body: JSON.stringify(format.body(view, event, { eventId, occurredAt, shop: v0408.shopLinks(scope.config.publicBaseUrl, scope.collaborators.sign) })),
    signer: format.signer,
    keyRef: ucpEventRef(eventId, occurredAt),
  });
};
