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

export interface CatalogChange {
  /** Products whose rows, images or visibility changed. */
  productIds?: string[];
  /** Categories changed (names feed product summaries, so everything is rebuilt). */
  categories?: boolean;
}

interface Notice extends CatalogChange {
  origin: string;
  all?: boolean;
}

/** One immutable view of the visible catalogue, with its sort order and search index built lazily. */
class Snapshot {
  private orderCache: CatalogProduct[] | undefined;
  private summaryCache = new Map<string, ProductSummary>();
  private indexCache: { haystacks: string[]; postings: Map<string, number[]> } | undefined;
  readonly bySlug: Map<string, CatalogProduct>;
  readonly productCount: Map<string, number>;

  constructor(
    readonly products: Map<string, CatalogProduct>,
    readonly categories: Map<string, CatalogCategory>,
  ) {
    this.bySlug = new Map();
    this.productCount = new Map();
    for (const product of products.values()) {
      this.bySlug.set(product.slug, product);
      this.productCount.set(product.categoryId, (this.productCount.get(product.categoryId) ?? 0) + 1);
    }
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

  /** Trigram postings over name, brand, category and colours; positions refer to `ordered`. */
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
        for (const gram of new Set(trigrams(text))) {
          let list = postings.get(gram);
          if (!list) postings.set(gram, (list = []));
          list.push(position);
        }
      });
      this.indexCache = { haystacks, postings };
    }
    return this.indexCache;
  }

  search(filters: SearchFilters): ProductSummary[] {
    const ordered = this.ordered;
    const terms = filters.q ? normalise(filters.q).split(" ").filter(Boolean) : [];
    let candidates: Iterable<number> = range(ordered.length);
    let haystacks: string[] | undefined;
    if (terms.length > 0) {
      const index = this.index;
      haystacks = index.haystacks;
      let best: number[] | undefined;
      for (const term of terms) {
        if (term.length < 3) continue;
        for (const gram of trigrams(term)) {
          const list = index.postings.get(gram) ?? [];
          if (!best || list.length < best.length) best = list;
        }
      }
      if (best) candidates = best;
    }
    const category = filters.categorySlug
      ? [...this.categories.values()].find((c) => c.slug === filters.categorySlug)
      : undefined;
    if (filters.categorySlug && !category) return [];
    const brand = filters.brand?.toLowerCase();
    const frameColor = filters.frameColor?.toLowerCase();
    const lensColor = filters.lensColor?.toLowerCase();
    const out: ProductSummary[] = [];
    let skip = filters.offset;
    for (const position of candidates) {
      const product = ordered[position]!;
      if (category && product.categoryId !== category.id) continue;
      if (filters.featured !== undefined && product.featured !== filters.featured) continue;
      if (filters.inStock !== undefined && product.stock > 0 !== filters.inStock) continue;
      if (filters.minPriceOere !== undefined && product.priceDkk < filters.minPriceOere) continue;
      if (filters.maxPriceOere !== undefined && product.priceDkk > filters.maxPriceOere) continue;
      if (brand !== undefined && product.brand?.toLowerCase() !== brand) continue;
      if (frameColor !== undefined && product.frameColor?.toLowerCase() !== frameColor) continue;
      if (lensColor !== undefined && product.lensColor?.toLowerCase() !== lensColor) continue;
      if (haystacks && !terms.every((term) => haystacks[position]!.includes(term))) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(this.summary(product));
      if (out.length >= filters.limit) break;
    }
    return out;
  }
}

export class CatalogReadModel {
  private snapshot = new Snapshot(new Map(), new Map());
  private readonly origin = crypto.randomUUID();
  private queue: Promise<void> = Promise.resolve();
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
  ) {}

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
    const categories = await this.database.query<CatalogCategory>(
      `SELECT id, slug, name, description FROM "Category"`,
    );
    const products = await this.loadProducts(null);
    this.snapshot = new Snapshot(products, new Map(categories.map((c) => [c.id, c])));
  }

  private async reloadProducts(ids: string[]): Promise<void> {
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
    const rows = await this.database.query<Omit<CatalogProduct, "images" | "priceDkk" | "stock"> & {
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
      products.set(row.id, {
        ...row,
        priceDkk: Number(row.priceDkk),
        stock: Number(row.stock),
        images: byProduct.get(row.id) ?? [],
      });
    }
    return products;
  }
}

const collator = new Intl.Collator("da", { sensitivity: "base" });
function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

function trigrams(text: string): string[] {
  const grams: string[] = [];
  for (let i = 0; i + 3 <= text.length; i++) grams.push(text.slice(i, i + 3));
  return grams;
}

function* range(n: number): Iterable<number> {
  for (let i = 0; i < n; i++) yield i;
}
