// ACP 2026-04-17 order webhooks, the ACP door's subscriber of the order-event hub: when an order comes from an ACP
// checkout session made with an API key that names a webhook URL and a signing secret, `order_create` (on completion)
// and `order_update` (on every later status, item, tracking, fulfilment or adjustment change) go to that URL from the durable
// outbox, in the transaction of the change, signed with Merchant-Signature (merchant-signature.ts). The body is the whole
// Order, as the spec asks (not a delta): line items with quantities, the shipment with tracking and events, refunds as
// adjustments, totals with amount_refunded, built from the order, the session it came from and its status history.
import type { z } from "zod";
import { orderFacts, type OrderFacts } from "../../tools/checkout/order-facts.ts";
import { ownerKeyId, placedFrom } from "../../tools/checkout/placed-from.ts";
import { keyOrderWebhook } from "../../tools/keys/order-webhook.ts";
import type { OrderEventScope, OrderSubscriber } from "../../tools/orders/events.ts";
import { adjustment, fulfillmentEvent, storedList } from "../../tools/orders/fulfillment-events.ts";
import { keyRefOf, MERCHANT_SIGNATURE } from "./merchant-signature.ts";
import { addressOf, totals, webhookEvent } from "./v2026-04-17.ts";

type Event = z.infer<typeof webhookEvent>;
type Data = Event["data"];
type AcpOrderEvent = "order_create" | "order_update";

/** How far the goods got, from every status the order has had (a refund after delivery is still a delivered order). */
function stage(facts: OrderFacts): "delivered" | "shipped" | null {
  const seen = new Set([...facts.history.map((change) => change.toStatus), facts.order.status]);
  if (seen.has("delivered") || seen.has("completed")) return "delivered";
  return seen.has("shipped") ? "shipped" : null;
}

/** The shop's status as the version's order status. */
export function orderStatus(facts: OrderFacts): Data["status"] {
  const reached = stage(facts);
  switch (facts.order.status) {
    case "pending_payment":
    case "pending":
      return "created";
    case "flagged_review":
      return "manual_review";
    case "processing":
      return "processing";
    case "shipped":
      return "shipped";
    case "delivered":
    case "completed":
      return "completed";
    case "cancelled":
      return "canceled";
    case "refunded":
      // A full refund before shipping undoes the order; after, the goods went out all the same.
      return reached === "delivered" ? "completed" : reached ?? "canceled";
    default:
      // paid, partial_refund, disputed
      return reached === "delivered" ? "completed" : reached ?? "confirmed";
  }
}

function firstAt(facts: OrderFacts, status: string): string | undefined {
  return facts.history.find((change) => change.toStatus === status)?.createdAt.toISOString();
}

export function acpOrder(facts: OrderFacts): Data {
  const { order, session } = facts;
  const removed = order.status === "cancelled" || (order.status === "refunded" && stage(facts) === null);
  const reached = removed ? null : stage(facts);
  const currency = order.currency.toLowerCase();
  const lines = session.lines.map((line) => ({ id: line.id, quantity: line.quantity }));
  const line_items: Data["line_items"] = session.lines.map((line) => {
    const current = removed ? 0 : line.quantity;
    const fulfilled = reached ? current : 0;
    return {
      id: line.id,
      title: line.title,
      product_id: line.productId,
      quantity: { ordered: line.quantity, current, fulfilled },
      unit_price: line.unitPrice,
      subtotal: line.subtotal,
      status: current === 0 ? "removed" : fulfilled === current ? "fulfilled" : fulfilled > 0 ? "partial" : "processing",
    };
  });
  const recorded = storedList(order.fulfillmentEvents, fulfillmentEvent);
  const events = recorded.map((event) => ({ id: event.id, type: event.type, occurred_at: event.occurredAt, ...(event.description ? { description: event.description } : {}) }));
  // Shipments and deliveries made inside the shop (set_tracking, update_status) show as events too.
  for (const status of ["shipped", "delivered"] as const) {
    const at = firstAt(facts, status);
    if (at && !recorded.some((event) => event.type === status)) events.push({ id: `evt_${order.id}_${status}`, type: status, occurred_at: at });
  }
  const name = session.fulfillment.destination?.name ?? order.shippingName;
  const destination = addressOf(session.fulfillment.destination, name);
  const estimated = order.estDeliveryFrom && order.estDeliveryTo ? { earliest: order.estDeliveryFrom.toISOString(), latest: order.estDeliveryTo.toISOString() } : undefined;
  const fulfillmentStatus = removed ? "canceled" : reached ?? (order.status === "processing" ? "processing" : "pending");
  const fulfillments: Data["fulfillments"] = [
    {
      id: `ful_${order.id}`,
      type: "shipping",
      status: fulfillmentStatus,
      line_items: lines,
      ...(order.carrier ? { carrier: order.carrier } : {}),
      ...(order.trackingNumber ? { tracking_number: order.trackingNumber } : {}),
      ...(order.trackingUrl ? { tracking_url: order.trackingUrl } : {}),
      ...(destination ? { destination } : {}),
      ...(estimated ? { estimated_delivery: estimated } : {}),
      events,
    },
  ];
  const stored = storedList(order.adjustments, adjustment);
  const adjustments: Data["adjustments"] = stored.map((entry) => ({
    id: entry.id,
    type: entry.type,
    occurred_at: entry.occurredAt,
    status: entry.status!,
    ...(entry.lineItems ? { line_items: entry.lineItems } : {}),
    ...(entry.amount !== undefined ? { amount: entry.amount, currency } : {}),
    ...(entry.description ? { description: entry.description } : {}),
  }));
  const refunded = Number(order.refundedDkk);
  // Refunds made in the shop: one adjustment per entry of the order's payment ledger (unless the agent's own order
  // updates recorded refunds, which then stand for them).
  if (refunded > 0 && !stored.some((entry) => entry.type === "refund")) {
    for (const entry of facts.refunds) {
      adjustments.push({
        id: `adj_${entry.id}`,
        type: "refund",
        occurred_at: entry.createdAt.toISOString(),
        status: "completed",
        amount: Number(entry.amountDkk),
        currency,
        description: entry.kind === "store_credit" ? "Refunded as store credit (a gift card; VAT included)" : "Refunded by the shop (VAT included)",
      });
    }
  }
  return {
    type: "order",
    id: order.id,
    checkout_session_id: session.id,
    order_number: order.id,
    permalink_url: facts.permalink,
    status: orderStatus(facts),
    ...(estimated ? { estimated_delivery: estimated } : {}),
    line_items,
    fulfillments,
    adjustments,
    totals: [...totals(session), ...(refunded > 0 ? [{ type: "amount_refunded" as const, display_text: "Refunded", amount: refunded }] : [])],
  };
}

function orderEvent(facts: OrderFacts, type: AcpOrderEvent): Event {
  return { type, data: acpOrder(facts) };
}

/** Enqueues the event when the order came from a completed ACP session whose key has a webhook URL and a secret. */
async function enqueue(scope: OrderEventScope, type: AcpOrderEvent, orderId: string): Promise<void> {
  const session = await placedFrom(scope, orderId);
  const keyId = session?.protocol === "acp" ? ownerKeyId(session) : null;
  if (!session || !keyId) return;
  const webhook = await keyOrderWebhook(scope, keyId);
  if (!webhook) return;
  const body = JSON.stringify(orderEvent(await orderFacts(scope, session), type));
  await scope.collaborators.outbox.enqueue(scope, { type: `acp.${type}`, url: webhook.url, body, signer: MERCHANT_SIGNATURE, keyRef: keyRefOf(keyId) });
}

/** order_update for an order that came from ACP (a cheap no-op for every other order). */
function update(scope: OrderEventScope, order: { id: string; acpSessionId: string | null }): Promise<void> {
  return order.acpSessionId ? enqueue(scope, "order_update", order.id) : Promise.resolve();
}

/** order_create on completion; order_update on every status change, item edit, and tracking or recorded entries without one. */
export const acpOrderEvents: OrderSubscriber = async (scope, change) => {
  switch (change.type) {
    case "checkout_completed":
      return enqueue(scope, "order_create", change.orderId);
    case "status_changed":
    case "tracking_set":
    case "items_changed":
      return update(scope, change.order);
    case "fulfilment_recorded":
      // Recorded entries that moved the status were told with that change.
      return change.statusChanged ? undefined : update(scope, change.order);
    default:
      return undefined;
  }
};
