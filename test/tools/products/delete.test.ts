// products.delete through real HTTP: soft delete hidden everywhere at once, audited, second delete 404, confirm required.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const remove = (slug: string) => server.call("products.delete", { slug, confirm: true }, { key });
const productCount = async (slug: string) => {
  const categories = expectOk<Array<{ slug: string; productCount: number }>>(server, "categories.list", await server.call("categories.list", {}));
  return categories.find((c) => c.slug === slug)!.productCount;
};

describe("products.delete", () => {
  it("soft-deletes: gone from the very next search, get, compare, answers, variants and category count", async () => {
    const slug = "oakley-clubmaster-sommer-22";
    const count = await productCount("solbriller");
    expect(expectOk(server, "products.delete", await remove(slug))).toEqual({ ok: true, slug });
    const all = expectOk<Array<{ slug: string }>>(server, "products.search", await server.call("products.search", { limit: 100 }));
    expect(all.some((p) => p.slug === slug)).toBe(false);
    expectProblem(await server.call("products.get", { slug }), 404, "not_found");
    expect(await productCount("solbriller")).toBe(count - 1);
    const reader = await server.key("catalog:read");
    expectProblem(await server.call("products.get_answers", { slug }, { key: reader }), 404);
    expectProblem(await server.call("products.list_variants", { slug }, { key: reader }), 404);
    expectProblem(await server.call("products.compare", { slugs: [slug, "gucci-oversize-bold-74"] }, { key: reader }), 404);
    const row = await server.prisma.product.findUniqueOrThrow({ where: { slug } });
    expect(row.deletedAt).toBeInstanceOf(Date);
  });

  it("audits before and after snapshots (after has deletedAt)", async () => {
    expectOk(server, "products.delete", await remove("vogue-panto-slim-3"));
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "products.delete", subjectType: "product", before: { slug: "vogue-panto-slim-3", deletedAt: null } });
    expect((entry!.after as { deletedAt: string }).deletedAt).toMatch(/Z$/);
    expect((entry!.after as { images: unknown[] }).images.length).toBeGreaterThan(0);
  });

  it("answers 404 for a second delete, an unknown slug and writes to a deleted product", async () => {
    expectOk(server, "products.delete", await remove("oergreen-aviator-classic-4"));
    const before = await auditCount(server);
    expectProblem(await remove("oergreen-aviator-classic-4"), 404, "not_found");
    expectProblem(await remove("no-such-product"), 404, "not_found");
    expectProblem(await server.call("products.update", { slug: "oergreen-aviator-classic-4", patch: { stock: 1 } }, { key }), 404);
    expectProblem(await server.call("products.attach_image", { slug: "oergreen-aviator-classic-4", imageUrl: "https://cdn.example.dk/a.jpg" }, { key }), 404);
    expect(await auditCount(server)).toBe(before);
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.delete", { slug: "tom-ford-monthly-sommer-6", confirm: true });
  });

  it("rejects bad input, confirm false included, deleting nothing", async () => {
    const visible = () => server.prisma.product.count({ where: { deletedAt: null } });
    await expectRejected(server, "products.delete", key, [
      { slug: "gucci-oversize-bold-74", confirm: false },
      { slug: "gucci-oversize-bold-74", confirm: "true" },
      { slug: "gucci-oversize-bold-74" },
      { slug: "", confirm: true },
      { confirm: true },
      { slug: "gucci-oversize-bold-74", confirm: true, hard: true },
    ], async () => [await visible(), await auditCount(server)]);
  });
});
