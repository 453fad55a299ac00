// The checkout session an order was placed from, as the agent doors' order events read it: the session (its protocol,
// version and the agent's webhook URL), the order as its agent sees it, the API key that owns it, and the order columns
// that name it.
import type { CheckoutSession } from "../../generated/prisma/client.ts";
import type { OrderEventScope } from "../orders/events.ts";
import { orderViewOf, type OrderView } from "./get_order.ts";
import type { SessionView } from "./schemas.ts";

/**
 * The session an order was placed from, or null. Completion links them only once the order is placed and paid, so a
 * change inside checkout.complete (its `paid`) finds none; checkout_completed follows.
 */
export function placedFrom(scope: OrderEventScope, orderId: string): Promise<CheckoutSession | null> {
  return scope.db.checkoutSession.findUnique({ where: { orderId } });
}

/** The order a completed session became, as checkout.get_order shows it to the session's agent. */
export function agentOrderView(scope: OrderEventScope, session: CheckoutSession): Promise<OrderView> {
  return orderViewOf(scope.db, session, scope.now());
}

/** The API key that owns a session made with one, or null. */
export function ownerKeyId(session: Pick<CheckoutSession, "owner">): string | null {
  return session.owner.startsWith("key:") ? session.owner.slice("key:".length) : null;
}

/** The order columns that name the session an order completes: one protocol's orders carry it (shown by orders.get). */
export function sessionColumns(session: { id: string; protocol: SessionView["protocol"] }): { acpSessionId: string | null } {
  return { acpSessionId: session.protocol === "acp" ? session.id : null };
}
