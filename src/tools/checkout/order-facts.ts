// What an agent door's order event that carries the whole order is written from: the order row, the checkout session
// it was placed from, its status history, its permalink and the money given back. The door owns the event's shape.
import type { CheckoutSession, Order } from "../../generated/prisma/client.ts";
import type { OrderEventScope } from "../orders/events.ts";
import type { SessionView } from "./schemas.ts";
import { storedView } from "./sessions.ts";

export interface OrderFacts {
  order: Order;
  session: SessionView;
  /** The order's status changes, oldest first. */
  history: Array<{ toStatus: string; createdAt: Date }>;
  /** The order's page that works without a session cookie. */
  permalink: string;
  /** Money given back, from the order's payment ledger, oldest first: refunds and store credit. */
  refunds: Array<{ id: string; kind: "refund" | "store_credit"; amountDkk: bigint; createdAt: Date }>;
}

/** The facts of the order a completed session became. */
export async function orderFacts(scope: OrderEventScope, session: CheckoutSession): Promise<OrderFacts> {
  const orderId = session.orderId!;
  const order = await scope.db.order.findUniqueOrThrow({ where: { id: orderId } });
  const history = await scope.db.orderStatusChange.findMany({ where: { orderId }, orderBy: { createdAt: "asc" }, select: { toStatus: true, createdAt: true } });
  const permalink = `${scope.config.publicBaseUrl}/orders/${encodeURIComponent(orderId)}/pay?token=${scope.collaborators.sign(`order-payment:${orderId}`)}`;
  const returned = await scope.db.paymentEntry.findMany({ where: { orderId, kind: { in: ["refund", "store_credit"] } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const refunds = returned.map((entry) => ({ id: entry.id, kind: entry.kind as "refund" | "store_credit", amountDkk: entry.amountDkk, createdAt: entry.createdAt }));
  return { order, session: storedView(session, scope.now()), history, permalink, refunds };
}
