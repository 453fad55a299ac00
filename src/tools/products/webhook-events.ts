// The product events integrators' webhooks receive: product.updated, and stock.low when stock falls to the threshold.
import type { Product } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { emitEvent, emitEvents } from "../webhooks/endpoints.ts";

/** Stock at or below this is low: the default threshold of products.list_low_stock (the shop has no setting for it). */
const LOW_STOCK_THRESHOLD = 5;

function productData(product: Product) {
  return {
    id: product.id,
    slug: product.slug,
    name: product.name,
    priceDkk: Number(product.priceDkk),
    stock: Number(product.stock),
    deleted: product.deletedAt !== null,
    updatedAt: product.updatedAt.toISOString(),
  };
}

/** product.updated for each product (as it is after the change). */
export function emitProductUpdated(ctx: ToolContext, ...products: Product[]): Promise<void> {
  return emitEvents(ctx, "product.updated", products.map(productData));
}

export interface StockChange {
  productId: string;
  slug: string;
  /** The variant's SKU, or null for the product itself. */
  sku: string | null;
  before: number;
  after: number;
}

/** Reports stock.low when a change takes stock from above the threshold to at or below it (once per crossing). */
export async function emitIfLow(ctx: ToolContext, change: StockChange): Promise<void> {
  if (change.before <= LOW_STOCK_THRESHOLD || change.after > LOW_STOCK_THRESHOLD) return;
  await emitEvent(ctx, "stock.low", { ...change, stock: change.after, threshold: LOW_STOCK_THRESHOLD });
}
