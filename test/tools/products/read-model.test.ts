// The catalogue read model's indexed search agrees with a naive filter over the database rows, for many filter mixes;
// writes update what they change (a sale or a price change reads and indexes nothing of the rest of the catalogue).
import { describe, expect, it } from "vitest";
import { expectOk } from "../../support/expect.ts";
import type { ProductSummary, SearchFilters } from "../../../src/tools/products/catalog-model.ts";
import { SqlCatalog } from "../../../src/tools/products/sql-catalog.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();

type Row = Omit<ProductSummary, "id" | "firstImage">;

async function visibleRows(): Promise<Row[]> {
  const products = await server.prisma.product.findMany({ where: { deletedAt: null }, include: { category: true } });
  const collator = new Intl.Collator("da", { sensitivity: "base" });
  return products
    .map((p) => ({
      slug: p.slug,
      name: p.name,
      brand: p.brand,
      priceDkk: Number(p.priceDkk),
      stock: Number(p.stock),
      featured: p.featured,
      frameColor: p.frameColor,
      lensColor: p.lensColor,
      categorySlug: p.category.slug,
      categoryName: p.category.name,
    }))
    .sort((a, b) => Number(b.featured) - Number(a.featured) || collator.compare(a.name, b.name) || collator.compare(a.slug, b.slug));
}

function naive(rows: Row[], f: SearchFilters): string[] {
  const terms = f.q ? f.q.toLowerCase().split(/\s+/).filter(Boolean) : [];
  const lower = (s: string | null | undefined) => s?.toLowerCase();
  return rows
    .filter((r) => {
      const text = [r.name, r.brand, r.categoryName, r.frameColor, r.lensColor].filter(Boolean).join(" ").toLowerCase();
      return (
        (!f.categorySlug || r.categorySlug === f.categorySlug) &&
        (f.brand === undefined || lower(r.brand) === lower(f.brand)) &&
        (f.frameColor === undefined || lower(r.frameColor) === lower(f.frameColor)) &&
        (f.lensColor === undefined || lower(r.lensColor) === lower(f.lensColor)) &&
        (f.featured === undefined || r.featured === f.featured) &&
        (f.inStock === undefined || r.stock > 0 === f.inStock) &&
        (f.minPriceOere === undefined || r.priceDkk >= f.minPriceOere) &&
        (f.maxPriceOere === undefined || r.priceDkk <= f.maxPriceOere) &&
        terms.every((t) => text.includes(t))
      );
    })
    .slice(f.offset, f.offset + f.limit)
    .map((r) => r.slug);
}

/** The read model's search, and on PostgreSQL also the database search with a walk of 3 (its path for rare filters). */
async function searchers(): Promise<Array<(f: SearchFilters) => Promise<ProductSummary[]>>> {
  const catalog = server.runtime.collaborators.catalog;
  if (catalog.engine !== "sql") return [(f) => catalog.search(f)];
  const rare = new SqlCatalog(server.database, 3);
  await rare.reloadAll();
  return [(f) => catalog.search(f), (f) => rare.search(f, false)];
}

describe("catalogue read model", () => {
  it("returns exactly what a naive filter over the database returns, for 400 random filter combinations", async () => {
    const rows = await visibleRows();
    const searches = await searchers();
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    let nonEmpty = 0;
    const words = ["aviator", "ray", "gucci sol", "av", "a", "ørgreen", "cat-eye", "klar", "zz", "blå spejl", "børn"];
    for (let i = 0; i < 400; i++) {
      const sample = pick(rows);
      const f: SearchFilters = { limit: pick([1, 5, 20, 100]), offset: pick([0, 0, 3, 50]) };
      if (random() < 0.4) f.q = pick(words);
      if (random() < 0.3) f.categorySlug = random() < 0.9 ? sample.categorySlug : "no-such-category";
      if (random() < 0.3) f.brand = random() < 0.9 ? (sample.brand ?? "Nordlys").toUpperCase() : "No Brand";
      if (random() < 0.2 && sample.frameColor) f.frameColor = sample.frameColor;
      if (random() < 0.2 && sample.lensColor) f.lensColor = sample.lensColor;
      if (random() < 0.3) f.featured = random() < 0.5;
      if (random() < 0.3) f.inStock = random() < 0.7;
      if (random() < 0.3) f.minPriceOere = Math.floor(random() * 200000);
      if (random() < 0.3) f.maxPriceOere = Math.floor(random() * 300000);
      for (const search of searches) {
        const actual = (await search(f)).map((p) => p.slug);
        expect(actual, JSON.stringify(f)).toEqual(naive(rows, f));
        if (actual.length) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(150);
  });

  it("takes a sale and a price change in place, without reading or indexing the rest of the catalogue", async () => {
    const catalog = server.runtime.collaborators.catalog;
    const key = await server.key("orders:write", "products:write");
    const find = async (slug: string) => (await catalog.search({ limit: 100, offset: 0 })).find((p) => p.slug === slug)!;
    const plain = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, draft: false, stock: { gt: 2 }, variants: { none: {} } }, orderBy: { slug: "asc" } });
    await find(plain.slug);
    const builds = catalog.builds;
    expectOk(server, "orders.create", await server.call("orders.create", {
      items: [{ productSlug: plain.slug, quantity: 2 }],
      email: "lager@example.dk",
      shipping: { name: "Lager Test", address: "Vestergade 1", zip: "8000", city: "Aarhus C" },
    }, { key }));
    expect((await find(plain.slug)).stock).toBe(Number(plain.stock) - 2);
    expect((await catalog.search({ limit: 100, offset: 0, inStock: true, q: plain.name })).map((p) => p.slug)).toContain(plain.slug);
    expectOk(server, "products.update", await server.call("products.update", { slug: plain.slug, patch: { priceDkk: 12345 } }, { key }));
    expect((await find(plain.slug)).priceDkk).toBe(12345);
    expect((await catalog.search({ limit: 100, offset: 0, minPriceOere: 12345, maxPriceOere: 12345 })).map((p) => p.slug)).toEqual([plain.slug]);
    expect(catalog.builds).toBe(builds);
  });

  it("keeps each product's listing rank in the listing order: a rename moves it, a sale or a price change writes no rank", async () => {
    const key = await server.key("orders:write", "products:write");
    const postgres = server.database.kind === "postgres";
    const rank = async (slug: string) =>
      postgres ? (await server.database.query<{ rank: string }>(`SELECT "listingRank"::text AS rank FROM "Product" WHERE slug = $1`, [slug]))[0]!.rank : "";
    const listing = async () => (await server.runtime.collaborators.catalog.search({ limit: 100, offset: 0 })).map((p) => p.slug);
    const naiveListing = async () => naive(await visibleRows(), { limit: 100, offset: 0 });
    const plain = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, draft: false, featured: false, stock: { gt: 2 }, variants: { none: {} } }, orderBy: { slug: "desc" } });
    const before = await rank(plain.slug);
    expectOk(server, "orders.create", await server.call("orders.create", {
      items: [{ productSlug: plain.slug, quantity: 1 }],
      email: "rang@example.dk",
      shipping: { name: "Rang Test", address: "Vestergade 1", zip: "8000", city: "Aarhus C" },
    }, { key }));
    expectOk(server, "products.update", await server.call("products.update", { slug: plain.slug, patch: { priceDkk: 54321 } }, { key }));
    expect(await rank(plain.slug)).toBe(before);
    // Renamed to sort first among the products that are not featured, then last: the listing follows each time.
    for (const name of ["Aaaa første", "Ååå sidste"]) {
      expectOk(server, "products.update", await server.call("products.update", { slug: plain.slug, patch: { name } }, { key }));
      expect(await listing()).toEqual(await naiveListing());
    }
    if (postgres) expect(await rank(plain.slug)).not.toBe(before);
    // New products placed one after the other in the same gap (and one before them all) keep the order exact.
    const category = await server.prisma.category.findFirstOrThrow();
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]) {
      expectOk(server, "products.create", await server.call("products.create", {
        name: `Aaaa første ${n}`, slug: `rang-${n}`, description: "Rang i listen.", priceDkk: 10000, stock: 1, categorySlug: category.slug,
      }, { key }));
    }
    expect(await listing()).toEqual(await naiveListing());
    // Their words are found at once, the renamed product's old words no longer.
    const rows = await visibleRows();
    for (const q of ["første", "sidste", "ååå", plain.name.split(" ").at(-1)!.toLowerCase()]) {
      const f = { q, limit: 100, offset: 0 };
      expect((await server.runtime.collaborators.catalog.search(f)).map((p) => p.slug), q).toEqual(naive(rows, f));
    }
  });

  it("is kept in the database on PostgreSQL and in memory on PGlite", () => {
    expect(server.runtime.collaborators.catalog.engine).toBe(server.database.kind === "postgres" ? "sql" : "memory");
  });

  it("finds, in the database, the nearest products when none has every word: Danish stems without accents, typos", async () => {
    const rows = await visibleRows();
    const slugs = async (q: string) => (await server.runtime.collaborators.catalog.search({ q, limit: 100, offset: 0 })).map((p) => p.slug);
    const having = (word: string) => rows.filter((r) => [r.name, r.brand, r.lensColor].join(" ").toLowerCase().includes(word)).map((r) => r.slug);
    const near = server.runtime.collaborators.catalog.engine === "sql";
    // A typo of "aviator", "ørgreen" without its accent, "spejle" for "spejl": no product has these words as written.
    expect(await slugs("aviatr")).toEqual(near ? having("aviator") : []);
    expect(await slugs("orgreen")).toEqual(near ? having("ørgreen") : []);
    expect(await slugs("spejle")).toEqual(near ? having("spejl") : []);
    expect(having("aviator").length).toBeGreaterThan(1);
    // Exact hits stay the only hits when there are some, and a word like no other finds nothing.
    expect(await slugs("aviator")).toEqual(having("aviator"));
    expect(await slugs("zzzqqq")).toEqual([]);
  });
});
