// orders.get: every field of one order, with its lines.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { itemOrder, orderDetail, orderId, toOrderDetail } from "./schemas.ts";

export default defineTool({
  name: "orders.get",
  description:
    "One order, every field: {id, email, status, shipping*, billing*, phoneNumber, *Dkk amounts, vatOere, " +
    "discountCode, carrier, tracking*, estDelivery*, paidAt, items, …}.",
  input: z.strictObject({ orderId }),
  output: orderDetail,
  scope: "orders:read",
  anonymous: false,
  audited: false,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-01" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, include: { items: { orderBy: itemOrder } } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    return toOrderDetail(order);
  },
});
