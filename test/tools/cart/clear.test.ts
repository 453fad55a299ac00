// cart.clear through real HTTP: empties lines and code, keeps the address, scopes, bad input.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, expectRejectedInSession, newSession, plainProducts, sessionIdOf } from "../../support/session.ts";

const { server } = useServer();

describe("cart.clear", () => {
  it("removes every line and the discount code but keeps the shipping address", async () => {
    const cookie = await newSession(server);
    const [a, b] = await plainProducts(server);
    await server.call("cart.add", { productSlug: a!.slug }, { cookie });
    await server.call("cart.add", { productSlug: b!.slug }, { cookie });
    await server.call("discounts.try_apply", { code: "VELKOMMEN10" }, { cookie });
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const result = expectOk<CartSummary>(server, "cart.clear", await server.call("cart.clear", {}, { cookie }));
    expect(result).toMatchObject({ lines: [], itemCount: 0, subtotalDkk: 0, discountCode: null, totalDkk: 0 });
    expect(result.shippingAddress).toMatchObject({ zip: "1160", city: "København K" });
    expect(await server.prisma.cartItem.count({ where: { cart: { sessionId: sessionIdOf(cookie) } } })).toBe(0);
    const again = expectOk<CartSummary>(server, "cart.clear", await server.call("cart.clear", {}, { cookie }));
    expect(again.lines).toEqual([]);
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.clear", {});
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    await expectRejected(server, "cart.clear", await server.key("cart:write"), [{ confirm: true }]);
    await expectRejectedInSession(server, "cart.clear", await newSession(server), [{ all: true }]);
  });
});
