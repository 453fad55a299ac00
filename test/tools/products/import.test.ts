// products.import through real HTTP: a batch of new products with variants and images, existing slugs skipped, refused
// items reported by position, new categories created, one audit entry per batch, the catalogue following at once.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

type Outcome = { created: Array<{ index: number; id: string; slug: string }>; skipped: Array<{ index: number; slug: string }>; refused: Array<{ index: number; reason: string }> };

const product = (slug: string, extra: object = {}) => ({
  name: `Import ${slug}`,
  slug,
  description: "Et stel, der kom ind med en import.",
  priceDkk: 45000,
  stock: 3,
  categorySlug: "solbriller",
  ...extra,
});
const importing = async (products: object[]) => expectOk<Outcome>(server, "products.import", await server.call("products.import", { products }, { key }));

describe("products.import", () => {
  it("creates the batch's products with variants, images and new categories; search and get show them at once", async () => {
    const outcome = await importing([
      product("import-alpha", { variants: [{ sku: "alpha-s", attributes: { size: "S" }, stock: 2 }, { sku: "alpha-m", attributes: { size: "M" }, priceDkk: 47000 }], images: ["https://cdn.example.dk/alpha.jpg"], imageAlt: { "https://cdn.example.dk/alpha.jpg": "Alpha forfra" } }),
      product("import-beta", { categorySlug: "importerede-stel", categoryName: "Importerede stel", brand: "Nordlys" }),
      product("import-gamma", { categorySlug: "flere-stel" }),
    ]);
    expect(outcome.created.map((c) => [c.index, c.slug])).toEqual([[0, "import-alpha"], [1, "import-beta"], [2, "import-gamma"]]);
    expect(outcome).toMatchObject({ skipped: [], refused: [] });
    const prisma = server.prisma;
    const alpha = await prisma.product.findUniqueOrThrow({ where: { slug: "import-alpha" }, include: { variants: { orderBy: { sku: "asc" } }, images: true } });
    expect(alpha.variants.map((v) => [v.sku, v.attributes, v.priceDkk, v.stock])).toEqual([["alpha-m", { size: "M" }, 47000n, 0n], ["alpha-s", { size: "S" }, null, 2n]]);
    expect(alpha.images.map((i) => [i.url, i.alt, i.position])).toEqual([["https://cdn.example.dk/alpha.jpg", "Alpha forfra", 0]]);
    expect((await prisma.category.findUniqueOrThrow({ where: { slug: "importerede-stel" } })).name).toBe("Importerede stel");
    expect((await prisma.category.findUniqueOrThrow({ where: { slug: "flere-stel" } })).name).toBe("Flere stel");
    const hits = expectOk<Array<{ slug: string; categorySlug: string }>>(server, "products.search", await server.call("products.search", { q: "import", limit: 100 }));
    expect(hits.map((p) => p.slug).sort()).toEqual(["import-alpha", "import-beta", "import-gamma"]);
    expect(expectOk<{ category: { slug: string } }>(server, "products.get", await server.call("products.get", { slug: "import-beta" })).category.slug).toBe("importerede-stel");
    const counts = expectOk<Array<{ slug: string; productCount: number }>>(server, "categories.list", await server.call("categories.list", {}));
    expect(counts.find((c) => c.slug === "importerede-stel")?.productCount).toBe(1);
  });

  it("skips existing slugs and a slug repeated in the batch, refuses unknown categories, and writes one entry per batch", async () => {
    const before = await auditCount(server);
    const briller = await server.prisma.category.findUniqueOrThrow({ where: { slug: "briller" } });
    const outcome = await importing([
      product("oakley-aviator-coast-1"),
      product("import-delta"),
      product("import-delta", { name: "Import delta igen" }),
      product("import-epsilon", { categorySlug: undefined, categoryId: "no-such-category" }),
      product("import-zeta", { categoryId: briller.id }),
      product("import-eta", { categoryId: briller.id, categorySlug: "solbriller" }),
    ]);
    expect(outcome.created.map((c) => c.slug)).toEqual(["import-delta"]);
    expect(outcome.skipped).toEqual([{ index: 0, slug: "oakley-aviator-coast-1" }, { index: 2, slug: "import-delta" }]);
    expect(outcome.refused).toEqual([
      { index: 3, reason: 'No category with id "no-such-category".' },
      { index: 4, reason: expect.stringContaining('"briller" and "solbriller"') },
      { index: 5, reason: expect.stringContaining('"briller" and "solbriller"') },
    ]);
    expect(await auditCount(server)).toBe(before + 1);
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "products.import", subjectType: "productImport", subjectId: outcome.created[0]!.id, before: null, after: { products: [{ id: outcome.created[0]!.id, slug: "import-delta" }] } });
    // The same batch again writes nothing and owes no audit entry.
    const again = await importing([product("import-delta")]);
    expect(again).toEqual({ created: [], skipped: [{ index: 0, slug: "import-delta" }], refused: [] });
    expect(await auditCount(server)).toBe(before + 1);
  });

  it("needs products:write", async () => {
    await expectScopeMatrix(server, "products.import", { products: [product("import-scope")] });
  });

  it("refuses each product that products.create would refuse, by its position, and writes nothing for it", async () => {
    const before = await auditCount(server);
    const outcome = await importing([
      product("import-bad-price", { priceDkk: 0 }),
      product("Import Bad Slug"),
      product("import-no-category", { categorySlug: undefined }),
      product("import-same-sku", { variants: [{ sku: "a" }, { sku: "a" }] }),
      product("import-unknown-field", { unknown: true }),
      product("import-bad-category-slug", { categorySlug: "Ikke En Slug" }),
    ]);
    expect(outcome.created).toEqual([]);
    expect(outcome.refused.map((r) => [r.index, r.reason.split(":")[0]])).toEqual([[0, "priceDkk"], [1, "slug"], [2, "categorySlug"], [3, "variants"], [4, "product"], [5, 'categorySlug "Ikke En Slug" is no category, and no slug for a new one (lowercase letters, digits, hyphens).']]);
    expect(await auditCount(server)).toBe(before);
    expect(await server.prisma.product.count({ where: { slug: { in: ["import-bad-price", "import-no-category", "import-same-sku", "import-unknown-field", "import-bad-category-slug"] } } })).toBe(0);
  });

  it("rejects a malformed batch with a 400 problem and writes nothing", async () => {
    await expectRejected(server, "products.import", key, [
      {},
      { products: [] },
      { products: "x" },
      { products: [1] },
      { products: Array.from({ length: 501 }, (_, i) => product(`import-many-${i}`)) },
      { products: [product("import-extra")], extra: true },
    ]);
  });
});
