// The storefront session's own customer and orders: every user.* tool and every shopper tool answers only for them.
import { NotFound, Refused, type ToolError } from "../../core/errors.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { Caller, SessionRef } from "../context.ts";

const SIGN_IN = "the shopper signs in with a code e-mailed to the address (user.request_login_code, user.verify_login_code)";

/** The customer bound to the caller's storefront session; 422 no_customer when the session has none (or there is no session). */
export function sessionCustomerId(caller: Caller): string {
  const id = caller.session?.customerId;
  if (!id) {
    throw new Refused("no_customer", `This storefront session is not signed in to a customer: ${SIGN_IN}. Staff use customer.* and orders.* instead.`);
  }
  return id;
}

/**
 * The orders a storefront session may reach: those it placed itself (Order.sessionId) and, once the shopper has proven
 * the e-mail by a login code, that customer's. A checkout never signs a session in (an e-mail typed at checkout proves
 * nothing), so a guest reaches the orders of this browser and nothing else of the customer. Null: no order at all.
 */
export function ownOrders(session: SessionRef | undefined): Prisma.OrderWhereInput | null {
  const mine: Prisma.OrderWhereInput[] = [];
  if (session?.persistent) mine.push({ sessionId: session.id });
  if (session?.customerId) mine.push({ userId: session.customerId });
  return mine.length ? { OR: mine } : null;
}

/**
 * Why a session cannot reach an order: 404 for a signed-in shopper (another's and an unknown id alike), 422 no_customer
 * for a guest, whatever the order, so neither answer tells whether it exists.
 */
export function notOwnOrder(session: SessionRef | undefined, orderId: string | null): ToolError {
  if (!session?.customerId) return new Refused("no_customer", `A storefront session that is not signed in reaches only the orders placed in it; for any other ${SIGN_IN}.`);
  return new NotFound(orderId ? `You have no order with id "${orderId}".` : "You have no such order.");
}
