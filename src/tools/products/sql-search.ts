// products.search as one SQL query over the catalogue-search indexes (prisma/migrations/*_catalog_search): the same
// rule and order as the in-memory index (memory-index.ts). Every word is a part of the name, brand, a colour or the
// category's name; featured first, then by name in Danish order. Only when no product has every word do the words match
// by their Danish stems without accents, or by a close spelling (a typo), in the same order.
import type { Database } from "../../core/db.ts";
import type { CatalogCategory, ProductSummary, SearchFilters } from "./catalog-model.ts";

const TEXT = `catalog_text(p.name, p.brand, p."frameColor", p."lensColor")`;
const ORDER = `p.featured DESC, p.name COLLATE catalog_order, p.slug COLLATE catalog_order`;

interface Row {
  id: string;
  slug: string;
  name: string;
  brand: string | null;
  priceDkk: string;
  stock: string;
  featured: boolean;
  frameColor: string | null;
  lensColor: string | null;
  categoryId: string;
  firstImage: string | null;
}

/** Positional parameters of one query. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export async function sqlSearch(database: Database, categories: Map<string, CatalogCategory>, filters: SearchFilters, drafts: boolean): Promise<ProductSummary[]> {
  const terms = filters.q ? filters.q.toLowerCase().split(/\s+/).filter(Boolean) : [];
  const category = filters.categorySlug === undefined ? undefined : [...categories.values()].find((c) => c.slug === filters.categorySlug);
  if (filters.categorySlug !== undefined && !category) return [];
  const page = async (match: (params: Params) => Promise<string[]>, limit: number, offset: number) => {
    const params = new Params();
    const where = [`p."deletedAt" IS NULL`, drafts ? `p.draft` : `NOT p.draft`, ...filterClauses(filters, category, params), ...(await match(params))];
    return database.query<Row>(
      `SELECT p.id, p.slug, p.name, p.brand, p."priceDkk"::text AS "priceDkk", p.stock::text AS stock, p.featured,
              p."frameColor", p."lensColor", p."categoryId",
              (SELECT i.url FROM "ProductImage" i WHERE i."productId" = p.id ORDER BY i.position, i."createdAt" LIMIT 1) AS "firstImage"
         FROM "Product" p WHERE ${where.join(" AND ")}
        ORDER BY ${ORDER} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
      params.values,
    );
  };
  const exact = async (params: Params) => terms.map((term) => exactClause(term, categories, params));
  let rows = await page(exact, filters.limit, filters.offset);
  // No product has every word (not even before this page): the nearest ones instead.
  if (rows.length === 0 && terms.length > 0 && (filters.offset === 0 || (await page(exact, 1, 0)).length === 0)) {
    rows = await page((params) => Promise.all(terms.map((term) => nearClause(database, term, params))), filters.limit, filters.offset);
  }
  return rows.map((row) => {
    const own = categories.get(row.categoryId);
    return {
      id: row.id,
      slug: row.slug,
      name: row.name,
      brand: row.brand,
      priceDkk: Number(row.priceDkk),
      stock: Number(row.stock),
      featured: row.featured,
      frameColor: row.frameColor,
      lensColor: row.lensColor,
      categorySlug: own?.slug ?? "",
      categoryName: own?.name ?? "",
      firstImage: row.firstImage,
    };
  });
}

function filterClauses(filters: SearchFilters, category: CatalogCategory | undefined, params: Params): string[] {
  const clauses: string[] = [];
  if (category) clauses.push(`p."categoryId" = ${params.add(category.id)}`);
  if (filters.brand !== undefined) clauses.push(`lower(p.brand) = ${params.add(filters.brand.toLowerCase())}`);
  if (filters.frameColor !== undefined) clauses.push(`lower(p."frameColor") = ${params.add(filters.frameColor.toLowerCase())}`);
  if (filters.lensColor !== undefined) clauses.push(`lower(p."lensColor") = ${params.add(filters.lensColor.toLowerCase())}`);
  if (filters.featured !== undefined) clauses.push(filters.featured ? `p.featured` : `NOT p.featured`);
  if (filters.inStock !== undefined) clauses.push(filters.inStock ? `p.stock > 0` : `p.stock <= 0`);
  if (filters.minPriceOere !== undefined) clauses.push(`p."priceDkk" >= ${params.add(filters.minPriceOere)}`);
  if (filters.maxPriceOere !== undefined) clauses.push(`p."priceDkk" <= ${params.add(filters.maxPriceOere)}`);
  return clauses;
}

/** The word is a part of the product's own text (trigram index) or of its category's name (categories are in memory). */
function exactClause(term: string, categories: Map<string, CatalogCategory>, params: Params): string {
  const text = `${TEXT} LIKE ${params.add(`%${term.replace(/[\\%_]/g, "\\$&")}%`)}`;
  const named = [...categories.values()].filter((c) => c.name.toLowerCase().includes(term)).map((c) => c.id);
  return named.length ? `(${text} OR p."categoryId" = ANY(${params.add(named)}::text[]))` : text;
}

/** The word's Danish stem without accents is one of the product's (full-text index), or it is spelt close to one of its words (trigram word similarity), or to its category's. */
async function nearClause(database: Database, term: string, params: Params): Promise<string> {
  const named = await database.query<{ id: string }>(
    `SELECT id FROM "Category"
      WHERE to_tsvector('catalog_danish', lower(name)) @@ plainto_tsquery('catalog_danish', $1) OR $1 <% lower(name)`,
    [term],
  );
  const word = params.add(term);
  const text = `(to_tsvector('catalog_danish', ${TEXT}) @@ plainto_tsquery('catalog_danish', ${word}) OR ${word} <% ${TEXT})`;
  return named.length ? `(${text} OR p."categoryId" = ANY(${params.add(named.map((c) => c.id))}::text[]))` : text;
}
