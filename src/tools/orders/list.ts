// orders.list: order summaries, newest first, filtered by status, e-mail and creation time.
import { z } from "zod";
import { Invalid } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { itemOrder, orderSummary, toOrderSummary } from "./schemas.ts";
import { orderStatus } from "./transitions.ts";

const when = z.iso.datetime({ offset: true });

export default defineTool({
  name: "orders.list",
  description:
    "List orders, newest first, as summaries (id, e-mail, shipping name, status, amounts in øre, discount code, itemCount = " +
    "total units, the lines, createdAt). Filter by status, by customer e-mail (exact, case-insensitive) and by creation time " +
    "(fromDate inclusive, toDate exclusive). Use orders.get for every field of one order.",
  input: z.strictObject({
    status: orderStatus.optional(),
    email: z.email().max(320).optional().describe("Only orders placed with this e-mail address (case-insensitive)."),
    fromDate: when.optional().describe("Only orders created at or after this time (ISO 8601 date-time)."),
    toDate: when.optional().describe("Only orders created before this time (ISO 8601 date-time)."),
    limit: z.number().int().min(1).max(100).default(20).describe("How many orders to return, 1 to 100 (default 20)."),
  }),
  output: z.array(orderSummary),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { status: "paid", limit: 10 }],
  async handler({ status, email, fromDate, toDate, limit }, ctx) {
    const from = fromDate ? new Date(fromDate) : undefined;
    const to = toDate ? new Date(toDate) : undefined;
    if (from && to && from > to) throw new Invalid("fromDate must not be after toDate.", [{ path: "fromDate", message: "After toDate" }]);
    const orders = await ctx.db.order.findMany({
      where: {
        ...(status && { status }),
        ...(email && { email: { equals: email, mode: "insensitive" as const } }),
        ...((from || to) && { createdAt: { ...(from && { gte: from }), ...(to && { lt: to }) } }),
      },
      include: { items: { orderBy: itemOrder } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    });
    return orders.map(toOrderSummary);
  },
});
