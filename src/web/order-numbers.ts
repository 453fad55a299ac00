// The numbers people know orders by (#1001), for pages: orders.get_number once per order, in parallel.
import { ToolError } from "../core/errors.ts";
import type { Caller } from "../tools/context.ts";
import ordersGetNumber from "../tools/orders/get_number.ts";
import { orderRef } from "../tools/orders/numbers.ts";
import type { WebRequest } from "./page.ts";

/**
 * Reads the numbers of orders a user.* tool has just shown to be the shopper's own (a shopper holds no orders:read).
 * Never for an order id that only the request names.
 */
export const OWN_ORDER_NUMBERS: Caller = { kind: "system", actor: "system:order-numbers", scopes: new Set(["orders:read"]) };

/** "#1001" per order id, read as `caller` (default: the request's caller); an unknown order is left out. */
export async function orderRefs(web: WebRequest, orderIds: readonly string[], caller?: Caller): Promise<Map<string, string>> {
  const as = caller ?? (await web.caller());
  const found = await Promise.all(
    [...new Set(orderIds)].map((orderId) =>
      web.callAs(as, ordersGetNumber, { orderId }).catch((error: unknown) => {
        if (error instanceof ToolError && error.status === 404) return null;
        throw error;
      }),
    ),
  );
  return new Map(found.filter((hit) => hit !== null).map(({ orderId, number }) => [orderId, orderRef(number)]));
}
