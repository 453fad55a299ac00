// The shapes of the catalogue read model (src/tools/products/read-model.ts): what it holds, finds and answers.

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
  /** Categories changed (names feed product summaries, so everything is rebuilt). */
  categories?: boolean;
}
