// categories.delete through real HTTP: deletes empty categories, 422 category_not_empty, soft-deleted products purged, 404s.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key, products } } = useServer({ keys: { key: ["categories:write"], products: ["products:write"] } });

const remove = (slug: string) => server.call("categories.delete", { slug, confirm: true }, { key });
const slugs = async () => expectOk<Array<{ slug: string }>>(server, "categories.list", await server.call("categories.list", {})).map((c) => c.slug);
const newCategory = async (slug: string) => expectOk<{ id: string }>(server, "categories.upsert", await server.call("categories.upsert", { slug, name: `Kategori ${slug}` }, { key }));

describe("categories.delete", () => {
  it("deletes an empty category, gone from the very next categories.list", async () => {
    const { id } = await newCategory("tom-kategori");
    expect(expectOk(server, "categories.delete", await remove("tom-kategori"))).toEqual({ ok: true, slug: "tom-kategori" });
    expect(await slugs()).not.toContain("tom-kategori");
    expect(await lastAudit(server)).toMatchObject({ tool: "categories.delete", subjectType: "category", subjectId: id, before: { slug: "tom-kategori" }, after: null });
    expectProblem(await remove("tom-kategori"), 404, "not_found");
  });

  it("refuses with 422 category_not_empty while a visible product remains", async () => {
    const before = await auditCount(server);
    expectProblem(await remove("solbriller"), 422, "category_not_empty");
    expect(await slugs()).toContain("solbriller");
    expect(await auditCount(server)).toBe(before);
  });

  it("deletes a category whose only products are soft-deleted, purging them with an audit entry each", async () => {
    await newCategory("udgaaet");
    const created = await server.call("products.create", { name: "Udgået stel", slug: "udgaaet-stel", description: "Et stel der ikke sælges mere.", priceDkk: 10000, stock: 0, categorySlug: "udgaaet" }, { key: products });
    const { id } = expectOk<{ id: string }>(server, "products.create", created);
    expectProblem(await remove("udgaaet"), 422, "category_not_empty");
    expectOk(server, "products.delete", await server.call("products.delete", { slug: "udgaaet-stel", confirm: true }, { key: products }));
    expectOk(server, "categories.delete", await remove("udgaaet"));
    expect(await server.prisma.product.findUnique({ where: { id } })).toBeNull();
    const purge = await server.prisma.auditEntry.findFirstOrThrow({ where: { tool: "categories.delete", subjectType: "product", subjectId: id } });
    expect(purge.after).toBeNull();
    expect(purge.before).toMatchObject({ slug: "udgaaet-stel", deletedAt: expect.stringMatching(/Z$/), images: [] });
  });

  it("answers 404 for an unknown category", async () => {
    expectProblem(await remove("no-such-category"), 404, "not_found");
  });

  it("checks scopes", async () => {
    await newCategory("scope-kategori");
    await expectScopeMatrix(server, "categories.delete", { slug: "scope-kategori", confirm: true });
  });

  it("rejects bad input, confirm false included", async () => {
    await newCategory("bliver-staaende");
    const count = () => server.prisma.category.count();
    await expectRejected(server, "categories.delete", key, [
      { slug: "bliver-staaende", confirm: false },
      { slug: "bliver-staaende" },
      { slug: "Bliver Staaende", confirm: true },
      { slug: "b", confirm: true },
      { confirm: true },
      { slug: "bliver-staaende", confirm: true, cascade: true },
    ], async () => [await count(), await auditCount(server)]);
  });
});
