// orders.item_options through real HTTP: each line's swappable variants at the price orders.change_items would charge.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:read"] } });
type Option = { orderItemId: string; productName: string; variantSku: string | null; quantity: number; variants: Array<{ id: string; sku: string; attributes: Record<string, string>; unitPriceDkk: number; stock: number }> };
const options = async (orderId: string) => expectOk<Option[]>(server, "orders.item_options", await server.call("orders.item_options", { orderId }, { key }));

describe("orders.item_options", () => {
  it("lists the variants of a variant line's product with the catalogue price, and none for a plain line", async () => {
    const order = await createOrder(server, { status: "paid", variant: true, quantities: [1, 2] });
    const line = order.items.find((item) => item.variantId)!;
    const plain = order.items.find((item) => !item.variantId)!;
    const product = await server.prisma.product.findUniqueOrThrow({ where: { id: line.productId }, include: { variants: { orderBy: { createdAt: "asc" } } } });
    const result = await options(order.id);
    expect(result.find((o) => o.orderItemId === line.id)).toEqual({
      orderItemId: line.id,
      productName: line.productName,
      variantSku: line.variantSku,
      quantity: 1,
      variants: product.variants.map((v) => ({ id: v.id, sku: v.sku, attributes: v.attributes, unitPriceDkk: Number(v.priceDkk ?? product.priceDkk), stock: Number(v.stock) })),
    });
    expect(result.find((o) => o.orderItemId === plain.id)).toMatchObject({ quantity: 2, variantSku: null, variants: [] });
  });

  it("names the demo order's variant line the change_items example swaps", async () => {
    const line = (await options("demo-order-16")).find((o) => o.orderItemId === "demo-order-16-line-3")!;
    expect(line.variantSku).toBe("gucci-cat-eye-coast-57-s");
    expect(line.variants.map((v) => v.sku)).toContain("gucci-cat-eye-coast-57-m");
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await server.call("orders.item_options", { orderId: "no-such-order" }, { key }), 404, "not_found");
  });

  it("needs orders:read", async () => {
    await expectScopeMatrix(server, "orders.item_options", { orderId: "demo-order-16" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.item_options", key, [{}, { orderId: "" }, { orderId: 16 }, { orderId: "demo-order-16", x: 1 }]);
  });
});
