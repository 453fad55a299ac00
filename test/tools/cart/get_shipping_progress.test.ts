// cart.get_shipping_progress through real HTTP: what is left to buy for free shipping, by the one pricing function.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { expectRejectedInSession, newSession, plainProducts } from "../../support/session.ts";

type Progress = { shippingDkk: number; freeShippingThresholdDkk: number; leftForFreeShippingDkk: number };

const { server } = useServer();

const FLAT = 4900;
const THRESHOLD = 49900;
const progress = async (cookie: string) => expectOk<Progress>(server, "cart.get_shipping_progress", await server.call("cart.get_shipping_progress", {}, { cookie }));
const add = async (cookie: string, productSlug: string, quantity = 1) => expectOk<CartSummary>(server, "cart.add", await server.call("cart.add", { productSlug, quantity }, { cookie }));

describe("cart.get_shipping_progress", () => {
  it("leaves nothing to buy for an empty cart, which ships nothing", async () => {
    expect(await progress(await newSession(server))).toEqual({ shippingDkk: 0, freeShippingThresholdDkk: THRESHOLD, leftForFreeShippingDkk: 0 });
  });

  it("tells what is left below the threshold, counted after the discount, as cart.get_summary prices it", async () => {
    const cookie = await newSession(server);
    const cheap = (await plainProducts(server, 2)).find((p) => p.priceDkk * 2 < THRESHOLD)!;
    await add(cookie, cheap.slug, 2);
    expect(await progress(cookie)).toEqual({ shippingDkk: FLAT, freeShippingThresholdDkk: THRESHOLD, leftForFreeShippingDkk: THRESHOLD - cheap.priceDkk * 2 });
    expectOk(server, "discounts.try_apply", await server.call("discounts.try_apply", { code: "VELKOMMEN10" }, { cookie }));
    const summary = expectOk<CartSummary>(server, "cart.get_summary", await server.call("cart.get_summary", {}, { cookie }));
    const after = await progress(cookie);
    expect(after.shippingDkk).toBe(summary.shippingDkk);
    expect(after.leftForFreeShippingDkk).toBe(THRESHOLD - (summary.subtotalDkk - summary.discountDkk));
  });

  it("leaves nothing once shipping is free: at the threshold, or when shipping costs nothing anyway", async () => {
    const cookie = await newSession(server);
    const dear = (await plainProducts(server)).find((p) => p.priceDkk >= THRESHOLD)!;
    await add(cookie, dear.slug);
    expect(await progress(cookie)).toEqual({ shippingDkk: 0, freeShippingThresholdDkk: THRESHOLD, leftForFreeShippingDkk: 0 });

    const small = await newSession(server);
    const cheap = (await plainProducts(server)).find((p) => p.priceDkk < THRESHOLD)!;
    await add(small, cheap.slug);
    const key = await server.key("settings:write");
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { flatRateDkk: 0 }, { key }));
    try {
      expect(await progress(small)).toEqual({ shippingDkk: 0, freeShippingThresholdDkk: THRESHOLD, leftForFreeShippingDkk: 0 });
    } finally {
      await server.call("settings.update_shipping", { flatRateDkk: FLAT }, { key });
    }
  });

  it("refuses like the summary when the cart's total is beyond 9007199254740991 øre", async () => {
    const prisma = server.prisma;
    const cookie = await newSession(server);
    const [product] = await plainProducts(server);
    await add(cookie, product!.slug, 2);
    await prisma.product.update({ where: { id: product!.id }, data: { priceDkk: 9007199254740991n } });
    try {
      expectProblem(await server.call("cart.get_shipping_progress", {}, { cookie }), 422, "amount_too_large");
    } finally {
      await prisma.product.update({ where: { id: product!.id }, data: { priceDkk: BigInt(product!.priceDkk) } });
    }
  });

  it("answers an empty cart to an API-key-only caller", async () => {
    const result = expectOk<Progress>(server, "cart.get_shipping_progress", await server.call("cart.get_shipping_progress", {}, { key: await server.key("cart:write") }));
    expect(result.leftForFreeShippingDkk).toBe(0);
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.get_shipping_progress", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "cart.get_shipping_progress", await server.key("cart:write"), [{ extra: 1 }]);
    await expectRejectedInSession(server, "cart.get_shipping_progress", await newSession(server), [{ lineId: "x" }]);
  });
});
