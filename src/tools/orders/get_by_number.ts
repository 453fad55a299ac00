// orders.get_by_number: the order a person names by its number (#1001), answered exactly as orders.get.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { orderRef } from "../shared/order-numbers.ts";
import { itemOrder, orderDetail, orderNumber, toOrderDetail } from "./schemas.ts";

export default defineTool({
  name: "orders.get_by_number",
  description: "The order people call #<number> (mails, pages, bank reference), as orders.get.",
  input: z.strictObject({ number: orderNumber }),
  output: orderDetail,
  scope: "orders:read",
  anonymous: false,
  audited: false,
  shopper: { order: async (input, db) => (await db.order.findUnique({ where: { number: input.number }, select: { id: true } }))?.id ?? null },
  annotations: READ,
  examples: [{ number: 1001 }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { number: input.number }, include: { items: { orderBy: itemOrder } } });
    if (!order) throw new NotFound(`No order with number ${orderRef(input.number)}.`);
    return toOrderDetail(order);
  },
});
