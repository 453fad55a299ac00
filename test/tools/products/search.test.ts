// products.search through real HTTP: shapes, ordering, every filter and bound, soft-deleted products hidden.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Summary = { slug: string; name: string; brand: string | null; priceDkk: number; stock: number; featured: boolean; frameColor: string | null; categorySlug: string };

const { server } = useServer();

const search = async (input: object) => expectOk<Summary[]>(server, "products.search", await server.call("products.search", input));

describe("products.search", () => {
  it("returns 20 summaries by default, featured first then by name, anonymously", async () => {
    const result = await search({});
    expect(result).toHaveLength(20);
    const featured = result.filter((p) => p.featured);
    expect(result.slice(0, featured.length).every((p) => p.featured)).toBe(true);
    const plain = result.slice(featured.length).map((p) => p.name);
    expect(plain).toEqual([...plain].sort((a, b) => a.localeCompare(b, "da", { sensitivity: "base" })));
  });

  it("pages with limit and offset", async () => {
    const all = await search({ limit: 100 });
    const page = await search({ limit: 5, offset: 5 });
    expect(page.map((p) => p.slug)).toEqual(all.slice(5, 10).map((p) => p.slug));
    expect(await search({ offset: 10000 })).toEqual([]);
  });

  it("hides soft-deleted products", async () => {
    const visible = await search({ limit: 100 });
    const total = await server.prisma.product.count({ where: { deletedAt: null } });
    expect(visible).toHaveLength(total);
    const deleted = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: { not: null } } });
    expect(visible.some((p) => p.slug === deleted.slug)).toBe(false);
  });

  it("applies every filter", async () => {
    const all = await search({ limit: 100 });
    const brand = all.find((p) => p.brand)!.brand!;
    expect((await search({ brand: brand.toUpperCase(), limit: 100 })).every((p) => p.brand === brand)).toBe(true);
    expect((await search({ categorySlug: "solbriller", limit: 100 })).every((p) => p.categorySlug === "solbriller")).toBe(true);
    expect(await search({ categorySlug: "does-not-exist" })).toEqual([]);
    expect((await search({ featured: true, limit: 100 })).every((p) => p.featured)).toBe(true);
    expect((await search({ inStock: true, limit: 100 })).every((p) => p.stock > 0)).toBe(true);
    expect((await search({ inStock: false, limit: 100 })).every((p) => p.stock === 0)).toBe(true);
    const priced = await search({ minPriceOere: 100000, maxPriceOere: 200000, limit: 100 });
    expect(priced.length).toBeGreaterThan(0);
    expect(priced.every((p) => p.priceDkk >= 100000 && p.priceDkk <= 200000)).toBe(true);
    const color = all.find((p) => p.frameColor)!.frameColor!;
    expect((await search({ frameColor: color, limit: 100 })).every((p) => p.frameColor === color)).toBe(true);
  });

  it("matches every word of q in name, brand, category or colour", async () => {
    const all = await search({ limit: 100 });
    const target = all.find((p) => p.brand && p.name.split(" ").length > 2)!;
    const words = `${target.brand!.toLowerCase()} ${target.name.split(" ")[1]!.toUpperCase()}`;
    const hits = await search({ q: words, limit: 100 });
    expect(hits.map((p) => p.slug)).toContain(target.slug);
    expect(await search({ q: "zzzqqq" })).toEqual([]);
    expect((await search({ q: "solbriller", limit: 100 })).every((p) => p.categorySlug === "solbriller")).toBe(true);
  });

  it("is open to every caller", async () => {
    await expectScopeMatrix(server, "products.search", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "products.search", undefined, [
      { limit: 0 },
      { limit: 101 },
      { limit: 1.5 },
      { offset: -1 },
      { offset: 10001 },
      { minPriceOere: -1 },
      { featured: "yes" },
      { q: 42 },
      { unknown: true },
    ]);
  });
});
