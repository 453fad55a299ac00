// orders.get_number: the number people see for an order (#1001), for naming it in mails, pages and conversations.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { orderId, orderNumber } from "./schemas.ts";

export default defineTool({
  name: "orders.get_number",
  description: "The number people see for an order (#1001 in mails, pages, bank reference). Returns {orderId, number}.",
  input: z.strictObject({ orderId }),
  output: z.strictObject({ orderId: z.string(), number: orderNumber }),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-01" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, select: { id: true, number: true } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    return { orderId: order.id, number: order.number };
  },
});
