// categories.list through real HTTP: anonymous, sorted by name, productCount of visible products, includeEmpty.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Category = { id: string; slug: string; name: string; description: string | null; productCount: number };

const { server } = useServer();

const list = async (input: object = {}) => expectOk<Category[]>(server, "categories.list", await server.call("categories.list", input));

describe("categories.list", () => {
  it("lists every category by name with counts that exclude soft-deleted products, anonymously", async () => {
    const result = await list();
    expect(result.map((c) => c.slug).sort()).toEqual(["blaalysbriller", "boernebriller", "briller", "gavekort", "kontaktlinser", "solbriller", "sportsbriller", "tilbehoer", "udstillingsmodeller"]);
    expect(result.find((c) => c.slug === "gavekort")).toMatchObject({ productCount: 1 });
    expect(result.find((c) => c.slug === "udstillingsmodeller")).toMatchObject({ productCount: 0 });
    expect(result.map((c) => c.name)).toEqual([...result.map((c) => c.name)].sort((a, b) => a.localeCompare(b, "da", { sensitivity: "base" })));
    const prisma = server.prisma;
    for (const category of result) {
      expect(category.productCount).toBe(await prisma.product.count({ where: { categoryId: category.id, deletedAt: null } }));
    }
    const withDeleted = await prisma.product.findFirstOrThrow({ where: { deletedAt: { not: null } }, include: { category: true } });
    const total = await prisma.product.count({ where: { categoryId: withDeleted.categoryId } });
    expect(result.find((c) => c.id === withDeleted.categoryId)!.productCount).toBeLessThan(total);
  });

  it("leaves out empty categories only when includeEmpty is false", async () => {
    const key = await server.key("categories:write");
    expectOk(server, "categories.upsert", await server.call("categories.upsert", { slug: "tom", name: "Tom kategori" }, { key }));
    expect((await list()).find((c) => c.slug === "tom")).toMatchObject({ productCount: 0, description: null });
    expect((await list({ includeEmpty: true })).some((c) => c.slug === "tom")).toBe(true);
    const nonEmpty = await list({ includeEmpty: false });
    expect(nonEmpty.some((c) => c.slug === "tom" || c.slug === "udstillingsmodeller")).toBe(false);
    expect(nonEmpty.every((c) => c.productCount > 0)).toBe(true);
  });

  it("is open to every caller", async () => {
    await expectScopeMatrix(server, "categories.list", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "categories.list", undefined, [{ includeEmpty: "no" }, { includeEmpty: 0 }, { limit: 5 }]);
  });
});
