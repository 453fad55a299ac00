// The numbers people know orders by (#1001), for pages: orders.get_number once per order, in parallel.
import { ToolError } from "../core/errors.ts";
import ordersGetNumber from "../tools/orders/get_number.ts";
import { orderRef } from "../tools/shared/order-numbers.ts";
import type { WebRequest } from "./page.ts";

/**
 * "#1001" per order id, read as the request's caller (staff, or a shopper for the session's own orders); an order
 * the caller cannot see is left out.
 */
export async function orderRefs(web: WebRequest, orderIds: readonly string[]): Promise<Map<string, string>> {
  const as = await web.caller();
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
