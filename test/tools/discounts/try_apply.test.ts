// discounts.try_apply through real HTTP: applies valid codes to the session cart, explains each refusal, audit, scopes.
import { beforeAll, describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { expectRejectedInSession, newSession, plainProducts, sessionIdOf } from "../../support/session.ts";

const { server } = useServer();
beforeAll(async () => {
  await server.prisma.discount.createMany({
    data: [
      { code: "SLUKKET", type: "percent", value: 5n, active: false },
      { code: "BRUGT", type: "fixed", value: 1000n, usageLimit: 2n, usageCount: 2n },
    ],
  });
});

type Applied = { applied: true; code: string; discountDkk: number; summary: CartSummary };
type NotApplied = { applied: false; code: string; reason: string; detail: string };
const tryApply = async (code: string, cookie: string) => expectOk<Applied | NotApplied>(server, "discounts.try_apply", await server.call("discounts.try_apply", { code }, { cookie }));

async function cartWith(productCount = 1) {
  const cookie = await newSession(server);
  const products = (await plainProducts(server)).slice(-productCount);
  for (const product of products) await server.call("cart.add", { productSlug: product.slug }, { cookie });
  return { cookie, subtotal: products.reduce((sum, p) => sum + p.priceDkk, 0) };
}

describe("discounts.try_apply", () => {
  it("applies a valid code (any case) to the cart and returns the new totals", async () => {
    const { cookie, subtotal } = await cartWith(2);
    const result = await tryApply("  velkommen10 ", cookie);
    const discount = Math.round(subtotal / 10);
    expect(result).toEqual({ applied: true, code: "VELKOMMEN10", discountDkk: discount, summary: expect.objectContaining({ discountCode: "VELKOMMEN10", discountDkk: discount, subtotalDkk: subtotal }) });
    const cart = await server.prisma.cart.findUniqueOrThrow({ where: { sessionId: sessionIdOf(cookie) } });
    expect(cart.discountCode).toBe("VELKOMMEN10");
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "discounts.try_apply", subjectType: "cart", subjectId: cart.id });
    expect(audit!.before).toMatchObject({ discountCode: null });
    expect(audit!.after).toMatchObject({ discountCode: "VELKOMMEN10" });
    const fixed = await tryApply("SOMMER200", cookie);
    expect(fixed).toMatchObject({ applied: true, code: "SOMMER200", discountDkk: Math.min(20000, subtotal) });
  });

  it("explains each refusal and leaves the cart's code as it was", async () => {
    const { cookie } = await cartWith();
    await tryApply("VELKOMMEN10", cookie);
    const cases: Array<[string, string, RegExp]> = [
      ["NOPE", "unknown", /no discount code "NOPE"/],
      ["slukket", "inactive", /not active/],
      ["UDLOBET", "expired", /expired/],
      ["BRUGT", "used_up", /maximum of 2/],
    ];
    for (const [code, reason, detail] of cases) {
      const result = await tryApply(code, cookie);
      expect(result).toEqual({ applied: false, code: code.toUpperCase(), reason, detail: expect.stringMatching(detail) });
    }
    const cart = await server.prisma.cart.findUniqueOrThrow({ where: { sessionId: sessionIdOf(cookie) } });
    expect(cart.discountCode).toBe("VELKOMMEN10");
    expect((await lastAudit(server))!.tool).toBe("discounts.try_apply");
  });

  it("applies to an API-key-only caller's throw-away cart without storing anything", async () => {
    const key = await server.key("cart:write");
    const carts = await server.prisma.cart.count();
    const result = expectOk<Applied>(server, "discounts.try_apply", await server.call("discounts.try_apply", { code: "VELKOMMEN10" }, { key }));
    expect(result).toMatchObject({ applied: true, discountDkk: 0, summary: { lines: [], discountCode: "VELKOMMEN10" } });
    expect(await server.prisma.cart.count()).toBe(carts);
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "discounts.try_apply", { code: "VELKOMMEN10" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const bad = [{}, { code: "" }, { code: "   " }, { code: 10 }, { code: "X".repeat(101) }, { code: "VELKOMMEN10", cart: 1 }];
    await expectRejected(server, "discounts.try_apply", await server.key("cart:write"), bad);
    await expectRejectedInSession(server, "discounts.try_apply", (await cartWith()).cookie, bad);
  });
});
