// analytics.top_products through real HTTP: ranking by revenue and units, excluded statuses, local day boundaries, bounds.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrders } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["analytics:read"] } });
let p: Array<{ id: string; name: string }>;
beforeAll(async () => {
  p = await server.prisma.product.findMany({ where: { deletedAt: null }, orderBy: { id: "asc" }, take: 3, select: { id: true, name: true } });
  const line = (i: number, unitPriceDkk: number, quantity: number) => ({ productId: p[i]!.id, productName: "Navn på ordren", unitPriceDkk, quantity });
  await createOrders(server, [
    { createdAt: "2025-07-10T10:00:00Z", totalDkk: 55000, items: [line(0, 50000, 1), line(1, 1000, 5)] },
    { createdAt: "2025-07-11T10:00:00Z", totalDkk: 66000, status: "shipped", items: [line(0, 50000, 1), line(2, 8000, 2)] },
    { createdAt: "2025-07-12T10:00:00Z", totalDkk: 100000, status: "cancelled", items: [line(1, 1000, 100)] },
    { createdAt: "2025-07-31T22:30:00Z", totalDkk: 400000, items: [line(2, 8000, 50)] },
    { createdAt: "2025-07-13T10:00:00Z", totalDkk: 300, items: [{ productId: "gone-product", productName: "Udgået brille", unitPriceDkk: 300, quantity: 1 }] },
  ]);
});

type Top = { fromDate: string; toDate: string; by: string; products: Array<{ productId: string; productName: string; units: number; revenueDkk: number }> };
const top = async (input: object) => expectOk<Top>(server, "analytics.top_products", await server.call("analytics.top_products", input, { key }));
const july = { fromDate: "2025-07-01", toDate: "2025-07-31" };

describe("analytics.top_products", () => {
  it("ranks by line revenue by default, with current product names", async () => {
    const result = await top(july);
    expect(result).toEqual({
      ...july,
      by: "revenue",
      products: [
        { productId: p[0]!.id, productName: p[0]!.name, units: 2, revenueDkk: 100000 },
        { productId: p[2]!.id, productName: p[2]!.name, units: 2, revenueDkk: 16000 },
        { productId: p[1]!.id, productName: p[1]!.name, units: 5, revenueDkk: 5000 },
        { productId: "gone-product", productName: "Udgået brille", units: 1, revenueDkk: 300 },
      ],
    });
  });

  it("ranks by units and honours the limit", async () => {
    const result = await top({ ...july, by: "units", limit: 2 });
    expect(result.products.map((row) => [row.productId, row.units])).toEqual([
      [p[1]!.id, 5],
      [p[0]!.id, 2],
    ]);
  });

  it("counts the order placed at 00:30 local time on 1 August in August only", async () => {
    const august = await top({ fromDate: "2025-08-01", toDate: "2025-08-31" });
    expect(august.products).toEqual([{ productId: p[2]!.id, productName: p[2]!.name, units: 50, revenueDkk: 400000 }]);
    expect((await top({ fromDate: "2020-01-01", toDate: "2020-01-02" })).products).toEqual([]);
  });

  it("needs analytics:read", async () => {
    await expectScopeMatrix(server, "analytics.top_products", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "analytics.top_products", key, [
      { by: "profit" },
      { limit: 0 },
      { limit: 51 },
      { limit: 2.5 },
      { fromDate: "2025-13-01" },
      { fromDate: "2025-07-02", toDate: "2025-07-01" },
      { other: "x" },
    ]);
  });
});
