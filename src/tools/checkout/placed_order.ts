// checkout.placed_order (internal): the order a checkout session became, whoever's session it was — the UCP door answers
// an order update (PUT /ucp/orders/{id}) with it, after checking the updater may write orders.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { orderView, orderViewOf } from "./get_order.ts";

export default defineTool({
  name: "checkout.placed_order",
  description: "The order a checkout session became, by order id, or null when no checkout session placed it.",
  input: z.strictObject({ orderId: z.string().min(1).max(100).describe("The order's id.") }),
  output: orderView.nullable(),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  internal: true,
  annotations: READ,
  examples: [{ orderId: "c000000000000000000000000" }],
  async handler({ orderId }, ctx) {
    const session = await ctx.db.checkoutSession.findUnique({ where: { orderId } });
    return session ? orderViewOf(ctx.db, session, ctx.now()) : null;
  },
});
