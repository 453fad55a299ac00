// products.list_variants through real HTTP: shape, price override, empty list, 404 for unknown and soft-deleted products.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Variant = { id: string; sku: string; attributes: Record<string, string>; priceDkk: number | null; stock: number };

const { server, keys: { key } } = useServer({ keys: { key: ["catalog:read"] } });

const list = (slug: string) => server.call("products.list_variants", { slug }, { key });

describe("products.list_variants", () => {
  it("lists the variants with attributes, nullable price override and stock", async () => {
    const variants = expectOk<Variant[]>(server, "products.list_variants", await list("vogue-clubmaster-sommer-2"));
    expect(variants.map((v) => v.sku).sort()).toEqual(["vogue-clubmaster-sommer-2-l", "vogue-clubmaster-sommer-2-m", "vogue-clubmaster-sommer-2-s"]);
    const product = await server.prisma.product.findUniqueOrThrow({ where: { slug: "vogue-clubmaster-sommer-2" } });
    expect(variants.find((v) => v.sku.endsWith("-m"))).toMatchObject({ attributes: { size: "M" }, priceDkk: null });
    expect(variants.find((v) => v.sku.endsWith("-l"))!.priceDkk).toBe(Number(product.priceDkk) + 10000);
    for (const v of variants) expect(v.stock).toBeGreaterThanOrEqual(0);
  });

  it("returns an empty list for a product without variants", async () => {
    expect(expectOk(server, "products.list_variants", await list("gucci-oversize-bold-74"))).toEqual([]);
  });

  it("answers 404 for unknown and soft-deleted products", async () => {
    expectProblem(await list("no-such-product"), 404, "not_found");
    expectProblem(await list("gucci-cat-eye-classic-54"), 404, "not_found");
  });

  it("checks scopes (needs catalog:read)", async () => {
    await expectScopeMatrix(server, "products.list_variants", { slug: "vogue-clubmaster-sommer-2" });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "products.list_variants", key, [{}, { slug: "" }, { slug: 5 }, { slug: "vogue-clubmaster-sommer-2", sku: "x" }]);
  });
});
