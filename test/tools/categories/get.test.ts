// categories.get through real HTTP: one category with its visible product count; 404 for an unknown slug.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Category = { id: string; slug: string; name: string; description: string | null; productCount: number };

const { server, keys: { key } } = useServer({ keys: { key: ["catalog:read"] } });

const get = (slug: string) => server.call("categories.get", { slug }, { key });

describe("categories.get", () => {
  it("returns the category with the count of visible products, matching categories.list", async () => {
    const result = expectOk<Category>(server, "categories.get", await get("kontaktlinser"));
    expect(result).toMatchObject({ slug: "kontaktlinser", name: "Kontaktlinser", description: expect.stringContaining("linser") });
    const visible = await server.prisma.product.count({ where: { category: { slug: "kontaktlinser" }, deletedAt: null } });
    const all = await server.prisma.product.count({ where: { category: { slug: "kontaktlinser" } } });
    expect(result.productCount).toBe(visible);
    expect(all).toBeGreaterThan(visible);
    const listed = expectOk<Category[]>(server, "categories.list", await server.call("categories.list", {}));
    expect(listed.find((c) => c.slug === "kontaktlinser")).toEqual(result);
  });

  it("follows a product delete at once", async () => {
    const before = expectOk<Category>(server, "categories.get", await get("tilbehoer")).productCount;
    const writer = await server.key("products:write");
    expectOk(server, "products.delete", await server.call("products.delete", { slug: "rensespray-sommer-7", confirm: true }, { key: writer }));
    expect(expectOk<Category>(server, "categories.get", await get("tilbehoer")).productCount).toBe(before - 1);
  });

  it("answers 404 for an unknown slug", async () => {
    expectProblem(await get("no-such-category"), 404, "not_found");
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "categories.get", { slug: "solbriller" });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "categories.get", key, [{}, { slug: "" }, { slug: 3 }, { slug: "solbriller", includeProducts: true }]);
  });
});
