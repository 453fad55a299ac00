// The read model of the visible catalogue: products.search/get and categories.list are served from it, out of one of
// two stores (catalog-engine.ts decides): the whole catalogue in memory, or the database's indexes with bounded caches.
// Every catalogue write calls `changed(ctx, …)`: the writing process refreshes the products it names before it answers,
// and a NOTIFY (delivered on commit) makes every other process refresh those same products within milliseconds.
import crypto from "node:crypto";
import type { Database } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import type { ChangeScope } from "../change-scope.ts";
import { catalogEngine, type CatalogEngine } from "./catalog-engine.ts";
import type { CatalogCategory, CatalogChange, CatalogProduct, CatalogStore, CountedCategory, ProductDetails, ProductSummary, SearchFilters } from "./catalog-model.ts";
import { MemoryCatalog } from "./memory-catalog.ts";
import { SqlCatalog } from "./sql-catalog.ts";

const CATALOG_CHANNEL = "shop_catalog";
/** NOTIFY payloads are limited to 8000 bytes: a notice naming more products tells the other processes to reload all. */
const MAX_IDS_PER_NOTICE = 200;

/** Products whose details are kept (the most recently loaded; product pages of a large catalogue stay bounded). */
const MAX_DETAILS = 5_000;

interface Notice extends CatalogChange {
  origin: string;
  all?: boolean;
}

export class CatalogReadModel {
  private store: CatalogStore;
  private generation = 0;
  private readonly origin = crypto.randomUUID();
  private queue: Promise<void> = Promise.resolve();
  private stopListening: (() => Promise<void>) | undefined;
  /** Set once loaded: a model never loaded (a CLI's executor) only notifies the processes that serve the catalogue. */
  private loaded = false;
  private readonly details = new Map<string, ProductDetails>();
  /** Bumped when a refresh starts: a details read that raced a change is not kept. */
  private detailsEpoch = 0;

  private readonly database: Database;
  private readonly log: Logger;

  constructor(database: Database, log: Logger) {
    this.database = database;
    this.log = log;
    this.store = new MemoryCatalog(database);
  }

  /** Changes whenever the visible catalogue does (serialized results of catalogue reads are cached per version). */
  get version(): number {
    return this.generation;
  }

  /** Which store serves this process (chosen by catalogEngine when the model starts or reloads). */
  get engine(): CatalogEngine {
    return this.store instanceof SqlCatalog ? "sql" : "memory";
  }

  /** How often the whole catalogue has been read or indexed (see CatalogStore.builds). */
  get builds(): number {
    return this.store.builds;
  }

  /** Chooses the store, loads it and subscribes to other processes' changes. */
  async start(): Promise<void> {
    await this.reload();
    this.stopListening = await this.database.listen(CATALOG_CHANNEL, (payload) => this.onNotice(payload));
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    await this.queue;
  }

  /** The visible catalogue, or with `drafts` the unpublished drafts instead. */
  search(filters: SearchFilters, drafts = false): Promise<ProductSummary[]> {
    return this.store.search(filters, drafts);
  }

  /** A visible product, or with `drafts` a draft instead. */
  product(slug: string, drafts = false): Promise<CatalogProduct | undefined> {
    return this.store.product(slug, drafts);
  }

  /** A visible product by its id. */
  productById(id: string): Promise<CatalogProduct | undefined> {
    return this.store.productById(id);
  }

  category(id: string): CatalogCategory | undefined {
    return this.store.category(id);
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
                'comparisonFacts', p."comparisonFacts", 'attributes', p.attributes, 'giftCard', p."giftCard",
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

  /** Every visible product, by slug (feeds and exports walk the whole catalogue). */
  products(): Promise<CatalogProduct[]> {
    return this.store.products();
  }

  /**
   * The variants of every visible product in one query (a feed of the whole catalogue would otherwise ask once per
   * product), in the order productDetails gives them.
   */
  async allVariants(): Promise<Map<string, ProductDetails["variants"]>> {
    const rows = await this.database.query<{ productId: string; id: string; sku: string; attributes: Record<string, string>; priceDkk: string | null; stock: string }>(
      `SELECT v."productId", v.id, v.sku, v.attributes, v."priceDkk"::text AS "priceDkk", v.stock::text AS stock
         FROM "ProductVariant" v JOIN "Product" p ON p.id = v."productId"
        WHERE p."deletedAt" IS NULL AND NOT p.draft ORDER BY v."productId", v."createdAt", v.sku`,
    );
    const byProduct = new Map<string, ProductDetails["variants"]>();
    for (const row of rows) {
      let list = byProduct.get(row.productId);
      if (!list) byProduct.set(row.productId, (list = []));
      list.push({ id: row.id, sku: row.sku, attributes: row.attributes ?? {}, priceDkk: row.priceDkk === null ? null : Number(row.priceDkk), stock: Number(row.stock) });
    }
    return byProduct;
  }

  /** The categories by name, with their counts of visible products. */
  categories(): Promise<CountedCategory[]> {
    return this.store.categories();
  }

  /**
   * Declares a catalogue change inside a write tool's transaction: NOTIFY is sent on commit,
   * and this process refreshes after commit, before the tool answers.
   */
  async changed(ctx: ChangeScope, change: CatalogChange): Promise<void> {
    const notice: Notice = { origin: this.origin, ...change };
    if ((change.productIds?.length ?? 0) + (change.stock?.length ?? 0) > MAX_IDS_PER_NOTICE) {
      delete notice.productIds;
      delete notice.stock;
      notice.all = true;
    }
    await ctx.db.$executeRaw`SELECT pg_notify(${CATALOG_CHANNEL}, ${JSON.stringify(notice)})`;
    // This process applies the change itself, with every id it names.
    if (this.loaded) ctx.afterCommit(() => this.apply({ origin: this.origin, ...change }));
  }

  /** Chooses the store and reloads it after an out-of-band change (seeding, an import, tests). */
  async reload(): Promise<void> {
    await this.enqueue(async () => {
      const engine = await catalogEngine(this.database);
      if (engine !== this.engine) this.store = engine === "sql" ? new SqlCatalog(this.database) : new MemoryCatalog(this.database);
      await this.reloadAll();
      this.loaded = true;
    });
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
    const stock = (notice.stock ?? []).filter((id) => !ids.includes(id));
    if (!ids.length && !stock.length) return Promise.resolve();
    return this.enqueue(async () => {
      this.detailsEpoch++;
      for (const id of [...ids, ...stock]) this.details.delete(id);
      if (ids.length) await this.store.reloadProducts(ids, notice.keepsCategories !== true);
      if (stock.length) await this.store.reloadStock(stock);
      this.generation++;
    });
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reloadAll(): Promise<void> {
    this.detailsEpoch++;
    this.details.clear();
    await this.store.reloadAll();
    this.generation++;
  }
}
