// One shelf of the in-memory catalogue (the published products, or the drafts), with its sort order and search index
// (n-gram postings, filter columns) built lazily on first use. A change to one product updates it in place: a stock or
// price change writes its number into the built columns, and only a change of what the order or the index reads (name,
// brand, colours, category, featured, or a product coming or going) drops them for the next search to build again.
import type { CatalogCategory, CatalogProduct, ProductSummary, SearchFilters } from "./catalog-model.ts";

interface Columns {
  codes: Map<string, number>;
  price: Float64Array;
  stock: Float64Array;
  featured: Uint8Array;
  category: Int32Array;
  brand: Int32Array;
  frameColor: Int32Array;
  lensColor: Int32Array;
}

/** One shelf of the in-memory catalogue, with its sort order and search index built lazily. */
export class MemoryIndex {
  private orderCache: CatalogProduct[] | undefined;
  private positionCache: Map<string, number> | undefined;
  private summaryCache = new Map<string, ProductSummary>();
  private indexCache: { haystacks: string[]; postings: Map<string, Int32Array> } | undefined;
  private groupCache: { byCategory: Map<string, Int32Array>; byBrand: Map<string, Int32Array> } | undefined;
  private columnCache: Columns | undefined;
  readonly products = new Map<string, CatalogProduct>();
  readonly bySlug = new Map<string, CatalogProduct>();
  readonly productCount = new Map<string, number>();

  categories: Map<string, CatalogCategory>;
  private readonly onBuild: () => void;

  /** `onBuild` hears of every time the order (and with it the index) is built from the whole shelf. */
  constructor(products: Iterable<CatalogProduct>, categories: Map<string, CatalogCategory>, onBuild: () => void = () => undefined) {
    this.categories = categories;
    this.onBuild = onBuild;
    for (const product of products) this.add(product);
  }

  /** Adds or replaces a product. */
  put(product: CatalogProduct): void {
    const old = this.products.get(product.id);
    if (old && sameListing(old, product)) {
      this.products.set(product.id, product);
      this.bySlug.set(product.slug, product);
      this.summaryCache.delete(product.id);
      const position = this.orderCache && this.positions.get(product.id);
      if (position !== undefined) {
        this.orderCache![position] = product;
        if (this.columnCache) {
          this.columnCache.price[position] = product.priceDkk;
          this.columnCache.stock[position] = product.stock;
        }
      }
      return;
    }
    if (old) this.remove(old.id);
    this.add(product);
    this.dropOrder();
  }

  /** Takes a product off the shelf (deleted, unpublished or moved to the other shelf). */
  remove(id: string): void {
    const old = this.products.get(id);
    if (!old) return;
    this.products.delete(id);
    this.bySlug.delete(old.slug);
    this.summaryCache.delete(id);
    const count = (this.productCount.get(old.categoryId) ?? 1) - 1;
    if (count > 0) this.productCount.set(old.categoryId, count);
    else this.productCount.delete(old.categoryId);
    this.dropOrder();
  }

  private add(product: CatalogProduct): void {
    this.products.set(product.id, product);
    this.bySlug.set(product.slug, product);
    this.productCount.set(product.categoryId, (this.productCount.get(product.categoryId) ?? 0) + 1);
  }

  /** The order and everything indexed by position in it are built again on the next search. */
  private dropOrder(): void {
    this.orderCache = undefined;
    this.positionCache = undefined;
    this.indexCache = undefined;
    this.groupCache = undefined;
    this.columnCache = undefined;
    this.positionsCache = undefined;
  }

  private positionsCache: Int32Array | undefined;

  /** 0..n-1: the candidates when no index narrows a search. */
  private get allPositions(): Int32Array {
    this.positionsCache ??= Int32Array.from({ length: this.products.size }, (_, i) => i);
    return this.positionsCache;
  }

  /** Visible products, featured first, then by name (the order every listing uses). */
  get ordered(): CatalogProduct[] {
    if (!this.orderCache) {
      this.onBuild();
      this.orderCache = [...this.products.values()].sort(
        (a, b) => Number(b.featured) - Number(a.featured) || compareText(a.name, b.name) || compareText(a.slug, b.slug),
      );
    }
    return this.orderCache;
  }

  /** Each product's position in `ordered`. */
  private get positions(): Map<string, number> {
    this.positionCache ??= new Map(this.ordered.map((product, position) => [product.id, position]));
    return this.positionCache;
  }

  summary(product: CatalogProduct): ProductSummary {
    let summary = this.summaryCache.get(product.id);
    if (!summary) {
      const category = this.categories.get(product.categoryId);
      summary = {
        id: product.id,
        slug: product.slug,
        name: product.name,
        brand: product.brand,
        priceDkk: product.priceDkk,
        stock: product.stock,
        featured: product.featured,
        frameColor: product.frameColor,
        lensColor: product.lensColor,
        categorySlug: category?.slug ?? "",
        categoryName: category?.name ?? "",
        firstImage: product.images[0] ?? null,
      };
      this.summaryCache.set(product.id, summary);
    }
    return summary;
  }

  /** Bigram and trigram postings over name, brand, category and colours; positions refer to `ordered`. */
  private get index() {
    if (!this.indexCache) {
      const haystacks: string[] = [];
      const postings = new Map<string, number[]>();
      this.ordered.forEach((product, position) => {
        const category = this.categories.get(product.categoryId);
        const text = normalise(
          [product.name, product.brand, category?.name, product.frameColor, product.lensColor].filter(Boolean).join(" "),
        );
        haystacks.push(text);
        for (const gram of new Set([...bigrams(text), ...trigrams(text)])) {
          let list = postings.get(gram);
          if (!list) postings.set(gram, (list = []));
          list.push(position);
        }
      });
      this.indexCache = { haystacks, postings: frozen(postings) };
    }
    return this.indexCache;
  }

  /**
   * The filterable fields of `ordered` as typed-array columns (strings interned to integer codes): a filter walk reads
   * a few contiguous arrays instead of chasing 100,000 heap objects, which costs a cache miss per product.
   */
  private get columns(): Columns {
    if (!this.columnCache) {
      const n = this.ordered.length;
      const codes = new Map<string, number>();
      const code = (value: string | null) => {
        if (value === null) return 0;
        let c = codes.get(value);
        if (c === undefined) codes.set(value, (c = codes.size + 1));
        return c;
      };
      const columns: Columns = {
        codes,
        price: new Float64Array(n),
        stock: new Float64Array(n),
        featured: new Uint8Array(n),
        category: new Int32Array(n),
        brand: new Int32Array(n),
        frameColor: new Int32Array(n),
        lensColor: new Int32Array(n),
      };
      this.ordered.forEach((product, i) => {
        columns.price[i] = product.priceDkk;
        columns.stock[i] = product.stock;
        columns.featured[i] = product.featured ? 1 : 0;
        columns.category[i] = code(`category:${product.categoryId}`);
        columns.brand[i] = code(`brand:${product.keys.brand}`);
        columns.frameColor[i] = code(`frame:${product.keys.frameColor}`);
        columns.lensColor[i] = code(`lens:${product.keys.lensColor}`);
      });
      this.columnCache = columns;
    }
    return this.columnCache;
  }

  /** Positions in `ordered` per category id and per lower-cased brand, so those filters walk only their own products. */
  private get groups() {
    if (!this.groupCache) {
      const byCategory = new Map<string, number[]>();
      const byBrand = new Map<string, number[]>();
      const add = (map: Map<string, number[]>, key: string, position: number) => {
        let list = map.get(key);
        if (!list) map.set(key, (list = []));
        list.push(position);
      };
      this.ordered.forEach((product, position) => {
        add(byCategory, product.categoryId, position);
        if (product.keys.brand) add(byBrand, product.keys.brand, position);
      });
      this.groupCache = { byCategory: frozen(byCategory), byBrand: frozen(byBrand) };
    }
    return this.groupCache;
  }

  search(filters: SearchFilters): ProductSummary[] {
    const ordered = this.ordered;
    const terms = filters.q ? normalise(filters.q).split(" ").filter(Boolean) : [];
    const category = filters.categorySlug
      ? [...this.categories.values()].find((c) => c.slug === filters.categorySlug)
      : undefined;
    if (filters.categorySlug && !category) return [];
    const brand = filters.brand?.toLowerCase();
    const columns = this.columns;
    // Filter values as column codes; a value no product has (code undefined) matches nothing.
    const want = (key: string | undefined) => (key === undefined ? -1 : (columns.codes.get(key) ?? 0));
    const categoryCode = want(category && `category:${category.id}`);
    const brandCode = want(brand === undefined ? undefined : `brand:${brand}`);
    const frameCode = want(filters.frameColor === undefined ? undefined : `frame:${filters.frameColor.toLowerCase()}`);
    const lensCode = want(filters.lensColor === undefined ? undefined : `lens:${filters.lensColor.toLowerCase()}`);
    if (categoryCode === 0 || brandCode === 0 || frameCode === 0 || lensCode === 0) return [];
    const featured = filters.featured === undefined ? -1 : filters.featured ? 1 : 0;
    const minPrice = filters.minPriceOere ?? -Infinity;
    const maxPrice = filters.maxPriceOere ?? Infinity;
    // Walk the smallest candidate list that every hit must be in: a category's or brand's products, or the
    // products sharing the query's rarest bi-/trigram; each list is in listing order, so the walk stops at limit.
    const lists: ArrayLike<number>[] = [];
    if (category) lists.push(this.groups.byCategory.get(category.id) ?? []);
    if (brand !== undefined) lists.push(this.groups.byBrand.get(brand) ?? []);
    let haystacks: string[] | undefined;
    if (terms.length > 0) {
      const index = this.index;
      haystacks = index.haystacks;
      for (const term of terms) {
        for (const gram of grams(term)) lists.push(index.postings.get(gram) ?? []);
      }
    }
    const candidates: ArrayLike<number> = lists.length
      ? lists.reduce((best, list) => (list.length < best.length ? list : best))
      : this.allPositions;
    const out: ProductSummary[] = [];
    let skip = filters.offset;
    for (let k = 0; k < candidates.length; k++) {
      const position = candidates[k]!;
      if (categoryCode > 0 && columns.category[position] !== categoryCode) continue;
      if (brandCode > 0 && columns.brand[position] !== brandCode) continue;
      if (frameCode > 0 && columns.frameColor[position] !== frameCode) continue;
      if (lensCode > 0 && columns.lensColor[position] !== lensCode) continue;
      if (featured >= 0 && columns.featured[position] !== featured) continue;
      if (filters.inStock !== undefined && columns.stock[position]! > 0 !== filters.inStock) continue;
      const price = columns.price[position]!;
      if (price < minPrice || price > maxPrice) continue;
      if (haystacks && !terms.every((term) => haystacks[position]!.includes(term))) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(this.summary(ordered[position]!));
      if (out.length >= filters.limit) break;
    }
    return out;
  }
}

/** Whether two versions of a product sit at the same place in the order and the index (price and stock aside). */
function sameListing(a: CatalogProduct, b: CatalogProduct): boolean {
  return (
    a.slug === b.slug && a.name === b.name && a.featured === b.featured && a.categoryId === b.categoryId &&
    a.brand === b.brand && a.frameColor === b.frameColor && a.lensColor === b.lensColor
  );
}

const collator = new Intl.Collator("da", { sensitivity: "base" });
export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

/**
 * Position lists as Int32Arrays: one flat backing store each, which the garbage collector does not trace element by
 * element (millions of postings at 100,000 products would otherwise lengthen every major GC).
 */
function frozen(lists: Map<string, number[]>): Map<string, Int32Array> {
  return new Map([...lists].map(([key, list]) => [key, Int32Array.from(list)]));
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** The n-grams a search term is looked up by: its trigrams, or its bigrams when it has two letters (one letter: none). */
function grams(term: string): string[] {
  return term.length >= 3 ? trigrams(term) : term.length === 2 ? [term] : [];
}

function bigrams(text: string): string[] {
  const grams: string[] = [];
  for (let i = 0; i + 2 <= text.length; i++) grams.push(text.slice(i, i + 2));
  return grams;
}

function trigrams(text: string): string[] {
  const grams: string[] = [];
  for (let i = 0; i + 3 <= text.length; i++) grams.push(text.slice(i, i + 3));
  return grams;
}
