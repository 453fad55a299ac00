// cart.add: put a product (or one of its variants) in the session cart, within the stock.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { slugInput } from "../products/schemas.ts";
import { cartSummary } from "./schemas.ts";
import { CartStore, checkQuantity, resolveItem, summarize } from "./cart-store.ts";

export default defineTool({
  name: "cart.add",
  description:
    "Add a product to the shopper's cart (a key without session cookie gets a throw-away cart). Returns the cart " +
    "summary.",
  errors: [
    { status: 422, code: "variant_required" },
    { status: 422, code: "insufficient_stock" },
    { status: 422, code: "quantity_limit", when: "over 100 of a line" },
  ],
  input: z.strictObject({
    productSlug: slugInput,
    variantSku: z.string().min(1).max(100).optional().describe("Needed for variant products."),
    quantity: z.number().int().min(1).max(100).default(1).describe("Units to add."),
  }),
  output: cartSummary,
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: WRITE,
  examples: [{ productSlug: "gucci-oversize-bold-74", quantity: 1 }],
  async handler({ productSlug, variantSku, quantity }, ctx) {
    const { product, variant } = await resolveItem(ctx.db, productSlug, variantSku);
    const cart = await CartStore.open(ctx, true);
    const inCart = cart.find(product.id, variant?.id ?? null)?.quantity ?? 0;
    checkQuantity(variant ? `${product.name} (${variant.sku})` : product.name, variant ? variant.stock : product.stock, inCart + quantity, inCart);
    await cart.setUnits(product.id, variant?.id ?? null, inCart + quantity);
    return summarize(ctx.db, cart.state, ctx.now());
  },
});
