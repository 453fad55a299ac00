// cart.add: put a product (or one of its variants) in the session cart, within the stock.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { cartSummary } from "./schemas.ts";
import { CartStore, checkQuantity, resolveItem, summarize } from "./service.ts";

export default defineTool({
  name: "cart.add",
  description:
    "Add a product to the shopper's cart (adds to the quantity there). Variant products need variantSku " +
    "(products.list_variants; 422 variant_required). 422 insufficient_stock (counting the cart), 422 " +
    "quantity_limit (over 100 per line). Returns the cart summary. With an API key and no storefront session " +
    "cookie the cart is a throw-away one.",
  input: z.strictObject({
    productSlug: z.string().min(1).describe("Slug of the product, e.g. from products.search."),
    variantSku: z.string().min(1).max(100).optional().describe("SKU of the variant; required when the product has variants."),
    quantity: z.number().int().min(1).max(100).default(1).describe("Units to add, 1 to 100 (default 1)."),
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
