// products.create through real HTTP: shape, audit snapshot, category by id or slug, conflicts, visible to the next search.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const valid = (slug: string) => ({
  name: "Nordlys Test Panto",
  slug,
  description: "Et let panto-stel til test af oprettelse.",
  priceDkk: 89900,
  stock: 7,
  categorySlug: "solbriller",
});
const create = (input: object) => server.call("products.create", input, { key });

describe("products.create", () => {
  it("creates a product with images that the very next search and get show", async () => {
    const input = { ...valid("test-create-one"), brand: "Nordlys", frameColor: "sort", images: ["https://cdn.example.dk/a.jpg", "https://cdn.example.dk/b.jpg"], faq: [{ q: "Hvad?", a: "Det." }] };
    const result = expectOk<{ id: string; slug: string }>(server, "products.create", await create(input));
    expect(result.slug).toBe("test-create-one");
    const found = expectOk<Array<{ slug: string; categorySlug: string; firstImage: string }>>(server, "products.search", await server.call("products.search", { q: "test panto", limit: 100 }));
    expect(found.find((p) => p.slug === "test-create-one")).toMatchObject({ categorySlug: "solbriller", firstImage: "https://cdn.example.dk/a.jpg" });
    const detail = expectOk<{ id: string; images: string[]; featured: boolean; stock: number }>(server, "products.get", await server.call("products.get", { slug: "test-create-one" }));
    expect(detail).toMatchObject({ id: result.id, images: input.images, featured: false, stock: 7 });
    const row = await server.prisma.product.findUniqueOrThrow({ where: { id: result.id } });
    expect(row.faq).toEqual(input.faq);
  });

  it("writes an audit entry with before null and the full product snapshot after", async () => {
    const { id } = expectOk<{ id: string }>(server, "products.create", await create({ ...valid("test-create-audit"), images: ["https://cdn.example.dk/x.jpg"] }));
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "products.create", subjectType: "product", subjectId: id, before: null });
    expect(entry!.after).toMatchObject({ id, slug: "test-create-audit", priceDkk: 89900, stock: 7, deletedAt: null, images: [{ url: "https://cdn.example.dk/x.jpg", alt: null, sourceId: null, position: 0 }] });
  });

  it("accepts the category by id, and by id and slug when they agree", async () => {
    const category = await server.prisma.category.findUniqueOrThrow({ where: { slug: "briller" } });
    const { categorySlug: _omit, ...byId } = valid("test-create-by-id");
    expectOk(server, "products.create", await create({ ...byId, categoryId: category.id }));
    expectOk(server, "products.create", await create({ ...valid("test-create-both"), categorySlug: "briller", categoryId: category.id }));
    const detail = expectOk<{ category: { slug: string } }>(server, "products.get", await server.call("products.get", { slug: "test-create-by-id" }));
    expect(detail.category.slug).toBe("briller");
  });

  it("answers 404 for an unknown category and 400 when id and slug disagree, writing nothing", async () => {
    const before = await auditCount(server);
    expectProblem(await create({ ...valid("test-create-nocat"), categorySlug: "does-not-exist" }), 404, "not_found");
    const { categorySlug: _omit, ...noSlug } = valid("test-create-nocat");
    expectProblem(await create({ ...noSlug, categoryId: "nope" }), 404, "not_found");
    const briller = await server.prisma.category.findUniqueOrThrow({ where: { slug: "briller" } });
    expectProblem(await create({ ...valid("test-create-nocat"), categoryId: briller.id }), 400, "invalid_input");
    expect(await auditCount(server)).toBe(before);
    expect(await server.prisma.product.findUnique({ where: { slug: "test-create-nocat" } })).toBeNull();
  });

  it("answers 409 for a slug already taken, also by a soft-deleted product", async () => {
    expectProblem(await create(valid("gucci-oversize-bold-74")), 409, "conflict");
    expectProblem(await create(valid("ray-ban-multifocal-studio-27")), 409, "conflict");
  });

  it("creates a gift card product (each unit bought issues a card)", async () => {
    expectOk(server, "products.create", await create({ ...valid("gavekort-1000-kr"), name: "Gavekort 1000 kr.", priceDkk: 100000, categorySlug: "gavekort", giftCard: true }));
    expectOk(server, "products.create", await create(valid("nordlys-ikke-gavekort")));
    const prisma = server.prisma;
    expect(await prisma.product.findUniqueOrThrow({ where: { slug: "gavekort-1000-kr" } })).toMatchObject({ giftCard: true, priceDkk: 100000n });
    expect(await prisma.product.findUniqueOrThrow({ where: { slug: "nordlys-ikke-gavekort" } })).toMatchObject({ giftCard: false });
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.create", valid("test-create-scope"));
    expect(await server.prisma.product.count({ where: { slug: "test-create-scope" } })).toBe(1);
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const count = () => server.prisma.product.count();
    const base = valid("test-create-bad");
    const { categorySlug: _omit, ...noCategory } = base;
    await expectRejected(server, "products.create", key, [
      {},
      noCategory,
      { ...base, slug: "Bad Slug" },
      { ...base, slug: "a" },
      { ...base, name: "x" },
      { ...base, description: "short" },
      { ...base, priceDkk: 0 },
      { ...base, priceDkk: 12.5 },
      { ...base, priceDkk: 9007199254740992 },
      { ...base, stock: -1 },
      { ...base, answerSummary: "x".repeat(501) },
      { ...base, faq: [{ q: "", a: "x" }] },
      { ...base, attributes: { size: 5 } },
      { ...base, images: ["not a url"] },
      { ...base, images: ["https://cdn.example.dk/a.jpg", "https://cdn.example.dk/a.jpg"] },
      { ...base, unknown: 1 },
      { ...base, giftCard: 1 },
    ], async () => [await count(), await auditCount(server)]);
  });
});
