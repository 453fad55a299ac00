// The in-memory read model of the visible catalogue: products.search/get and categories.list are served from it.
// Every catalogue write calls `changed(ctx, …)`: the writing process refreshes before it answers, and a NOTIFY
// (delivered on commit) makes every other process refresh within milliseconds.
import crypto from "node:crypto";
import type { Database } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import type { ToolContext } from "../context.ts";

export const CATALOG_CHANNEL = "shop_catalog";
const MAX_IDS_PER_NOTICE = 200;

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
  /** In creation order (then by sku). */
  variants: Array<{ id: string; sku: string; attributes: Record<string, string>; priceDkk: number | null; stock: number }>;
}

/** Products whose details are kept (the most recently loaded; product pages of a large catalogue stay bounded). */
const MAX_DETAILS = 5_000;

export interface CatalogChange {
  /** Products whose rows, images or visibility changed. */
  productIds?: string[];
  /** Categories changed (names feed product summaries, so everything is rebuilt). */
  categories?: boolean;
}

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

interface Notice extends CatalogChange {
  origin: string;
  all?: boolean;
}

/** One immutable view of the visible catalogue, with its sort order and search index built lazily. */
class Snapshot {
  private orderCache: CatalogProduct[] | undefined;
  private summaryCache = new Map<string, ProductSummary>();
  private indexCache: { haystacks: string[]; postings: Map<string, Int32Array> } | undefined;
  private groupCache: { byCategory: Map<string, Int32Array>; byBrand: Map<string, Int32Array> } | undefined;
  private columnCache: Columns | undefined;
  readonly bySlug: Map<string, CatalogProduct>;
  readonly productCount: Map<string, number>;

  readonly products: Map<string, CatalogProduct>;
  readonly categories: Map<string, CatalogCategory>;

  constructor(products: Map<string, CatalogProduct>, categories: Map<string, CatalogCategory>) {
    this.products = products;
    this.categories = categories;
    this.bySlug = new Map();
    this.productCount = new Map();
    for (const product of products.values()) {
      this.bySlug.set(product.slug, product);
      this.productCount.set(product.categoryId, (this.productCount.get(product.categoryId) ?? 0) + 1);
    }
  }

  private positionsCache: Int32Array | undefined;

  /** 0..n-1: the candidates when no index narrows a search. */
  private get allPositions(): Int32Array {
    this.positionsCache ??= Int32Array.from({ length: this.products.size }, (_, i) => i);
    return this.positionsCache;
  }

  /** Visible products, featured first, then by name (the order every listing uses). */
  get ordered(): CatalogProduct[] {
    this.orderCache ??= [...this.products.values()].sort(
      (a, b) => Number(b.featured) - Number(a.featured) || compareText(a.name, b.name) || compareText(a.slug, b.slug),
    );
    return this.orderCache;
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

export class CatalogReadModel {
  private current = new Snapshot(new Map(), new Map());
  private generation = 0;
  private readonly origin = crypto.randomUUID();
  private queue: Promise<void> = Promise.resolve();
  private stopListening: (() => Promise<void>) | undefined;
  private readonly details = new Map<string, ProductDetails>();
  /** Bumped when a refresh starts: a details read that raced a change is not kept. */
  private detailsEpoch = 0;

  private readonly database: Database;
  private readonly log: Logger;

  constructor(database: Database, log: Logger) {
    this.database = database;
    this.log = log;
  }

  /** Changes whenever the visible catalogue does (serialized results of catalogue reads are cached per version). */
  get version(): number {
    return this.generation;
  }

  private get snapshot(): Snapshot {
    return this.current;
  }

  private set snapshot(next: Snapshot) {
    this.current = next;
    this.generation++;
  }

  /** Loads everything and subscribes to other processes' changes. */
  async start(): Promise<void> {
    await this.enqueue(() => this.reloadAll());
    this.stopListening = await this.database.listen(CATALOG_CHANNEL, (payload) => this.onNotice(payload));
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    await this.queue;
  }

  search(filters: SearchFilters): ProductSummary[] {
    return this.snapshot.search(filters);
  }

  product(slug: string): CatalogProduct | undefined {
    return this.snapshot.bySlug.get(slug);
  }

  category(id: string): CatalogCategory | undefined {
    return this.snapshot.categories.get(id);
  }

  /**
   * Answer content and variants of a visible product: loaded from the database on first use, then kept until the
   * product changes (the same `changed` notices refresh them), so a product page needs no query of its own.
   */
  async productDetails(id: string): Promise<ProductDetails> {
    const cached = this.details.get(id);
    if (cached) return cached;
    const epoch = this.detailsEpoch;
    const [row] = await this.database.query<{ details: string }>(
      `SELECT json_build_object(
                'answerSummary', p."answerSummary", 'faq', p.faq, 'useCases', p."useCases",
                'comparisonFacts', p."comparisonFacts", 'attributes', p.attributes,
                'variants', COALESCE((SELECT json_agg(json_build_object('id', v.id, 'sku', v.sku, 'attributes', v.attributes,
                                                                        'priceDkk', v."priceDkk", 'stock', v.stock)
                                                      ORDER BY v."createdAt", v.sku)
                                        FROM "ProductVariant" v WHERE v."productId" = p.id), '[]'::json)
              )::text AS details
         FROM "Product" p WHERE p.id = $1`,
      [id],
    );
    if (!row) throw new Error(`Product ${id} is in the read model but not in the database.`);
    const details = JSON.parse(row.details) as ProductDetails;
    if (epoch === this.detailsEpoch) {
      if (this.details.size >= MAX_DETAILS) this.details.delete(this.details.keys().next().value!);
      this.details.set(id, details);
    }
    return details;
  }

  categories(): Array<CatalogCategory & { productCount: number }> {
    const counts = this.snapshot.productCount;
    return [...this.snapshot.categories.values()]
      .map((category) => ({ ...category, productCount: counts.get(category.id) ?? 0 }))
      .sort((a, b) => compareText(a.name, b.name));
  }

  /**
   * Declares a catalogue change inside a write tool's transaction: NOTIFY is sent on commit,
   * and this process refreshes after commit, before the tool answers.
   */
  async changed(ctx: ToolContext, change: CatalogChange): Promise<void> {
    const notice: Notice = { origin: this.origin, ...change };
    if ((change.productIds?.length ?? 0) > MAX_IDS_PER_NOTICE) {
      delete notice.productIds;
      notice.all = true;
    }
    await ctx.db.$executeRaw`SELECT pg_notify(${CATALOG_CHANNEL}, ${JSON.stringify(notice)})`;
    ctx.afterCommit(() => this.apply(notice));
  }

  /** Reloads after an out-of-band change (seeding, tests). */
  async reload(): Promise<void> {
    await this.enqueue(() => this.reloadAll());
  }

  private onNotice(payload: string): void {
    let notice: Notice;
    try {
      notice = JSON.parse(payload) as Notice;
    } catch {
      return;
    }
    if (notice.origin === this.origin) return;
    this.apply(notice).catch((error: unknown) => this.log.error("catalogue refresh failed", { error: String(error) }));
  }

  private apply(notice: Notice): Promise<void> {
    if (notice.all || notice.categories) return this.enqueue(() => this.reloadAll());
    const ids = notice.productIds ?? [];
    return ids.length ? this.enqueue(() => this.reloadProducts(ids)) : Promise.resolve();
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reloadAll(): Promise<void> {
    this.detailsEpoch++;
    this.details.clear();
    const categories = await this.database.query<CatalogCategory>(
      `SELECT id, slug, name, description FROM "Category"`,
    );
    const products = await this.loadProducts(null);
    this.snapshot = new Snapshot(products, new Map(categories.map((c) => [c.id, c])));
  }

  private async reloadProducts(ids: string[]): Promise<void> {
    this.detailsEpoch++;
    for (const id of ids) this.details.delete(id);
    const fresh = await this.loadProducts(ids);
    const products = new Map(this.snapshot.products);
    for (const id of ids) {
      const product = fresh.get(id);
      if (product) products.set(id, product);
      else products.delete(id);
    }
    this.snapshot = new Snapshot(products, this.snapshot.categories);
  }

  /** Visible (non-deleted) products with their images; all of them, or those with the given ids. */
  private async loadProducts(ids: string[] | null): Promise<Map<string, CatalogProduct>> {
    const where = ids ? `AND p.id = ANY($1::text[])` : "";
    const params = ids ? [ids] : [];
    const rows = await this.database.query<Omit<CatalogProduct, "images" | "priceDkk" | "stock" | "keys"> & {
      priceDkk: string;
      stock: string;
    }>(
      `SELECT p.id, p.slug, p.name, p.brand, p.description, p."priceDkk"::text AS "priceDkk", p.stock::text AS stock,
              p.featured, p."frameColor", p."lensColor", p."categoryId",
              to_char(p."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
         FROM "Product" p WHERE p."deletedAt" IS NULL ${where}`,
      params,
    );
    const images = await this.database.query<{ productId: string; url: string }>(
      `SELECT i."productId", i.url FROM "ProductImage" i JOIN "Product" p ON p.id = i."productId"
        WHERE p."deletedAt" IS NULL ${where} ORDER BY i."productId", i.position, i."createdAt"`,
      params,
    );
    const byProduct = new Map<string, string[]>();
    for (const image of images) {
      let list = byProduct.get(image.productId);
      if (!list) byProduct.set(image.productId, (list = []));
      list.push(image.url);
    }
    const products = new Map<string, CatalogProduct>();
    for (const row of rows) {
      // One literal shape for every product (not a spread of the driver's row): the search loop reads these
      // fields for thousands of products per request, and spread copies of driver rows fall back to slow properties.
      products.set(row.id, {
        id: row.id,
        slug: row.slug,
        name: row.name,
        brand: row.brand,
        description: row.description,
        priceDkk: Number(row.priceDkk),
        stock: Number(row.stock),
        featured: row.featured === true,
        frameColor: row.frameColor,
        lensColor: row.lensColor,
        categoryId: row.categoryId,
        images: byProduct.get(row.id) ?? [],
        createdAt: row.createdAt,
        keys: { brand: lower(row.brand), frameColor: lower(row.frameColor), lensColor: lower(row.lensColor) },
      });
    }
    return products;
  }
}

const collator = new Intl.Collator("da", { sensitivity: "base" });
function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

/**
 * Position lists as Int32Arrays: one flat backing store each, which the garbage collector does not trace element by
 * element (millions of postings at 100,000 products would otherwise lengthen every major GC).
 */
function frozen(lists: Map<string, number[]>): Map<string, Int32Array> {
  return new Map([...lists].map(([key, list]) => [key, Int32Array.from(list)]));
}

function lower(text: string | null): string | null {
  return text === null ? null : text.toLowerCase();
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
