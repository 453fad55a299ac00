// What a product feed is written from: every visible product of the catalogue read model with its category and
// variants, the catalogue version it was read at and the shop's currency. The protocol doors shape it (src/api/acp/feed.ts).
import type { Db } from "../../core/db.ts";
import { shopCurrency } from "../checkout/sessions.ts";
import type { CatalogProduct, ProductDetails } from "./catalog-model.ts";
import type { CatalogReadModel } from "./read-model.ts";

export interface FeedEntry {
  product: CatalogProduct;
  /** The category's name, null if the category is gone. */
  category: string | null;
  variants: ProductDetails["variants"];
}

export interface FeedSource {
  /** The read model's version the products were read at (a feed cached under it is current while it holds). */
  version: number;
  currency: string;
  /** By slug, so a feed's lines come out in the same order every time. */
  entries: FeedEntry[];
}

export async function feedSource(catalog: CatalogReadModel, db: Db): Promise<FeedSource> {
  const version = catalog.version;
  const [products, variants, currency] = await Promise.all([catalog.products(), catalog.allVariants(), shopCurrency(db)]);
  const entries = products.map((product) => ({ product, category: catalog.category(product.categoryId)?.name ?? null, variants: variants.get(product.id) ?? [] }));
  return { version, currency, entries };
}
