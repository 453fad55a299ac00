// orders.list: order summaries, newest first, filtered by status, e-mail, creation time and a search (number, e-mail, name).
import { z } from "zod";
import { limit } from "../fields.ts";
import { Invalid } from "../../core/errors.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, READ } from "../tool.ts";
import { parseOrderRef } from "../shared/order-numbers.ts";
import { itemOrder, orderSummary, toOrderSummary } from "./schemas.ts";
import { orderStatus } from "./transitions.ts";

const when = z.iso.datetime({ offset: true });

export default defineTool({
  name: "orders.list",
  description:
    "Orders, newest first. Returns [{id, email, shippingName, status, *Dkk amounts, discountCode, itemCount " +
    "(units), items, createdAt}].",
  input: z.strictObject({
    status: orderStatus.optional(),
    email: z.email().max(320).optional().describe("Any case."),
    fromDate: when.optional().describe("Created at or after."),
    toDate: when.optional().describe("Created before."),
    query: z.string().trim().min(1).max(200).optional().describe("Order number (1001, #1001) or part of the e-mail or name."),
    limit: limit(100, 20),
  }),
  output: z.array(orderSummary),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { status: "paid", limit: 10 }],
  async handler({ status, email, fromDate, toDate, query, limit }, ctx) {
    const from = fromDate ? new Date(fromDate) : undefined;
    const to = toDate ? new Date(toDate) : undefined;
    if (from && to && from > to) throw new Invalid("fromDate must not be after toDate.", [{ path: "fromDate", message: "After toDate" }]);
    const orders = await ctx.db.order.findMany({
      where: {
        ...(status && { status }),
        ...(email && { email: { equals: email, mode: "insensitive" as const } }),
        ...((from || to) && { createdAt: { ...(from && { gte: from }), ...(to && { lt: to }) } }),
        ...(query && search(query)),
      },
      include: { items: { orderBy: itemOrder } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    });
    return orders.map(toOrderSummary);
  },
});

/** A typed order number finds that order; other text, orders whose e-mail or delivery name contains it (any case). */
function search(query: string): Prisma.OrderWhereInput {
  const number = parseOrderRef(query);
  if (number !== null) return { number };
  return { OR: [{ email: { contains: query, mode: "insensitive" } }, { shippingName: { contains: query, mode: "insensitive" } }] };
}
