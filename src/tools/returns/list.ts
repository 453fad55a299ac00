// returns.list: the returns queue, by status and order, newest first.
import { z } from "zod";
import { limit, offset } from "../fields.ts";
import { orderId } from "../orders/schemas.ts";
import { defineTool, READ } from "../tool.ts";
import { RETURN_STATUSES, returnView, toReturnView, withItems } from "./schemas.ts";
import { loadOrderForReturn } from "./return-rules.ts";

export default defineTool({
  name: "returns.list",
  description: "Return requests, newest first. Returns [return].",
  errors: [{ status: 404, when: "unknown order" }],
  input: z.strictObject({
    status: z.enum(RETURN_STATUSES).optional().describe("Only this status."),
    orderId: orderId.optional(),
    limit: limit(100, 50),
    offset: offset(10000),
  }),
  output: z.array(returnView),
  scope: "returns:read",
  anonymous: false,
  audited: false,
  // A shopper lists the returns of one of their own orders: without orderId there is nothing of theirs to name.
  shopper: { order: (input) => input.orderId ?? null },
  annotations: READ,
  examples: [{}, { status: "approved" }, { orderId: "demo-order-03" }],
  async handler(input, ctx) {
    if (input.orderId) await loadOrderForReturn(ctx, input.orderId, { lock: false });
    const returns = await ctx.db.returnRequest.findMany({
      where: { ...(input.status && { status: input.status }), ...(input.orderId && { orderId: input.orderId }) },
      include: withItems,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: input.limit,
      skip: input.offset,
    });
    return returns.map(toReturnView);
  },
});
