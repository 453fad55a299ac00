// UCP order events: when an order placed through a UCP checkout session is placed, shipped, delivered, cancelled or
// refunded, or gains fulfilment events or adjustments from outside (orders.record_events), the
// order (in the shapes of the version the session was created with) is written to the outbox in the same transaction,
// addressed to the webhook URL the agent's profile gave at creation and signed as that version requires.
import crypto from "node:crypto";
import { ucpEventRef } from "../../core/outbox/ucp-signers.ts";
import type { ToolContext } from "../context.ts";
import type { OrderStatus } from "../orders/transitions.ts";
import type { OrderView } from "./get_order.ts";
import { orderViewOf } from "./get_order.ts";

export type UcpOrderEvent = "order_placed" | "order_shipped" | "order_delivered" | "order_canceled" | "order_refunded" | "order_updated";

/** How one protocol version writes an order event: its body and the signer it goes out with. The UCP door registers them. */
export interface OrderEventFormat {
  version: string;
  signer: string;
  /** Whether the version has this event (2026-01-11 agents know only order_placed and order_shipped). */
  sends(event: UcpOrderEvent): boolean;
  body(view: OrderView, event: UcpOrderEvent, meta: { eventId: string; occurredAt: Date; baseUrl: string }): unknown;
}

const formats = new Map<string, OrderEventFormat>();
let fallback: string | undefined;

/** Registers a version's format (the first registered answers sessions that name no version). Re-registering replaces. */
export function registerOrderEventFormat(format: OrderEventFormat, isDefault = false): void {
  formats.set(format.version, format);
  if (isDefault || fallback === undefined) fallback = format.version;
}

/** Status changes that are order events. */
const STATUS_EVENTS: Partial<Record<OrderStatus, UcpOrderEvent>> = {
  shipped: "order_shipped",
  delivered: "order_delivered",
  cancelled: "order_canceled",
  refunded: "order_refunded",
  partial_refund: "order_refunded",
};

/** Enqueues the event for this order when it came from a UCP checkout whose agent gave a webhook URL; else nothing. */
export async function emitUcpOrderEvent(ctx: ToolContext, orderId: string, event: UcpOrderEvent): Promise<void> {
  const session = await ctx.db.checkoutSession.findUnique({ where: { orderId } });
  if (!session || session.protocol !== "ucp" || !session.webhookUrl) return;
  const format = formats.get(session.protocolVersion ?? "") ?? (fallback ? formats.get(fallback) : undefined);
  if (!format) throw new Error("No UCP order event format is registered (the runtime registers them at start).");
  if (!format.sends(event)) return;
  const view = await orderViewOf(ctx.db, session, ctx.now());
  const eventId = crypto.randomUUID();
  const occurredAt = ctx.now();
  await ctx.services.outbox.enqueue(ctx, {
    type: `ucp.${event}`,
    url: session.webhookUrl,
    body: JSON.stringify(format.body(view, event, { eventId, occurredAt, baseUrl: ctx.config.publicBaseUrl })),
    signer: format.signer,
    keyRef: ucpEventRef(eventId, occurredAt),
  });
}

/** The event a status change of a UCP order reports, if any. */
export async function emitUcpStatusChange(ctx: ToolContext, orderId: string, to: OrderStatus): Promise<void> {
  const event = STATUS_EVENTS[to];
  if (event) await emitUcpOrderEvent(ctx, orderId, event);
}
