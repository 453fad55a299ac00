// cart.get_summary: the session cart priced: lines, subtotal, discount, shipping, VAT and total.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { cartSummary } from "./schemas.ts";
import { CartStore, summarize } from "./cart-store.ts";

export default defineTool({
  name: "cart.get_summary",
  description:
    "The shopper's cart at current prices. Returns {lines, itemCount, discountCode, discountNotice, *Dkk amounts, " +
    "vatOere, shippingAddress}.",
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
