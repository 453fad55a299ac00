// cart.get_summary: the session cart priced: lines, subtotal, discount, shipping, VAT and total.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { cartSummary } from "./schemas.ts";
import { CartStore, summarize } from "./service.ts";

export default defineTool({
  name: "cart.get_summary",
  description:
    "Show the shopper's cart: lines (with lineId, unit price, line total and stock), item count, subtotal, discount code and amount, " +
    "shipping, VAT (included) and total, all in øre, plus the shipping address when set. Prices are the current catalogue prices.",
  input: z.strictObject({}),
  output: cartSummary,
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    const cart = await CartStore.open(ctx, false);
    return summarize(ctx.db, cart.state, ctx.now());
  },
});
