// Concurrent checkouts never oversell and never over-redeem: conditional updates inside each order's transaction.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../support/session.ts";

const { server } = useServer();

async function shoppers(count: number, productSlug: string, code?: string): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const cookie = await newSession(server);
      expect((await server.call("cart.add", { productSlug }, { cookie })).status).toBe(200);
      if (code) expect((await server.call("discounts.try_apply", { code }, { cookie })).body.result).toMatchObject({ applied: true });
      expect((await server.call("cart.set_shipping_address", { ...ADDRESS, email: `shopper${i}@example.dk` }, { cookie })).status).toBe(200);
      return cookie;
    }),
  );
}

describe("concurrent checkouts", () => {
  it("sell exactly the last 10 units to 50 shoppers", async () => {
    const prisma = server.prisma;
    const [product] = await plainProducts(server);
    await prisma.product.update({ where: { id: product!.id }, data: { stock: 10n } });
    const cookies = await shoppers(50, product!.slug);
    const responses = await Promise.all(cookies.map((cookie) => server.call("cart.checkout", {}, { cookie })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(responses.filter((response) => response.status === 422 && response.body.code === "insufficient_stock")).toHaveLength(40);
    expect((await prisma.product.findUniqueOrThrow({ where: { id: product!.id } })).stock).toBe(0n);
    expect(await prisma.orderItem.aggregate({ where: { productId: product!.id }, _sum: { quantity: true } })).toEqual({ _sum: { quantity: 10 } });
    expect((await server.runtime.collaborators.catalog.product(product!.slug))!.stock).toBe(0);
  });

  it("redeem a code with usageLimit 5 exactly 5 times under 20 checkouts", async () => {
    const prisma = server.prisma;
    await prisma.discount.create({ data: { code: "FEM", type: "percent", value: 15n, usageLimit: 5n } });
    const [, product] = await plainProducts(server);
    await prisma.product.update({ where: { id: product!.id }, data: { stock: 1000n } });
    const cookies = await shoppers(20, product!.slug, "FEM");
    const responses = await Promise.all(cookies.map((cookie) => server.call("cart.checkout", {}, { cookie })));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(5);
    expect(responses.filter((response) => response.status === 422 && response.body.code === "discount_unavailable")).toHaveLength(15);
    expect((await prisma.discount.findUniqueOrThrow({ where: { code: "FEM" } })).usageCount).toBe(5n);
    expect(await prisma.order.count({ where: { discountCode: "FEM" } })).toBe(5);
    expect((await prisma.product.findUniqueOrThrow({ where: { id: product!.id } })).stock).toBe(995n);
  });
});
