// The catalogue kept whole in this process's memory (the embedded database's store, see catalog-engine.ts): every
// visible product and draft, searched by memory-index.ts. A change reloads only the products it names and updates them
// in place; stock is written into the loaded products without touching anything else.
import type { Database } from "../../core/db.ts";
import type { CatalogCategory, CatalogProduct, CatalogStore, CountedCategory, ProductSummary, SearchFilters } from "./catalog-model.ts";
import { compareText, MemoryIndex } from "./memory-index.ts";

export class MemoryCatalog implements CatalogStore {
  builds = 0;
  private readonly built = () => void this.builds++;
  private published = new MemoryIndex([], new Map(), this.built);
  /** Drafts (saved, not published): never in the shoppers' catalogue, read by staff only (`drafts: true`). */
  private drafts = new MemoryIndex([], new Map(), this.built);

  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async reloadAll(): Promise<void> {
    const categories = await this.database.query<CatalogCategory>(`SELECT id, slug, name, description FROM "Category"`);
    const byId = new Map(categories.map((c) => [c.id, c]));
    const { products, drafts } = await loadProducts(this.database, null);
    this.builds++;
    this.drafts = new MemoryIndex(drafts, byId, this.built);
    this.published = new MemoryIndex(products, byId, this.built);
  }

  async reloadProducts(ids: string[]): Promise<void> {
    const fresh = await loadProducts(this.database, ids);
    const published = new Map(fresh.products.map((product) => [product.id, product]));
    const drafts = new Map(fresh.drafts.map((product) => [product.id, product]));
    for (const id of ids) {
      place(this.published, id, published.get(id));
      place(this.drafts, id, drafts.get(id));
    }
  }

  async reloadStock(ids: string[]): Promise<void> {
    const rows = await this.database.query<{ id: string; stock: string }>(`SELECT id, stock::text AS stock FROM "Product" WHERE id = ANY($1::text[])`, [ids]);
    for (const row of rows) {
      for (const shelf of [this.published, this.drafts]) {
        const product = shelf.products.get(row.id);
        if (product) shelf.put({ ...product, stock: Number(row.stock) });
      }
    }
  }

  async search(filters: SearchFilters, drafts: boolean): Promise<ProductSummary[]> {
    return (drafts ? this.drafts : this.published).search(filters);
  }

  async product(slug: string, drafts: boolean): Promise<CatalogProduct | undefined> {
    return (drafts ? this.drafts : this.published).bySlug.get(slug);
  }

  async productById(id: string): Promise<CatalogProduct | undefined> {
    return this.published.products.get(id);
  }

  category(id: string): CatalogCategory | undefined {
    return this.published.categories.get(id);
  }

  async categories(): Promise<CountedCategory[]> {
    const counts = this.published.productCount;
    return [...this.published.categories.values()]
      .map((category) => ({ ...category, productCount: counts.get(category.id) ?? 0 }))
      .sort((a, b) => compareText(a.name, b.name));
  }

  async products(): Promise<CatalogProduct[]> {
    return [...this.published.products.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  }
}

function place(shelf: MemoryIndex, id: string, product: CatalogProduct | undefined): void {
  if (product) shelf.put(product);
  else shelf.remove(id);
}

type ProductRow = Omit<CatalogProduct, "images" | "priceDkk" | "stock" | "keys"> & { priceDkk: string; stock: string; draft: boolean };

/** The columns of a catalogue product, for `FROM "Product" p` (money and stock as text: bigint). */
export const PRODUCT_COLUMNS = `p.id, p.slug, p.name, p.brand, p.description, p."priceDkk"::text AS "priceDkk", p.stock::text AS stock,
  p.featured, p.draft, p."frameColor", p."lensColor", p."categoryId",
  to_char(p."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

/** Non-deleted products with their images, published and drafts apart; all of them, or those with the given ids. */
async function loadProducts(database: Database, ids: string[] | null): Promise<{ products: CatalogProduct[]; drafts: CatalogProduct[] }> {
  const where = ids ? `AND p.id = ANY($1::text[])` : "";
  const params = ids ? [ids] : [];
  const rows = await database.query<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM "Product" p WHERE p."deletedAt" IS NULL ${where}`, params);
  const images = await database.query<{ productId: string; url: string }>(
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
  const products: CatalogProduct[] = [];
  const drafts: CatalogProduct[] = [];
  for (const row of rows) (row.draft === true ? drafts : products).push(catalogProduct(row, byProduct.get(row.id) ?? []));
  return { products, drafts };
}

/**
 * One literal shape for every product (not a spread of the driver's row): the search loop reads these fields for
 * thousands of products per request, and spread copies of driver rows fall back to slow properties.
 */
export function catalogProduct(row: ProductRow, images: string[]): CatalogProduct {
  return {
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
    images,
    createdAt: row.createdAt,
    keys: { brand: lower(row.brand), frameColor: lower(row.frameColor), lensColor: lower(row.lensColor) },
  };
}

function lower(text: string | null): string | null {
  return text === null ? null : text.toLowerCase();
}
