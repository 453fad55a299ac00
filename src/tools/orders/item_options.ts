// orders.item_options: for each line of an order, the variants orders.change_items can swap it to, priced as the swap would be.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { itemOrder, orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.item_options",
  description:
    "What each order line can be swapped to (orders.change_items) or exchanged for (returns.request), at catalogue " +
    "price. Returns [{orderItemId, productName, variantSku, quantity, variants}].",
  input: z.strictObject({ orderId }),
  output: z.array(
    z.strictObject({
      orderItemId: z.string(),
      productName: z.string(),
      variantSku: z.string().nullable().describe("The line's variant now, or null."),
      quantity: z.number().int().min(1),
      variants: z.array(z.strictObject({ id: z.string().describe("For returns.request's exchangeVariantId."), sku: z.string(), attributes: z.record(z.string(), z.string()), unitPriceDkk: oere("Unit price"), stock: z.number().int().min(0) })),
    }),
  ),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  shopper: { order: (input) => input.orderId },
  annotations: READ,
  examples: [{ orderId: "demo-order-16" }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, include: { items: { orderBy: itemOrder } } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    const productIds = [...new Set(order.items.map((item) => item.productId))];
    const variants = await ctx.db.productVariant.findMany({
      where: { productId: { in: productIds }, product: { deletedAt: null, draft: false } },
      include: { product: { select: { priceDkk: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return order.items.map((item) => ({
      orderItemId: item.id,
      productName: item.productName,
      variantSku: item.variantSku,
      quantity: item.quantity,
      variants: variants
        .filter((variant) => variant.productId === item.productId)
        .map((variant) => ({
          id: variant.id,
          sku: variant.sku,
          attributes: variant.attributes as Record<string, string>,
          unitPriceDkk: Number(variant.priceDkk ?? variant.product.priceDkk),
          stock: Number(variant.stock),
        })),
    }));
  },
});
