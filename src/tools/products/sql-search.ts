// products.search in SQL over the catalogue-search indexes (prisma/migrations/*_catalog_search, *_catalog_rank): the
// same rule and order as the in-memory index (memory-index.ts). Every word is a part of the name, brand, a colour or the
// category's name; featured first, then by name in Danish order. Only when no product has every word do the words match
// by their Danish stems without accents, or by a close spelling (a typo), in the same order. The order is the product's
// "listingRank" (a number kept in that order; equal ranks, rare, are ordered by name and slug), so hits sort as numbers
// and a walk of the listing reads one covering index.
import type { Database } from "../../core/db.ts";
import type { CatalogCategory, ProductSummary, SearchFilters } from "./catalog-model.ts";

const TEXT = `p."searchText"`;
const ORDER = `p."listingRank", p.name COLLATE catalog_order, p.slug COLLATE catalog_order`;

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

/**
 * How many products of the listing order (past the offset) a filtered search reads before it asks the indexes instead: a filter most
 * products pass finds its page among the first few thousand (cheap: the listing index is already in that order); one
 * that few pass is answered from the filters' own indexes (trigrams, price, brand) and the few hits sorted.
 */
export const WALK_DEFAULT = 5_000;
/** A near-word search with fewer hits than the page and this many more is answered from its indexes at once. */
const PROBE = 200;

export async function sqlSearch(database: Database, categories: Map<string, CatalogCategory>, filters: SearchFilters, drafts: boolean, walkLength = WALK_DEFAULT): Promise<ProductSummary[]> {
  const terms = filters.q ? filters.q.toLowerCase().split(/\s+/).filter(Boolean) : [];
  const category = filters.categorySlug === undefined ? undefined : [...categories.values()].find((c) => c.slug === filters.categorySlug);
  if (filters.categorySlug !== undefined && !category) return [];
  // `words`: posting lists every hit has a word of; `wordsOnRows`: the row clauses of `match` say the same (exact words).
  const page = async (match: (params: Params) => Promise<string[]>, limit: number, offset: number, probeFirst = false, words?: string[][], wordsOnRows = true): Promise<Row[]> => {
    // A word no product's words contain: no product has it.
    if (words?.some((list) => list.length === 0)) return [];
    const params = new Params();
    // What the listing indexes are ordered within (they lead with the category and featured), and what they are not.
    const listed = [`p."deletedAt" IS NULL`, drafts ? `p.draft` : `NOT p.draft`, ...listingClauses(filters, category, params)];
    const filtered = [...filterClauses(filters, params), ...(await match(params))];
    const stocked = stockClauses(filters);
    const columns = `p.id, p.slug, p.name, p.brand, p."priceDkk", p.stock, p.featured, p."frameColor", p."lensColor", p."categoryId", p."listingRank"`;
    const end = params.add(offset + limit);
    if (!words && !filtered.length && !stocked.length) return (await pageOf(database, `SELECT ${columns} FROM "Product" p WHERE ${listed.join(" AND ")} ORDER BY ${ORDER} LIMIT ${end}`, params.values, offset)).page;
    // The first walkLength products past the offset, in listing order, filtered: the page when enough of them pass (the
    // walk stops as soon as they have). The filters but stock read the listing index's own columns (no table row is
    // read for a product that fails them); the page's rows, and for the stock filter those it checks, are read after.
    // Every query below names both lengths (a parameter a statement does not name has no type).
    const walk = params.add(offset + limit + walkLength);
    const all = [...listed, ...filtered, ...stocked];
    // A match whose text functions are dear per product (near words) first asks its indexes whether it is rare.
    const rare = probeFirst && (await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM "Product" p WHERE ${all.join(" AND ")} LIMIT LEAST(${end}::int + ${PROBE}, ${walk}::int)) s`,
      params.values,
    ))[0]!.n < offset + limit + PROBE;
    // The words' own parameters (the queries after this one do not name them).
    const wordParams = new Params();
    wordParams.values.push(...params.values);
    // The products having a word of each list, in listing order from the first of them (postings: one ordered index
    // range per word, merged per list, the lists intersected), each checked against every filter on its row; in
    // posting order (rank, then id: the page streams), one row more than the page, and only where equal ranks (rare)
    // meet in it, again in the listing order proper (name and slug among them).
    const posted = async (length: number | "ALL"): Promise<{ rows: unknown[]; page: Row[] }> => {
      const own = new Params();
      own.values.push(...params.values);
      const bound = length === "ALL" ? "ALL" : `LEAST(${own.add(length)}::int, ${walk}::int)`;
      const source = `SELECT ${columns} FROM (${postings(words!, bound, own, drafts)}) m JOIN "Product" p ON p.id = m.id WHERE ${all.join(" AND ")} AND ${walk}::int > 0`;
      const fast = await database.query<Row & { listingRank: string }>(`${source} ORDER BY m.r, m.id LIMIT ${end}::int + 1`, own.values);
      const tied = fast.some((row, i) => i > 0 && Number(row.listingRank) === Number(fast[i - 1]!.listingRank));
      const rows = tied
        ? await database.query<Row>(`${source} ORDER BY m.r, p.name COLLATE catalog_order, p.slug COLLATE catalog_order LIMIT ${end}`, own.values)
        : fast.slice(0, offset + limit);
      return { rows, page: await withImages(database, rows.slice(offset)) };
    };
    const walked: { rows: unknown[]; page: Row[] } = rare ? { rows: [], page: [] } : words ? await posted(offset + limit + walkLength) : await pageOf(
      database,
      `SELECT ${columns} FROM (
         SELECT p.id, p."listingRank" AS r, p.name COLLATE catalog_order AS n, p.slug COLLATE catalog_order AS s,
                ${filtered.length ? filtered.join(" AND ") : "true"} AS hit
           FROM "Product" p WHERE ${listed.join(" AND ")} ORDER BY ${ORDER} LIMIT ${walk}) w
         JOIN "Product" p ON p.id = w.id
        WHERE w.hit${stocked.length ? ` AND ${stocked.join(" AND ")}` : ""} ORDER BY w.r, w.n, w.s LIMIT ${end}`,
      params.values,
      offset,
    );
    if (walked.rows.length === offset + limit) return walked.page;
    // Near words are in the postings only (no row clause says them): the rest of the postings, to their end.
    if (words && !wordsOnRows) return (await posted("ALL")).page;
    // Few products pass (or the listing is short): every hit from the filters' own indexes, then sorted (a materialized
    // set, so the listing index is not walked to its end looking for them).
    const hits = await pageOf(
      database,
      `WITH hits AS MATERIALIZED (SELECT ${columns} FROM "Product" p WHERE ${all.join(" AND ")})
       SELECT p.* FROM hits p ORDER BY ${ORDER} LIMIT LEAST(${end}::int, ${walk}::int)`,
      params.values,
      offset,
    );
    return hits.page;
  };
  const exact = async (params: Params) => terms.map((term) => exactClause(term, categories, params));
  const words = await exactWords(database, terms, categories);
  let rows = await page(exact, filters.limit, filters.offset, false, words);
  // No product has every word (not even before this page): the nearest ones instead.
  if (rows.length === 0 && terms.length > 0 && (filters.offset === 0 || (await page(exact, 1, 0, false, words)).length === 0)) {
    const near = await nearWords(database, terms);
    // Near words that are the exact words themselves find what the exact search found: nothing.
    const same = near && words && near.length === terms.length && words.length === terms.length &&
      near.every((list) => words.some((exactList) => exactList.length === list.length && list.every((word) => exactList.includes(word))));
    rows = same
      ? []
      : near
      ? await page(async () => [], filters.limit, filters.offset, false, near, false)
      : await page((params) => Promise.all(terms.map((term) => nearClause(database, term, params))), filters.limit, filters.offset, true);
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

/** A search word that is a part of more of the catalogue's words than this is found by the listing walk instead. */
const MAX_WORDS = 32;
/** Posting lists intersected at most (the search words with fewest words); further words are checked on the rows. */
const MAX_LISTS = 3;

/**
 * Per search word with a letter, the catalogue words (CatalogWord, prisma/migrations/*_catalog_words) it is a part of,
 * and the categories whose names it is a part of (as " " + id: no word has a space): the three lists with fewest
 * entries, or undefined when no search word qualifies. Every search word is also checked on the rows.
 */
async function exactWords(database: Database, terms: string[], categories: Map<string, CatalogCategory>): Promise<string[][] | undefined> {
  const eligible = [...new Set(terms)].filter((term) => /\p{L}/u.test(term));
  if (!eligible.length) return undefined;
  const patterns = eligible.map((term) => `%${term.replace(/[\\%_]/g, "\\$&")}%`);
  const lists = (await vocabulary(database, patterns, `word LIKE t.term`)).map((words, i) => [
    ...words,
    ...[...categories.values()].filter((c) => c.name.toLowerCase().includes(eligible[i]!)).map((c) => ` ${c.id}`),
  ]);
  // A category's products are a long list to merge: words without one are intersected first (the others are checked on
  // the rows), and a word with one only when it is the only list.
  const usable = lists.filter((list) => list.length <= MAX_WORDS).sort((a, b) => weight(a) - weight(b));
  const plain = usable.filter((list) => weight(list) < CATEGORY_WEIGHT);
  return plain.length ? plain.slice(0, MAX_LISTS) : usable.length ? usable.slice(0, 1) : undefined;
}

/** A category's products weigh as many as this many words' in choosing which lists to intersect. */
const CATEGORY_WEIGHT = 1_000;
const weight = (list: string[]) => list.reduce((sum, entry) => sum + (entry.startsWith(" ") ? CATEGORY_WEIGHT : 1), 0);

/**
 * Per search word, the catalogue words spelt close to it or with its Danish stem (without accents), and the categories
 * whose names are (" " + id), when none has more than MAX_WORDS of them; undefined otherwise (the rows are asked).
 */
async function nearWords(database: Database, terms: string[]): Promise<string[][] | undefined> {
  const unique = [...new Set(terms)];
  if (unique.length > MAX_LISTS) return undefined;
  const named = await database.query<{ term: string; id: string }>(
    `SELECT t.term, c.id FROM "Category" c, unnest($1::text[]) t(term)
      WHERE to_tsvector('catalog_danish', lower(c.name)) @@ plainto_tsquery('catalog_danish', t.term) OR t.term <% lower(c.name)`,
    [unique],
  );
  const lists = (await vocabulary(database, unique, `(vector @@ plainto_tsquery('catalog_danish', t.term) OR t.term <% word)`)).map((words, i) => [
    ...words,
    ...named.filter((row) => row.term === unique[i]).map((row) => ` ${row.id}`),
  ]);
  return lists.every((list) => list.length <= MAX_WORDS) ? lists.sort((a, b) => weight(a) - weight(b)) : undefined;
}

/** Per term (or pattern), up to MAX_WORDS + 1 vocabulary words meeting `condition` (on `word`, `vector` and `t.term`). */
async function vocabulary(database: Database, terms: string[], condition: string): Promise<string[][]> {
  const rows = await database.query<{ i: number; words: string[] }>(
    `SELECT t.i::int AS i, array_agg(w.word) AS words FROM unnest($1::text[]) WITH ORDINALITY t(term, i)
       CROSS JOIN LATERAL (SELECT word FROM "CatalogWord" WHERE ${condition} LIMIT ${MAX_WORDS + 1}) w GROUP BY t.i`,
    [terms],
  );
  const found = new Map(rows.map((row) => [row.i - 1, row.words]));
  return terms.map((_, i) => found.get(i) ?? []);
}

/**
 * The products having a word (or being in a category: " " + id) of every list, in listing order: rank `r` and product
 * `id`, at most `walk` of them.
 */
function postings(lists: string[][], walk: string, params: Params, drafts: boolean): string {
  const range = (entry: string) =>
    entry.startsWith(" ")
      ? `SELECT "listingRank" AS r, id FROM "Product" WHERE "categoryId" = ${params.add(entry.slice(1))} AND "deletedAt" IS NULL AND ${drafts ? "draft" : "NOT draft"} ORDER BY "listingRank", id`
      : `SELECT "listingRank" AS r, "productId" AS id FROM "CatalogPosting" WHERE word = ${params.add(entry)} ORDER BY "listingRank", "productId"`;
  const stream = (entries: string[]) =>
    entries.length === 1 ? range(entries[0]!) : `SELECT DISTINCT r, id FROM (${entries.map((entry) => `(${range(entry)})`).join(" UNION ALL ")}) m ORDER BY r, id`;
  const [first, ...rest] = lists;
  const joins = rest.map((entries, i) => ` JOIN (${stream(entries)}) s${i + 1} ON s${i + 1}.r = s0.r AND s${i + 1}.id = s0.id`).join("");
  return `SELECT s0.r, s0.id FROM (${stream(first!)}) s0${joins} ORDER BY s0.r, s0.id LIMIT ${walk}`;
}

/**
 * Runs a query for the first `offset + limit` rows in listing order and keeps those past the offset, with their first
 * image (looked up for the page's products only).
 */
async function pageOf(database: Database, sql: string, params: unknown[], offset: number): Promise<{ rows: unknown[]; page: Row[] }> {
  const rows = await database.query<Row>(sql, params);
  return { rows, page: await withImages(database, rows.slice(offset)) };
}

/** The rows with their first image (looked up for these products only). */
async function withImages(database: Database, page: Row[]): Promise<Row[]> {
  const images = page.length
    ? await database.query<{ productId: string; url: string }>(
        `SELECT DISTINCT ON (i."productId") i."productId", i.url FROM "ProductImage" i
          WHERE i."productId" = ANY($1::text[]) ORDER BY i."productId", i.position, i."createdAt"`,
        [page.map((row) => row.id)],
      )
    : [];
  const first = new Map(images.map((image) => [image.productId, image.url]));
  return page.map((row) => ({ ...row, firstImage: first.get(row.id) ?? null }));
}

/** The filters the listing indexes are ordered within: the category and featured lead them. */
function listingClauses(filters: SearchFilters, category: CatalogCategory | undefined, params: Params): string[] {
  const clauses: string[] = [];
  if (category) clauses.push(`p."categoryId" = ${params.add(category.id)}`);
  if (filters.featured !== undefined) clauses.push(filters.featured ? `p.featured` : `NOT p.featured`);
  return clauses;
}

function filterClauses(filters: SearchFilters, params: Params): string[] {
  const clauses: string[] = [];
  if (filters.brand !== undefined) clauses.push(`lower(p.brand) = ${params.add(filters.brand.toLowerCase())}`);
  if (filters.frameColor !== undefined) clauses.push(`lower(p."frameColor") = ${params.add(filters.frameColor.toLowerCase())}`);
  if (filters.lensColor !== undefined) clauses.push(`lower(p."lensColor") = ${params.add(filters.lensColor.toLowerCase())}`);
  if (filters.minPriceOere !== undefined) clauses.push(`p."priceDkk" >= ${params.add(filters.minPriceOere)}`);
  if (filters.maxPriceOere !== undefined) clauses.push(`p."priceDkk" <= ${params.add(filters.maxPriceOere)}`);
  return clauses;
}

/** The stock filter: stock is in no index (a sale rewrites no index entry), so it is checked on the table's rows. */
function stockClauses(filters: SearchFilters): string[] {
  return filters.inStock === undefined ? [] : [filters.inStock ? `p.stock > 0` : `p.stock <= 0`];
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
  const text = `(p."searchVector" @@ plainto_tsquery('catalog_danish', ${word}) OR ${word} <% ${TEXT})`;
  return named.length ? `(${text} OR p."categoryId" = ANY(${params.add(named.map((c) => c.id))}::text[]))` : text;
}
