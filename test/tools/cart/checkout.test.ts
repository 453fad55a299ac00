// cart.checkout through real HTTP: the order, its snapshots, stock and discount usage, refusals, doors, scopes, bad input.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { mcpCall } from "../../support/mcp.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, commerceSnapshot, expectRejectedInSession, newSession, plainProducts, sessionIdOf, variantProduct } from "../../support/session.ts";

const { server } = useServer({ config: { publicBaseUrl: "https://shop.example.dk" } });

type Checkout = { orderId: string; status: string; totalDkk: number; paymentUrl: string };
const prisma = () => server.runtime.database.prisma;

async function filledCart(email = ADDRESS.email, quantities: number[] = [1, 2]) {
  const cookie = await newSession(server);
  const products = (await plainProducts(server, 3)).slice(-quantities.length);
  for (const [i, product] of products.entries()) {
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product.slug, quantity: quantities[i] }, { cookie }));
  }
  const summary = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", { ...ADDRESS, email }, { cookie }));
  return { cookie, products, summary };
}

describe("cart.checkout", () => {
  it("turns the cart into a pending_payment order with snapshots, stock taken and the session bound", async () => {
    const { cookie, products, summary } = await filledCart("New.Shopper@example.dk");
    const stockBefore = await prisma().product.findMany({ where: { id: { in: products.map((p) => p.id) } }, orderBy: { id: "asc" } });
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    expect(result).toEqual({ orderId: expect.any(String), status: "pending_payment", totalDkk: summary.totalDkk, paymentUrl: expect.any(String) });
    expect(result.paymentUrl).toMatch(new RegExp(`^https://shop\\.example\\.dk/orders/${result.orderId}/pay\\?token=[\\w-]+$`));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { items: { orderBy: { productName: "asc" } }, statusHistory: true } });
    expect(order).toMatchObject({
      status: "pending_payment", email: "new.shopper@example.dk", shippingName: ADDRESS.name, shippingAddress: ADDRESS.address,
      shippingZip: "1160", shippingCity: "København K", phoneNumber: null, channel: "web", isAiGenerated: false, aiAgentSource: null,
      currency: "DKK", fxRate: 1, paymentProvider: "manual", sessionId: sessionIdOf(cookie), discountCode: null,
    });
    expect([order.subtotalDkk, order.discountDkk, order.shippingDkk, order.totalDkk, order.vatOere].map(Number)).toEqual([
      summary.subtotalDkk, 0, summary.shippingDkk, summary.totalDkk, summary.vatOere,
    ]);
    expect(order.items.map((item) => ({ productId: item.productId, unit: Number(item.unitPriceDkk), quantity: item.quantity, sku: item.variantSku })).sort((a, b) => a.productId.localeCompare(b.productId)))
      .toEqual(summary.lines.map((line) => ({ productId: products.find((p) => p.slug === line.productSlug)!.id, unit: line.unitPriceDkk, quantity: line.quantity, sku: null })).sort((a, b) => a.productId.localeCompare(b.productId)));
    expect(order.statusHistory.map((change) => [change.fromStatus, change.toStatus, change.actor])).toEqual([[null, "pending_payment", `session:${sessionIdOf(cookie)}`]]);
    const customer = await prisma().customer.findUniqueOrThrow({ where: { email: "new.shopper@example.dk" } });
    expect(order.userId).toBe(customer.id);
    expect((await prisma().storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).customerId).toBe(customer.id);
    const stockAfter = await prisma().product.findMany({ where: { id: { in: products.map((p) => p.id) } }, orderBy: { id: "asc" } });
    for (const [i, row] of stockAfter.entries()) {
      const quantity = summary.lines.find((line) => line.productSlug === row.slug)!.quantity;
      expect(row.stock).toBe(stockBefore[i]!.stock - BigInt(quantity));
      expect(server.runtime.services.catalog.product(row.slug)!.stock).toBe(Number(row.stock));
    }
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "cart.checkout", subjectType: "order", subjectId: order.id, before: null, door: "rest" });
    expect(audit!.after).toMatchObject({ id: order.id, status: "pending_payment", totalDkk: summary.totalDkk });
    const cart = await prisma().cart.findUniqueOrThrow({ where: { sessionId: sessionIdOf(cookie) }, include: { items: true } });
    expect(cart).toMatchObject({ orderId: order.id, discountCode: null, items: [] });
    const page = await fetch(`${server.url}${new URL(result.paymentUrl).pathname}${new URL(result.paymentUrl).search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(order.id);
    expect((await fetch(`${server.url}/orders/${order.id}/pay?token=forged`)).status).toBe(404);
    expect((await fetch(`${server.url}/webhooks/stripe`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("redeems the cart's discount code and snapshots variants", async () => {
    const cookie = await newSession(server);
    const product = await variantProduct(server);
    const variant = product.variants.find((v) => v.stock > 0n)!;
    await server.call("cart.add", { productSlug: product.slug, variantSku: variant.sku }, { cookie });
    expect((await server.call("discounts.try_apply", { code: "sommer200" }, { cookie })).status).toBe(200);
    const summary = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const usage = (await prisma().discount.findUniqueOrThrow({ where: { code: "SOMMER200" } })).usageCount;
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { items: true } });
    expect(order.discountCode).toBe("SOMMER200");
    expect(Number(order.discountDkk)).toBe(summary.discountDkk);
    expect(summary.discountDkk).toBe(Math.min(20000, summary.subtotalDkk));
    expect(order.items[0]).toMatchObject({ variantId: variant.id, variantSku: variant.sku, variantAttributes: variant.attributes });
    expect((await prisma().discount.findUniqueOrThrow({ where: { code: "SOMMER200" } })).usageCount).toBe(usage + 1n);
    expect((await prisma().productVariant.findUniqueOrThrow({ where: { id: variant.id } })).stock).toBe(variant.stock - 1n);
  });

  it("refuses an empty cart and a cart without address", async () => {
    const cookie = await newSession(server);
    expectProblem(await server.call("cart.checkout", {}, { cookie }), 422, "cart_empty");
    const [product] = await plainProducts(server);
    await server.call("cart.add", { productSlug: product!.slug }, { cookie });
    expectProblem(await server.call("cart.checkout", {}, { cookie }), 422, "shipping_address_required");
    expectProblem(await server.call("cart.checkout", {}, { key: await server.key("cart:write") }), 422, "cart_empty");
  });

  it("refuses when the stock is gone and rolls everything back", async () => {
    const { cookie, products } = await filledCart(ADDRESS.email, [1, 1]);
    await prisma().product.update({ where: { id: products[1]!.id }, data: { stock: 0n } });
    const before = await commerceSnapshot(server);
    expectProblem(await server.call("cart.checkout", {}, { cookie }), 422, "insufficient_stock");
    expect(await commerceSnapshot(server)).toEqual(before);
    await prisma().product.update({ where: { id: products[1]!.id }, data: { stock: BigInt(products[1]!.stock) } });
  });

  it("refuses a code that no longer applies unless dropDiscount is true", async () => {
    const { cookie } = await filledCart();
    await server.call("discounts.try_apply", { code: "VELKOMMEN10" }, { cookie });
    await prisma().discount.update({ where: { code: "VELKOMMEN10" }, data: { validUntil: new Date("2020-01-01T00:00:00Z") } });
    const before = await commerceSnapshot(server);
    const refused = await server.call("cart.checkout", {}, { cookie });
    expectProblem(refused, 422, "discount_unavailable");
    expect(refused.body.detail).toMatch(/expired/);
    expect(await commerceSnapshot(server)).toEqual(before);
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { dropDiscount: true }, { cookie }));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    expect([order.discountCode, order.discountDkk]).toEqual([null, 0n]);
    await prisma().discount.update({ where: { code: "VELKOMMEN10" }, data: { validUntil: null } });
  });

  it("does not bind the session to an existing customer by e-mail alone", async () => {
    await prisma().customer.create({ data: { email: "known@example.dk" } });
    const { cookie } = await filledCart("known@example.dk");
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { customer: true } });
    expect(order.customer!.email).toBe("known@example.dk");
    expect((await prisma().storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).customerId).toBeNull();
  });

  it("marks orders placed through MCP as AI-generated on the mcp channel", async () => {
    const { cookie } = await filledCart();
    const response = await mcpCall(server, "cart.checkout", {}, { headers: { cookie } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const result = response.body.result as Checkout;
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    expect(order).toMatchObject({ channel: "mcp", isAiGenerated: true });
    expect(order.aiAgentSource).toEqual(expect.any(String));
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.checkout", {});
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const { cookie } = await filledCart();
    const bad = [{ dropDiscount: "yes" }, { dropDiscount: 1 }, { confirm: true }];
    await expectRejected(server, "cart.checkout", await server.key("cart:write"), bad);
    await expectRejectedInSession(server, "cart.checkout", cookie, bad);
  });
});
