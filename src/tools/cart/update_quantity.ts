// cart.update_quantity: set one cart line's quantity (0 removes the line).
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { cartSummary } from "./schemas.ts";
import { CartStore, checkQuantity, summarize } from "./cart-store.ts";

export default defineTool({
  name: "cart.update_quantity",
  description: "Set a cart line's quantity. Returns the cart summary.",
  errors: [
    { status: 422, code: "insufficient_stock" },
    { status: 404, when: "the line is not in the cart" },
  ],
  input: z.strictObject({
    lineId: z.string().min(1).describe("The line's id (cart summary)."),
    quantity: z.number().int().min(0).max(100).describe("New quantity; 0 removes the line."),
  }),
  output: cartSummary,
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: UPDATE,
  examples: [{ lineId: "demo-cart-line-1", quantity: 2 }],
  async handler({ lineId, quantity }, ctx) {
    const cart = await CartStore.open(ctx, true);
    const line = cart.line(lineId);
    if (quantity > line.quantity) {
      const variant = line.variantId ? await ctx.db.productVariant.findUnique({ where: { id: line.variantId } }) : null;
      const product = await ctx.db.product.findUniqueOrThrow({ where: { id: line.productId } });
      checkQuantity(variant ? `${product.name} (${variant.sku})` : product.name, variant ? variant.stock : product.stock, quantity, line.quantity);
    }
    await cart.setQuantity(lineId, quantity);
    return summarize(ctx.db, cart.state, ctx.now());
  },
});
