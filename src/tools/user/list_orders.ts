// user.list_orders: the session customer's own orders, newest first.
import { z } from "zod";
import { limit } from "../fields.ts";
import { itemOrder, orderSummary, toOrderSummary } from "../orders/schemas.ts";
import { defineTool, READ } from "../tool.ts";
import { sessionCustomerId } from "./own-customer.ts";

export default defineTool({
  name: "user.list_orders",
  description: "The signed-in shopper's orders, newest first, as orders.list.",
  errors: [{ status: 422, code: "no_customer" }],
  input: z.strictObject({
    limit: limit(100, 20),
  }),
  output: z.array(orderSummary),
  scope: "customer:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler({ limit }, ctx) {
    const customerId = sessionCustomerId(ctx.caller);
    const orders = await ctx.db.order.findMany({
      where: { userId: customerId },
      include: { items: { orderBy: itemOrder } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    });
    return orders.map(toOrderSummary);
  },
});
