// cart.get_summary through real HTTP: the one pricing function (shipping threshold, discount, VAT rounding, variants).
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { vatOf } from "../../../src/tools/orders/pricing.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { expectRejectedInSession, newSession, plainProducts } from "../../support/session.ts";

const { server } = useServer();

const FLAT = 4900;
const THRESHOLD = 49900;
const summary = async (cookie: string) => expectOk<CartSummary>(server, "cart.get_summary", await server.call("cart.get_summary", {}, { cookie }));
const add = async (cookie: string, productSlug: string, quantity = 1) => expectOk<CartSummary>(server, "cart.add", await server.call("cart.add", { productSlug, quantity }, { cookie }));

describe("cart.get_summary", () => {
  it("shows an empty cart with zero totals and no shipping", async () => {
    const cookie = await newSession(server);
    expect(await summary(cookie)).toEqual({
      lines: [], itemCount: 0, subtotalDkk: 0, discountCode: null, discountDkk: 0, discountNotice: null,
      shippingDkk: 0, vatOere: 0, totalDkk: 0, shippingAddress: null,
    });
  });

  it("charges the flat rate below the free-shipping threshold and includes 25 % VAT rounded half up", async () => {
    const cookie = await newSession(server);
    const cheap = (await plainProducts(server, 2)).find((p) => p.priceDkk * 2 < THRESHOLD)!;
    await add(cookie, cheap.slug, 2);
    const result = await summary(cookie);
    expect(result.subtotalDkk).toBe(cheap.priceDkk * 2);
    expect(result.shippingDkk).toBe(FLAT);
    expect(result.totalDkk).toBe(cheap.priceDkk * 2 + FLAT);
    expect(result.vatOere).toBe(Math.round((result.totalDkk * 25) / 125));
    expect(result.itemCount).toBe(2);
  });

  it("ships free at or above the threshold", async () => {
    const cookie = await newSession(server);
    const dear = (await plainProducts(server)).find((p) => p.priceDkk >= THRESHOLD)!;
    await add(cookie, dear.slug);
    const result = await summary(cookie);
    expect(result.shippingDkk).toBe(0);
    expect(result.totalDkk).toBe(dear.priceDkk);
  });

  it("takes the discount off before the threshold check and reports codes that no longer apply", async () => {
    const prisma = server.prisma;
    const cookie = await newSession(server);
    const product = (await plainProducts(server)).find((p) => p.priceDkk >= THRESHOLD && p.priceDkk * 0.9 < THRESHOLD)!;
    await add(cookie, product.slug);
    const applied = await server.call("discounts.try_apply", { code: "velkommen10" }, { cookie });
    expect(applied.status).toBe(200);
    const result = await summary(cookie);
    const discount = Math.round(product.priceDkk / 10);
    expect(result).toMatchObject({ discountCode: "VELKOMMEN10", discountDkk: discount, shippingDkk: FLAT, discountNotice: null });
    expect(result.totalDkk).toBe(product.priceDkk - discount + FLAT);
    await prisma.discount.update({ where: { code: "VELKOMMEN10" }, data: { active: false } });
    const stale = await summary(cookie);
    expect(stale).toMatchObject({ discountCode: "VELKOMMEN10", discountDkk: 0, shippingDkk: 0, totalDkk: product.priceDkk });
    expect(stale.discountNotice).toMatch(/not active/);
    await prisma.discount.update({ where: { code: "VELKOMMEN10" }, data: { active: true } });
  });

  it("follows the shipping settings", async () => {
    const cookie = await newSession(server);
    const cheap = (await plainProducts(server)).find((p) => p.priceDkk < 20000)!;
    await add(cookie, cheap.slug);
    const key = await server.key("settings:write");
    expect((await server.call("settings.update_shipping", { flatRateDkk: 2900 }, { key })).status).toBe(200);
    expect((await summary(cookie)).shippingDkk).toBe(2900);
    expect((await server.call("settings.update_shipping", { freeShippingThresholdDkk: cheap.priceDkk }, { key })).status).toBe(200);
    expect((await summary(cookie)).shippingDkk).toBe(0);
    await server.call("settings.update_shipping", { flatRateDkk: FLAT, freeShippingThresholdDkk: THRESHOLD }, { key });
  });

  it("leaves out lines whose product was deleted", async () => {
    const prisma = server.prisma;
    const cookie = await newSession(server);
    const [a, b] = await plainProducts(server);
    await add(cookie, a!.slug);
    await add(cookie, b!.slug);
    await prisma.product.update({ where: { id: a!.id }, data: { deletedAt: new Date() } });
    const result = await summary(cookie);
    expect(result.lines.map((line) => line.productSlug)).toEqual([b!.slug]);
    await prisma.product.update({ where: { id: a!.id }, data: { deletedAt: null } });
  });

  it("computes VAT as total / 5 rounded half up", () => {
    expect([0n, 1n, 2n, 3n, 4n, 5n, 12345n, 9007199254740990n].map((total) => vatOf(total))).toEqual([0n, 0n, 0n, 1n, 1n, 1n, 2469n, 1801439850948198n]);
  });

  it("refuses totals beyond 9007199254740991 øre", async () => {
    const prisma = server.prisma;
    const cookie = await newSession(server);
    const [product] = await plainProducts(server);
    await add(cookie, product!.slug, 2);
    await prisma.product.update({ where: { id: product!.id }, data: { priceDkk: 9007199254740991n } });
    const response = await server.call("cart.get_summary", {}, { cookie });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("amount_too_large");
    await prisma.product.update({ where: { id: product!.id }, data: { priceDkk: BigInt(product!.priceDkk) } });
  });

  it("answers an empty cart to an API-key-only caller", async () => {
    const result = expectOk<CartSummary>(server, "cart.get_summary", await server.call("cart.get_summary", {}, { key: await server.key("cart:write") }));
    expect(result.lines).toEqual([]);
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.get_summary", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "cart.get_summary", await server.key("cart:write"), [{ extra: 1 }]);
    await expectRejectedInSession(server, "cart.get_summary", await newSession(server), [{ lineId: "x" }]);
  });
});
