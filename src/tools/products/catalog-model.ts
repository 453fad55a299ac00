// The shapes of the catalogue read model (src/tools/products/read-model.ts): what it holds, finds and answers, and what
// each of its two stores (memory-catalog.ts, sql-catalog.ts) provides.

export interface CatalogProduct {
  id: string;
  slug: string;
  name: string;
  brand: string | null;
  description: string;
  priceDkk: number;
  stock: number;
  featured: boolean;
  frameColor: string | null;
  lensColor: string | null;
  categoryId: string;
  images: string[];
  createdAt: string;
  /** Lower-cased brand and colours, compared by the search filters. */
  keys: { brand: string | null; frameColor: string | null; lensColor: string | null };
}

export interface CatalogCategory {
  id: string;
  slug: string;
  name: string;
  description: string | null;
}

export interface ProductSummary {
  id: string;
  slug: string;
  name: string;
  brand: string | null;
  priceDkk: number;
  stock: number;
  featured: boolean;
  frameColor: string | null;
  lensColor: string | null;
  categorySlug: string;
  categoryName: string;
  firstImage: string | null;
}

export interface SearchFilters {
  q?: string;
  categorySlug?: string;
  brand?: string;
  frameColor?: string;
  lensColor?: string;
  featured?: boolean;
  inStock?: boolean;
  minPriceOere?: number;
  maxPriceOere?: number;
  limit: number;
  offset: number;
}

/** The answer content and variants of one product (products.get_answers, products.list_variants), read on demand. */
export interface ProductDetails {
  answerSummary: string | null;
  faq: Array<{ q: string; a: string }>;
  useCases: Array<{ title: string; description: string }>;
  comparisonFacts: Record<string, string>;
  attributes: Record<string, string>;
  /** Sold as a gift card (Product.giftCard). */
  giftCard: boolean;
  /** In creation order (then by sku). */
  variants: Array<{ id: string; sku: string; attributes: Record<string, string>; priceDkk: number | null; stock: number }>;
}

export interface CatalogChange {
  /** Products whose rows, images or visibility changed. */
  productIds?: string[];
  /**
   * Products of which only stock changed (their own, or their variants'): a sale, a return, a stock adjustment. The
   * stores update these numbers in place; nothing is rebuilt for them.
   */
  stock?: string[];
  /**
   * The products of `productIds` stayed in their categories and visible or not as they were (a price, image, variant
   * or text change): category counts stand.
   */
  keepsCategories?: true;
  /** Categories changed (names feed product summaries and the search text). */
  categories?: boolean;
}

/** A visible category with its count of visible products (categories.list). */
export type CountedCategory = CatalogCategory & { productCount: number };

/**
 * Where the read model keeps the catalogue: every visible product in this process's memory (memory-catalog.ts), or the
 * database's own indexes with bounded caches (sql-catalog.ts). catalog-engine.ts decides which.
 */
export interface CatalogStore {
  /**
   * How often this store has read or indexed the whole catalogue: start-up and reloads, and in memory each time the
   * order and index are built again (the cost a write must not have; tests and the benchmark read it).
   */
  readonly builds: number;
  /** Everything again: start-up, a category change, an out-of-band change (seed, import in another process). */
  reloadAll(): Promise<void>;
  /** These products' rows, images or visibility changed (or they are gone); `moved`: their categories or visibility may have. */
  reloadProducts(ids: string[], moved: boolean): Promise<void>;
  /** Only these products' stock changed. */
  reloadStock(ids: string[]): Promise<void>;
  search(filters: SearchFilters, drafts: boolean): Promise<ProductSummary[]>;
  product(slug: string, drafts: boolean): Promise<CatalogProduct | undefined>;
  productById(id: string): Promise<CatalogProduct | undefined>;
  category(id: string): CatalogCategory | undefined;
  categories(): Promise<CountedCategory[]>;
  /** Every visible product, by slug (feeds walk the whole catalogue). */
  products(): Promise<CatalogProduct[]>;
}
