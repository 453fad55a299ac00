// products.list_low_stock through real HTTP: products and variants at or below the threshold, lowest first, bounded.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Result = { threshold: number; total: number; items: Array<{ slug: string; name: string; sku: string | null; stock: number; categorySlug: string }> };

const { server, keys: { key } } = useServer({ keys: { key: ["catalog:read"] } });

const low = async (input: object) => expectOk<Result>(server, "products.list_low_stock", await server.call("products.list_low_stock", input, { key }));

describe("products.list_low_stock", () => {
  it("lists visible products and variants with stock <= 5 by default, lowest first", async () => {
    const result = await low({ limit: 100 });
    expect(result.threshold).toBe(5);
    const prisma = server.prisma;
    const products = await prisma.product.count({ where: { deletedAt: null, stock: { lte: 5 } } });
    const variants = await prisma.productVariant.count({ where: { stock: { lte: 5 }, product: { deletedAt: null } } });
    expect(result.total).toBe(products + variants);
    expect(result.items).toHaveLength(Math.min(100, result.total));
    expect(result.items.every((i) => i.stock <= 5)).toBe(true);
    expect(result.items.map((i) => i.stock)).toEqual([...result.items.map((i) => i.stock)].sort((a, b) => a - b));
    expect(result.items.some((i) => i.sku !== null)).toBe(true);
    const deleted = await prisma.product.findMany({ where: { deletedAt: { not: null } }, select: { slug: true } });
    expect(result.items.some((i) => deleted.some((d) => d.slug === i.slug))).toBe(false);
  });

  it("honours threshold, includeVariants and limit, and follows stock changes at once", async () => {
    const soldOut = await low({ threshold: 0, includeVariants: false, limit: 100 });
    expect(soldOut.items.every((i) => i.stock === 0 && i.sku === null)).toBe(true);
    expect((await low({ limit: 2 })).items).toHaveLength(2);
    const writer = await server.key("products:write");
    await server.call("products.adjust_stock", { slug: "gucci-oversize-bold-74", set: 0, reason: "Test" }, { key: writer });
    expect((await low({ threshold: 0, includeVariants: false, limit: 100 })).items.map((i) => i.slug)).toContain("gucci-oversize-bold-74");
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.list_low_stock", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "products.list_low_stock", key, [
      { threshold: -1 },
      { threshold: 1.5 },
      { limit: 0 },
      { limit: 101 },
      { includeVariants: "no" },
      { offset: 3 },
    ]);
  });
});
