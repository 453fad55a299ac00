// cart.add through real HTTP: session carts, accumulation, stock and variant rules, throw-away sessions, scopes, bad input.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { expectRejectedInSession, newSession, plainProducts, sessionIdOf, variantProduct } from "../../support/session.ts";

const { server } = useServer();

const add = async (input: object, cookie: string) => expectOk<CartSummary>(server, "cart.add", await server.call("cart.add", input, { cookie }));

describe("cart.add", () => {
  it("adds a product to the session cart and returns the priced summary", async () => {
    const cookie = await newSession(server);
    const [product] = await plainProducts(server, 3);
    const summary = await add({ productSlug: product!.slug }, cookie);
    expect(summary.lines).toHaveLength(1);
    expect(summary.lines[0]).toEqual({
      lineId: expect.any(String),
      productSlug: product!.slug,
      productName: product!.name,
      variantSku: null,
      variantAttributes: null,
      quantity: 1,
      unitPriceDkk: product!.priceDkk,
      lineTotalDkk: product!.priceDkk,
      stock: product!.stock,
    });
    expect(summary.itemCount).toBe(1);
    expect(summary.subtotalDkk).toBe(product!.priceDkk);
    const again = await add({ productSlug: product!.slug, quantity: 2 }, cookie);
    expect(again.lines).toHaveLength(1);
    expect(again.lines[0]!.quantity).toBe(3);
    expect(again.lines[0]!.lineId).toBe(summary.lines[0]!.lineId);
    const cart = await server.prisma.cart.findUniqueOrThrow({ where: { sessionId: sessionIdOf(cookie) }, include: { items: true } });
    expect(cart.items.map((item) => [item.productId, item.quantity])).toEqual([[product!.id, 3]]);
  });

  it("refuses more than the stock, counting what is already in the cart", async () => {
    const cookie = await newSession(server);
    const product = (await plainProducts(server, 2)).find((p) => p.stock <= 50)!;
    await add({ productSlug: product.slug, quantity: product.stock - 1 }, cookie);
    expectProblem(await server.call("cart.add", { productSlug: product.slug, quantity: 2 }, { cookie }), 422, "insufficient_stock");
    const summary = await add({ productSlug: product.slug }, cookie);
    expect(summary.lines[0]!.quantity).toBe(product.stock);
    const sold = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, stock: 0, variants: { none: {} } } });
    expectProblem(await server.call("cart.add", { productSlug: sold.slug }, { cookie }), 422, "insufficient_stock");
  });

  it("caps one line at 100 units", async () => {
    const prisma = server.prisma;
    const [product] = await plainProducts(server);
    await prisma.product.update({ where: { id: product!.id }, data: { stock: 1000n } });
    const cookie = await newSession(server);
    await add({ productSlug: product!.slug, quantity: 100 }, cookie);
    expectProblem(await server.call("cart.add", { productSlug: product!.slug }, { cookie }), 422, "quantity_limit");
    await prisma.product.update({ where: { id: product!.id }, data: { stock: BigInt(product!.stock) } });
  });

  it("needs variantSku for a product with variants and prices the variant", async () => {
    const cookie = await newSession(server);
    const product = await variantProduct(server);
    const refused = await server.call("cart.add", { productSlug: product.slug }, { cookie });
    expectProblem(refused, 422, "variant_required");
    expect(refused.body.detail).toContain(product.variants[0]!.sku);
    const variant = product.variants.find((v) => v.priceDkk !== null && v.stock > 0n)!;
    const summary = await add({ productSlug: product.slug, variantSku: variant.sku }, cookie);
    expect(summary.lines[0]).toMatchObject({ variantSku: variant.sku, variantAttributes: variant.attributes, unitPriceDkk: Number(variant.priceDkk), stock: Number(variant.stock) });
    expectProblem(await server.call("cart.add", { productSlug: product.slug, variantSku: "no-such-sku" }, { cookie }), 404, "not_found");
  });

  it("answers 404 for unknown and deleted products", async () => {
    const cookie = await newSession(server);
    expectProblem(await server.call("cart.add", { productSlug: "no-such-product" }, { cookie }), 404, "not_found");
    const deleted = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: { not: null } } });
    expectProblem(await server.call("cart.add", { productSlug: deleted.slug }, { cookie }), 404, "not_found");
  });

  it("gives an API-key-only caller a throw-away cart: the line is answered, nothing is stored", async () => {
    const key = await server.key("cart:write");
    const [product] = await plainProducts(server);
    const carts = await server.prisma.cart.count();
    const summary = expectOk<CartSummary>(server, "cart.add", await server.call("cart.add", { productSlug: product!.slug, quantity: 2 }, { key }));
    expect(summary.lines.map((line) => line.quantity)).toEqual([2]);
    const next = expectOk<CartSummary>(server, "cart.get_summary", await server.call("cart.get_summary", {}, { key }));
    expect(next.lines).toEqual([]);
    expect(await server.prisma.cart.count()).toBe(carts);
  });

  it("treats a tampered cookie as no session (401)", async () => {
    const cookie = await newSession(server);
    const [product] = await plainProducts(server);
    const tampered = cookie.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expectProblem(await server.call("cart.add", { productSlug: product!.slug }, { cookie: tampered }), 401, "unauthorized");
    const forged = `shop_session=${sessionIdOf(cookie)}`;
    expectProblem(await server.call("cart.add", { productSlug: product!.slug }, { cookie: forged }), 401, "unauthorized");
  });

  it("enforces its scope", async () => {
    const [product] = await plainProducts(server);
    await expectScopeMatrix(server, "cart.add", { productSlug: product!.slug });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const [product] = await plainProducts(server);
    const bad = [
      {},
      { productSlug: "" },
      { productSlug: product!.slug, quantity: 0 },
      { productSlug: product!.slug, quantity: 101 },
      { productSlug: product!.slug, quantity: 1.5 },
      { productSlug: product!.slug, quantity: "2" },
      { productSlug: product!.slug, variantSku: "" },
      { productSlug: product!.slug, extra: true },
    ];
    await expectRejected(server, "cart.add", await server.key("cart:write"), bad);
    await expectRejectedInSession(server, "cart.add", await newSession(server), bad);
  });
});
