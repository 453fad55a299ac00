// The in-memory read model of the visible catalogue: products.search/get and categories.list are served from it.
// Every catalogue write calls `changed(ctx, …)`: the writing process refreshes before it answers, and a NOTIFY
// (delivered on commit) makes every other process refresh within milliseconds.
import crypto from "node:crypto";
import type { Database } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import type { ChangeScope } from "../change-scope.ts";
import type { CatalogCategory, CatalogChange, CatalogProduct, ProductDetails, ProductSummary, SearchFilters } from "./catalog-model.ts";
import { compareText, Snapshot } from "./catalog-snapshot.ts";

export const CATALOG_CHANNEL = "shop_catalog";
const MAX_IDS_PER_NOTICE = 200;

/** Products whose details are kept (the most recently loaded; product pages of a large catalogue stay bounded). */
const MAX_DETAILS = 5_000;

interface Notice extends CatalogChange {
  origin: string;
  all?: boolean;
}

export class CatalogReadModel {
  private current = new Snapshot(new Map(), new Map());
  /** Drafts (saved, not published): never in the shoppers' catalogue, read by staff only (`drafts: true`). */
  private drafts = new Snapshot(new Map(), new Map());
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

  /** The visible catalogue, or with `drafts` the unpublished drafts instead. */
  search(filters: SearchFilters, drafts = false): ProductSummary[] {
    return (drafts ? this.drafts : this.snapshot).search(filters);
  }

  /** A visible product, or with `drafts` a draft instead. */
  product(slug: string, drafts = false): CatalogProduct | undefined {
    return (drafts ? this.drafts : this.snapshot).bySlug.get(slug);
  }

  /** A visible product by its id. */
  productById(id: string): CatalogProduct | undefined {
    return this.snapshot.products.get(id);
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

  /** Every visible product, in no particular order (feeds and exports walk the whole catalogue). */
  products(): CatalogProduct[] {
    return [...this.snapshot.products.values()];
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
  async changed(ctx: ChangeScope, change: CatalogChange): Promise<void> {
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
    const { products, drafts } = await this.loadProducts(null);
    const byId = new Map(categories.map((c) => [c.id, c]));
    this.drafts = new Snapshot(drafts, byId);
    this.snapshot = new Snapshot(products, byId);
  }

  private async reloadProducts(ids: string[]): Promise<void> {
    this.detailsEpoch++;
    for (const id of ids) this.details.delete(id);
    const fresh = await this.loadProducts(ids);
    const products = new Map(this.snapshot.products);
    const drafts = new Map(this.drafts.products);
    for (const id of ids) {
      const product = fresh.products.get(id);
      if (product) products.set(id, product);
      else products.delete(id);
      const draft = fresh.drafts.get(id);
      if (draft) drafts.set(id, draft);
      else drafts.delete(id);
    }
    this.drafts = new Snapshot(drafts, this.snapshot.categories);
    this.snapshot = new Snapshot(products, this.snapshot.categories);
  }

  /** Non-deleted products with their images, published and drafts apart; all of them, or those with the given ids. */
  private async loadProducts(ids: string[] | null): Promise<{ products: Map<string, CatalogProduct>; drafts: Map<string, CatalogProduct> }> {
    const where = ids ? `AND p.id = ANY($1::text[])` : "";
    const params = ids ? [ids] : [];
    const rows = await this.database.query<Omit<CatalogProduct, "images" | "priceDkk" | "stock" | "keys"> & {
      priceDkk: string;
      stock: string;
      draft: boolean;
    }>(
      `SELECT p.id, p.slug, p.name, p.brand, p.description, p."priceDkk"::text AS "priceDkk", p.stock::text AS stock,
              p.featured, p.draft, p."frameColor", p."lensColor", p."categoryId",
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
    const drafts = new Map<string, CatalogProduct>();
    for (const row of rows) {
      // One literal shape for every product (not a spread of the driver's row): the search loop reads these
      // fields for thousands of products per request, and spread copies of driver rows fall back to slow properties.
      (row.draft === true ? drafts : products).set(row.id, {
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
    return { products, drafts };
  }
}

function lower(text: string | null): string | null {
  return text === null ? null : text.toLowerCase();
}

