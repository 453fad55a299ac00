// cart.remove: take one line out of the session cart.
import { z } from "zod";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { cartSummary } from "./schemas.ts";
import { CartStore, summarize } from "./cart-store.ts";

export default defineTool({
  name: "cart.remove",
  description: "Remove a line from the shopper's cart. Returns the cart summary.",
  errors: [{ status: 404, when: "the line is not in the cart" }],
  input: z.strictObject({ lineId: z.string().min(1).describe("The line's id (cart summary).") }),
  output: cartSummary,
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: DESTRUCTIVE,
  examples: [{ lineId: "demo-cart-line-2" }],
  async handler({ lineId }, ctx) {
    const cart = await CartStore.open(ctx, true);
    await cart.remove(lineId);
    return summarize(ctx.db, cart.state, ctx.now());
  },
});
