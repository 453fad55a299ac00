// analytics.abandoned_carts through real HTTP: which carts count, their value at current prices, idle time, totals and bounds,
// over the carts written here and the demo shop's two carts (idle for a day and a half).
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { DEMO } from "../../../prisma/seed/history.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["analytics:read"] } });
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
const ids: Record<string, string> = {};
let prices: { p0: number; p1: number; variant: number };
type Expected = { cartId: string; itemCount: number; valueDkk: number; customerEmail: string | null };
/** The demo shop's carts: Mette's session and the checkout session, both with her address, idle for 36 hours. */
let demoCarts: Expected[];

type Line = { productId: string; variantId?: string; quantity: number; updatedAt?: Date };
async function cart(name: string, updatedAt: Date, lines: Line[], extra: { email?: string; shippingEmail?: string; orderId?: string } = {}) {
  const db = server.prisma;
  const customer = extra.email ? await db.customer.create({ data: { email: extra.email } }) : null;
  const session = await db.storefrontSession.create({ data: { customerId: customer?.id ?? null } });
  const row = await db.cart.create({
    data: {
      sessionId: session.id,
      orderId: extra.orderId ?? null,
      ...(extra.shippingEmail ? { shipping: { name: "Bo", email: extra.shippingEmail } } : {}),
      updatedAt,
      items: { create: lines.map((line, i) => ({ lineKey: `l${i}`, productId: line.productId, variantId: line.variantId ?? null, quantity: line.quantity, updatedAt: line.updatedAt ?? updatedAt })) },
    },
  });
  ids[name] = row.id;
}

beforeAll(async () => {
  const db = server.prisma;
  const [p0, p1] = await db.product.findMany({ where: { deletedAt: null }, orderBy: { id: "asc" }, take: 2 });
  const variant = await db.productVariant.findFirstOrThrow({ where: { priceDkk: { not: null } } });
  const deleted = await db.product.findFirstOrThrow({ where: { deletedAt: { not: null } } });
  demoCarts = await Promise.all(
    [DEMO.session, DEMO.checkoutSession].map(async (sessionId) => {
      const demo = await db.cart.findUniqueOrThrow({ where: { sessionId }, include: { items: true } });
      let valueDkk = 0;
      for (const item of demo.items) valueDkk += Number((await db.product.findUniqueOrThrow({ where: { id: item.productId } })).priceDkk) * item.quantity;
      return { cartId: demo.id, itemCount: demo.items.reduce((sum, item) => sum + item.quantity, 0), valueDkk, customerEmail: DEMO.customerEmail };
    }),
  );
  prices = { p0: Number(p0!.priceDkk), p1: Number(p1!.priceDkk), variant: Number(variant.priceDkk) };
  await cart("customer", hoursAgo(48), [{ productId: p0!.id, quantity: 2 }], { email: "anna@example.dk" });
  await cart("shipping", hoursAgo(30), [{ productId: p1!.id, quantity: 1 }, { productId: variant.productId, variantId: variant.id, quantity: 3 }], { shippingEmail: "bo@example.dk" });
  await cart("recent", hoursAgo(2), [{ productId: p0!.id, quantity: 1 }]);
  await cart("ordered", hoursAgo(72), [{ productId: p0!.id, quantity: 1 }], { orderId: "some-order" });
  await cart("empty", hoursAgo(72), []);
  await cart("touched", hoursAgo(72), [{ productId: p0!.id, quantity: 1, updatedAt: hoursAgo(1.5) }]);
  await cart("deleted", hoursAgo(100), [{ productId: deleted.id, quantity: 4 }]);
});

type Result = { olderThanHours: number; cartCount: number; totalValueDkk: number; carts: Array<{ cartId: string; itemCount: number; valueDkk: number; updatedAt: string; customerEmail: string | null }> };
const abandoned = async (input: object) => expectOk<Result>(server, "analytics.abandoned_carts", await server.call("analytics.abandoned_carts", input, { key }));

describe("analytics.abandoned_carts", () => {
  it("lists idle carts with items and no order, valued at current prices, most valuable first", async () => {
    const result = await abandoned({});
    const shippingValue = prices.p1 + 3 * prices.variant;
    const expected = [
      { cartId: ids.customer!, itemCount: 2, valueDkk: 2 * prices.p0, customerEmail: "anna@example.dk" },
      { cartId: ids.shipping!, itemCount: 4, valueDkk: shippingValue, customerEmail: "bo@example.dk" },
      { cartId: ids.deleted!, itemCount: 4, valueDkk: 0, customerEmail: null },
      ...demoCarts,
    ].sort((a, b) => b.valueDkk - a.valueDkk);
    expect(new Set(expected.map((cart) => cart.valueDkk)).size, "distinct values, so the order is defined").toBe(expected.length);
    expect(result.olderThanHours).toBe(24);
    expect(result.cartCount).toBe(5);
    expect(result.totalValueDkk).toBe(2 * prices.p0 + shippingValue + demoCarts.reduce((sum, cart) => sum + cart.valueDkk, 0));
    expect(result.carts.map(({ updatedAt: _, ...rest }) => rest)).toEqual(expected);
    const customer = result.carts.find((row) => row.cartId === ids.customer)!;
    expect(Math.abs(Date.parse(customer.updatedAt) - hoursAgo(48).getTime())).toBeLessThan(60_000);
  });

  it("uses the last activity of the cart or its lines for the idle time", async () => {
    const result = await abandoned({ olderThanHours: 1 });
    expect(result.carts.map((row) => row.cartId).sort()).toEqual([ids.customer, ids.shipping, ids.recent, ids.deleted, ids.touched, ...demoCarts.map((cart) => cart.cartId)].sort());
    const touched = result.carts.find((row) => row.cartId === ids.touched)!;
    expect(Math.abs(Date.parse(touched.updatedAt) - hoursAgo(1.5).getTime())).toBeLessThan(60_000);
    expect((await abandoned({ olderThanHours: 40 })).carts.map((row) => row.cartId).sort()).toEqual([ids.customer, ids.deleted].sort());
    expect((await abandoned({ olderThanHours: 720 })).cartCount).toBe(0);
  });

  it("limits the list but not the totals", async () => {
    const result = await abandoned({ limit: 1 });
    expect(result.carts).toHaveLength(1);
    expect(result.cartCount).toBe(5);
  });

  it("needs analytics:read", async () => {
    await expectScopeMatrix(server, "analytics.abandoned_carts", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "analytics.abandoned_carts", key, [
      { olderThanHours: 0 },
      { olderThanHours: 721 },
      { olderThanHours: 1.5 },
      { olderThanHours: "24" },
      { limit: 0 },
      { limit: 101 },
      { since: "2025-01-01" },
    ]);
  });
});
