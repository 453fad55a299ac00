// products.bulk_update_prices through real HTTP: dry run, percent rounding, fixed deltas, selectors, bounds, one audit per product.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { changedPrice } from "../../../src/tools/products/product-rows.ts";

type Result = { dryRun: boolean; matched: number; changed: number; products: Array<{ slug: string; oldPriceDkk: number; newPriceDkk: number }> };

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const bulk = (input: object) => server.call("products.bulk_update_prices", input, { key });
const prices = async () => new Map((await server.prisma.product.findMany()).map((p) => [p.slug, Number(p.priceDkk)]));

describe("products.bulk_update_prices", () => {
  it("rounds percent changes half away from zero to whole øre, never below 1 øre", () => {
    expect(changedPrice(1000n, "percent", 10)).toBe(1100n);
    expect(changedPrice(105n, "percent", 10)).toBe(116n); // 115.5 → 116
    expect(changedPrice(1005n, "percent", -10)).toBe(905n); // 904.5 → 905
    expect(changedPrice(999n, "percent", 12.5)).toBe(1124n); // 1123.875 → 1124
    expect(changedPrice(1n, "percent", -90)).toBe(1n); // 0.1 → at least 1 øre
    expect(changedPrice(5000n, "fixed", -100)).toBe(4900n);
  });

  it("previews with dryRun without writing or auditing a product", async () => {
    const before = await prices();
    const result = expectOk<Result>(server, "products.bulk_update_prices", await bulk({ categorySlug: "tilbehoer", mode: "percent", value: 10, dryRun: true }));
    expect(result.dryRun).toBe(true);
    const visible = await server.prisma.product.count({ where: { deletedAt: null, category: { slug: "tilbehoer" } } });
    expect(result.matched).toBe(visible);
    for (const p of result.products) expect(p.newPriceDkk).toBe(Number(changedPrice(BigInt(p.oldPriceDkk), "percent", 10)));
    expect(await prices()).toEqual(before);
    expect(await server.prisma.auditEntry.count({ where: { tool: "products.bulk_update_prices" } })).toBe(0);
  });

  it("applies a percent change to a category: one audit entry per product, visible to the next search", async () => {
    const result = expectOk<Result>(server, "products.bulk_update_prices", await bulk({ categorySlug: "kontaktlinser", mode: "percent", value: -10 }));
    expect(result.dryRun).toBe(false);
    expect(result.changed).toBe(result.matched);
    const after = await prices();
    for (const p of result.products) expect(after.get(p.slug)).toBe(p.newPriceDkk);
    const entries = await server.prisma.auditEntry.findMany({ where: { tool: "products.bulk_update_prices", subjectType: "product" } });
    expect(entries).toHaveLength(result.changed);
    const first = result.products[0]!;
    const entry = entries.find((e) => (e.after as { slug: string }).slug === first.slug)!;
    expect(entry.before).toMatchObject({ priceDkk: first.oldPriceDkk });
    expect(entry.after).toMatchObject({ priceDkk: first.newPriceDkk, images: expect.any(Array) });
    const listed = expectOk<Array<{ slug: string; priceDkk: number }>>(server, "products.search", await server.call("products.search", { categorySlug: "kontaktlinser", limit: 100 }));
    for (const p of listed) expect(p.priceDkk).toBe(after.get(p.slug));
    const deleted = await server.prisma.product.findUniqueOrThrow({ where: { slug: "ray-ban-multifocal-studio-27" } });
    expect(result.products.some((p) => p.slug === deleted.slug)).toBe(false);
  });

  it("selects by brand and slugs together (intersection) with a fixed change", async () => {
    const before = await prices();
    const result = expectOk<Result>(server, "products.bulk_update_prices", await bulk({ brand: "gucci", slugs: ["gucci-oversize-bold-74", "prada-wayfarer-bold-9"], mode: "fixed", value: -5000 }));
    expect(result.products).toEqual([{ slug: "gucci-oversize-bold-74", oldPriceDkk: before.get("gucci-oversize-bold-74"), newPriceDkk: before.get("gucci-oversize-bold-74")! - 5000 }]);
    expect((await prices()).get("prada-wayfarer-bold-9")).toBe(before.get("prada-wayfarer-bold-9"));
  });

  it("refuses prices below 1 øre (422), unknown selectors (404) and more than 1000 products (422)", async () => {
    const before = await auditCount(server);
    expectProblem(await bulk({ slugs: ["gucci-oversize-bold-74"], mode: "fixed", value: -999999999 }), 422, "price_out_of_range");
    expectProblem(await bulk({ categorySlug: "no-such-category", mode: "percent", value: 5 }), 404, "not_found");
    expectProblem(await bulk({ slugs: ["gucci-oversize-bold-74", "no-such-product"], mode: "percent", value: 5 }), 404, "not_found");
    expectProblem(await bulk({ slugs: ["ray-ban-multifocal-studio-27"], mode: "percent", value: 5 }), 404, "not_found");
    const category = await server.prisma.category.findUniqueOrThrow({ where: { slug: "tilbehoer" } });
    await server.prisma.product.createMany({
      data: Array.from({ length: 1001 }, (_, i) => ({ slug: `bulk-filler-${i}`, name: `Filler ${i}`, description: "Fyldvare til test.", priceDkk: 100n, stock: 1n, brand: "Fyld", categoryId: category.id })),
    });
    expectProblem(await bulk({ brand: "Fyld", mode: "percent", value: 5, dryRun: true }), 422, "too_many_products");
    expect(await auditCount(server)).toBe(before);
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.bulk_update_prices", { slugs: ["gucci-oversize-bold-74"], mode: "fixed", value: 100, dryRun: true });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "products.bulk_update_prices", key, [
      { mode: "percent", value: 10 },
      { brand: "Gucci", mode: "percent", value: -91 },
      { brand: "Gucci", mode: "percent", value: 1001 },
      { brand: "Gucci", mode: "percent", value: 1.234 },
      { brand: "Gucci", mode: "percent", value: 0 },
      { brand: "Gucci", mode: "fixed", value: 1.5 },
      { brand: "Gucci", mode: "double", value: 2 },
      { brand: "Gucci", mode: "percent" },
      { slugs: [], mode: "percent", value: 5 },
      { slugs: Array.from({ length: 1001 }, (_, i) => `s-${i}`), mode: "percent", value: 5 },
      { brand: "Gucci", mode: "percent", value: 5, dryRun: "yes" },
      { brand: "Gucci", mode: "percent", value: 5, extra: 1 },
    ], prices);
  });
});
