// The catalogue read from PostgreSQL's own indexes (catalog-engine.ts): searches are SQL (sql-search.ts), products are
// read by slug or id and kept in a bounded cache, categories (few) are kept whole. A change evicts the products it names
// and nothing else, so a process's memory and a write's cost stay the same at any catalogue size.
import type { Database } from "../../core/db.ts";
import type { CatalogCategory, CatalogProduct, CatalogStore, CountedCategory, ProductSummary, SearchFilters } from "./catalog-model.ts";
import { catalogProduct, PRODUCT_COLUMNS } from "./memory-catalog.ts";
import { compareText } from "./memory-index.ts";
import { sqlSearch, WALK_DEFAULT } from "./sql-search.ts";

/** Products kept per process (the most recently read): product pages and lookups of hot products ask nothing. */
const MAX_PRODUCTS = 10_000;

interface Cached {
  product: CatalogProduct;
  draft: boolean;
}

type Row = Parameters<typeof catalogProduct>[0] & { images: string[] };

const SELECT = `SELECT ${PRODUCT_COLUMNS},
  COALESCE((SELECT array_agg(i.url ORDER BY i.position, i."createdAt") FROM "ProductImage" i WHERE i."productId" = p.id), '{}') AS images
  FROM "Product" p WHERE p."deletedAt" IS NULL`;

export class SqlCatalog implements CatalogStore {
  builds = 0;
  private categoryMap = new Map<string, CatalogCategory>();
  private counts: Map<string, number> | undefined;
  private readonly byId = new Map<string, Cached>();
  private readonly bySlug = new Map<string, string>();
  /** Bumped by every change that evicts products; `evicted` says when each of the latest was evicted. */
  private epoch = 0;
  private readonly evicted = new Map<string, number>();
  /** The epoch of the latest eviction `evicted` no longer remembers: a read started before it is not kept. */
  private forgotten = 0;
  /** Bumped by every change that may move category counts: a count that raced one is not kept. */
  private countsEpoch = 0;

  private readonly database: Database;
  private readonly walk: number;

  /** `walk`: see WALK_DEFAULT (tests make it small to take the other path on a small catalogue). */
  constructor(database: Database, walk = WALK_DEFAULT) {
    this.database = database;
    this.walk = walk;
  }

  async reloadAll(): Promise<void> {
    this.forgotten = ++this.epoch;
    this.countsEpoch++;
    const categories = await this.database.query<CatalogCategory>(`SELECT id, slug, name, description FROM "Category"`);
    this.categoryMap = new Map(categories.map((c) => [c.id, c]));
    this.counts = undefined;
    this.byId.clear();
    this.bySlug.clear();
  }

  async reloadProducts(ids: string[], moved: boolean): Promise<void> {
    this.evict(ids);
    if (moved) {
      this.counts = undefined;
      this.countsEpoch++;
    }
  }

  async reloadStock(ids: string[]): Promise<void> {
    this.evict(ids);
  }

  search(filters: SearchFilters, drafts: boolean): Promise<ProductSummary[]> {
    return sqlSearch(this.database, this.categoryMap, filters, drafts, this.walk);
  }

  async product(slug: string, drafts: boolean): Promise<CatalogProduct | undefined> {
    const id = this.bySlug.get(slug);
    const cached = id === undefined ? (await this.load(`p.slug = $1`, slug)) : this.touch(id);
    return cached && cached.draft === drafts ? cached.product : undefined;
  }

  async productById(id: string): Promise<CatalogProduct | undefined> {
    const cached = this.byId.has(id) ? this.touch(id) : await this.load(`p.id = $1`, id);
    return cached && !cached.draft ? cached.product : undefined;
  }

  category(id: string): CatalogCategory | undefined {
    return this.categoryMap.get(id);
  }

  async categories(): Promise<CountedCategory[]> {
    let counts = this.counts;
    if (!counts) {
      const epoch = this.countsEpoch;
      const rows = await this.database.query<{ categoryId: string; count: number }>(
        `SELECT "categoryId", count(*)::int AS count FROM "Product" WHERE "deletedAt" IS NULL AND NOT draft GROUP BY "categoryId"`,
      );
      this.builds++;
      counts = new Map(rows.map((row) => [row.categoryId, row.count]));
      if (epoch === this.countsEpoch) this.counts = counts;
    }
    return [...this.categoryMap.values()]
      .map((category) => ({ ...category, productCount: counts.get(category.id) ?? 0 }))
      .sort((a, b) => compareText(a.name, b.name));
  }

  async products(): Promise<CatalogProduct[]> {
    const rows = await this.database.query<Row>(`${SELECT} AND NOT p.draft ORDER BY p.slug COLLATE "C"`);
    return rows.map((row) => catalogProduct(row, row.images));
  }

  /** A cached product, moved to the young end of the cache. */
  private touch(id: string): Cached | undefined {
    const cached = this.byId.get(id);
    if (cached) {
      this.byId.delete(id);
      this.byId.set(id, cached);
    }
    return cached;
  }

  /** Reads one non-deleted product (published or draft) and keeps it, unless a change raced the read. */
  private async load(condition: string, value: string): Promise<Cached | undefined> {
    const epoch = this.epoch;
    const [row] = await this.database.query<Row & { draft: boolean }>(`${SELECT} AND ${condition}`, [value]);
    if (!row) return undefined;
    const cached = { product: catalogProduct(row, row.images), draft: row.draft };
    if ((this.evicted.get(row.id) ?? 0) <= epoch && this.forgotten <= epoch) {
      if (this.byId.size >= MAX_PRODUCTS) this.drop(this.byId.keys().next().value!);
      this.byId.set(row.id, cached);
      this.bySlug.set(row.slug, row.id);
    }
    return cached;
  }

  private evict(ids: string[]): void {
    this.epoch++;
    for (const id of ids) {
      this.evicted.delete(id);
      this.evicted.set(id, this.epoch);
      if (this.evicted.size > MAX_PRODUCTS) {
        const [oldest, at] = this.evicted.entries().next().value!;
        this.evicted.delete(oldest);
        this.forgotten = at;
      }
      this.drop(id);
    }
  }

  private drop(id: string): void {
    const cached = this.byId.get(id);
    if (!cached) return;
    this.byId.delete(id);
    this.bySlug.delete(cached.product.slug);
  }
}
