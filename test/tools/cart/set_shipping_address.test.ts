// cart.set_shipping_address through real HTTP: Danish postal-code validation, normalised city, scopes, bad input.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, commerceSnapshot, expectRejectedInSession, newSession, sessionIdOf } from "../../support/session.ts";

const { server } = useServer();

describe("cart.set_shipping_address", () => {
  it("stores the address with the official city name and a lower-case e-mail", async () => {
    const cookie = await newSession(server);
    const result = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", { ...ADDRESS, phone: "+45 12 34 56 78" }, { cookie }));
    const expected = { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K", email: "mette@example.dk", phone: "+45 12 34 56 78" };
    expect(result.shippingAddress).toEqual(expected);
    const cart = await server.prisma.cart.findUniqueOrThrow({ where: { sessionId: sessionIdOf(cookie) } });
    expect(cart.shipping).toEqual(expected);
    const replaced = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", { ...ADDRESS, zip: "8000", city: "Aarhus C" }, { cookie }));
    expect(replaced.shippingAddress).toMatchObject({ zip: "8000", city: "Aarhus C", phone: null });
  });

  it("refuses unknown postal codes and cities that do not match (422 invalid_address)", async () => {
    const cookie = await newSession(server);
    const before = await commerceSnapshot(server);
    const unknown = await server.call("cart.set_shipping_address", { ...ADDRESS, zip: "0001" }, { cookie });
    expectProblem(unknown, 422, "invalid_address");
    expect(unknown.body.detail).toMatch(/does not exist/);
    const mismatch = await server.call("cart.set_shipping_address", { ...ADDRESS, zip: "8000", city: "Odense C" }, { cookie });
    expectProblem(mismatch, 422, "invalid_address");
    expect(mismatch.body.detail).toMatch(/Aarhus C/);
    expect((await commerceSnapshot(server)).carts.filter((cart) => cart.shipping !== null)).toEqual(before.carts.filter((cart) => cart.shipping !== null));
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.set_shipping_address", ADDRESS);
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const bad = [
      {},
      { ...ADDRESS, zip: "123" },
      { ...ADDRESS, zip: "12345" },
      { ...ADDRESS, zip: 1160 },
      { ...ADDRESS, email: "not-an-email" },
      { ...ADDRESS, name: "" },
      { ...ADDRESS, phone: "call me" },
      { ...ADDRESS, country: "SE" },
    ];
    await expectRejected(server, "cart.set_shipping_address", await server.key("cart:write"), bad);
    await expectRejectedInSession(server, "cart.set_shipping_address", await newSession(server), bad);
  });
});
