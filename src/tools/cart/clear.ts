// cart.clear: empty the session cart.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { cartSummary } from "./schemas.ts";
import { CartStore, summarize } from "./cart-store.ts";

export default defineTool({
  name: "cart.clear",
  description: "Empty the shopper's cart: lines and discount code (the address stays). Returns the cart summary.",
  input: z.strictObject({}),
  output: cartSummary,
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: UPDATE,
  examples: [{}],
  async handler(_input, ctx) {
    const cart = await CartStore.open(ctx, true);
    await cart.clear();
    return summarize(ctx.db, cart.state, ctx.now());
  },
});
