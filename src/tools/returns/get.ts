// returns.get: one return as staff (and later its shopper) see it.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { returnId, returnView, toReturnView } from "./schemas.ts";
import { loadReturn } from "./return-rules.ts";

export default defineTool({
  name: "returns.get",
  description: "One return: items, status, refund and deadline. Returns the return.",
  input: z.strictObject({ returnId }),
  output: returnView,
  scope: "returns:read",
  anonymous: false,
  audited: false,
  shopper: { order: async (input, db) => (await db.returnRequest.findUnique({ where: { id: input.returnId }, select: { orderId: true } }))?.orderId ?? null },
  annotations: READ,
  examples: [{ returnId: "demo-return-1" }],
  async handler(input, ctx) {
    const { ret } = await loadReturn(ctx, input.returnId);
    return toReturnView(ret);
  },
});
