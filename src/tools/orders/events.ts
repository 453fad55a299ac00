// The order-event hub: the domain announces each order change once, and the subscribers the composition root attached
// (src/compose.ts: integrators' webhooks, then the agent doors) hear it one after another in the announcing tool's
// transaction, so what they write to the outbox commits or rolls back with the change.
import type { Config } from "../../core/config.ts";
import type { Outbox } from "../../core/outbox/outbox.ts";
import type { Order } from "../../generated/prisma/client.ts";
import type { ChangeScope } from "../change-scope.ts";
import type { OrderStatus } from "./transitions.ts";

/** An order line as the announcements carry it (the placed lines, or the order's items). */
export interface OrderLine {
  productId: string;
  productName: string;
  variantSku: string | null;
  quantity: number;
  unitPriceDkk: number | bigint;
}

/** One line an item edit changed: its quantity (0: removed) and variant before and after. */
export interface ItemChange {
  orderItemId: string;
  productName: string;
  fromSku: string | null;
  toSku: string | null;
  fromQuantity: number;
  toQuantity: number;
  /** The line's unit price after the edit (øre). */
  unitPriceDkk: bigint;
}

/** What happened to an order. `order` is the row after the change. */
export type OrderChange =
  /** An order was placed (orders.place, a checkout, an exchange's replacement order). */
  | { type: "created"; orderId: string; order: Order; lines: readonly OrderLine[] }
  /** Its status moved (history written, stamps set). */
  | { type: "status_changed"; orderId: string; order: Order; lines: readonly OrderLine[]; from: string; to: OrderStatus }
  /** A checkout session's completion linked the order it placed to the session (after the order's own changes). */
  | { type: "checkout_completed"; orderId: string; checkoutId: string }
  /** Its lines were edited before shipping (orders.change_items): `lines` are the order's lines now, `changes` what moved. */
  | { type: "items_changed"; orderId: string; order: Order; lines: readonly OrderLine[]; changes: readonly ItemChange[]; previousTotalDkk: bigint }
  /** Its tracking or delivery window changed without a status change. */
  | { type: "tracking_set"; orderId: string; order: Order }
  /**
   * Fulfilment events or adjustments were recorded from outside. `statusChanged`: they moved the status too (announced
   * on its own before); `unreported`: how many new entries no status change stands for (an adjustment, an in-transit event).
   */
  | { type: "fulfilment_recorded"; orderId: string; order: Order; statusChanged: boolean; unreported: number };

/**
 * What a subscriber gets of the announcing call: its transaction and after-commit hook, clock, configuration and the
 * collaborators events are written with. Every ToolContext is one; the hub sits among the collaborators, which must not
 * import the context that lists them (see change-scope.ts).
 */
export interface OrderEventScope extends ChangeScope {
  config: Config;
  now(): Date;
  collaborators: { outbox: Outbox; sign(text: string): string };
}

export type OrderSubscriber = (scope: OrderEventScope, change: OrderChange) => Promise<void>;

export class OrderEvents {
  private readonly subscribers: OrderSubscriber[] = [];

  /** Adds a subscriber after those already there (the order every change is told in). */
  subscribe(subscriber: OrderSubscriber): void {
    this.subscribers.push(subscriber);
  }

  /** Tells every subscriber, in turn, inside the caller's transaction; a subscriber's failure fails the change. */
  async announce(scope: OrderEventScope, change: OrderChange): Promise<void> {
    for (const subscriber of this.subscribers) await subscriber(scope, change);
  }
}
