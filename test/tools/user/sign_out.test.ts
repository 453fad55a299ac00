// user.sign_out through real HTTP: the session forgets its customer and keeps its cart.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { plainProducts, sessionIdOf } from "../../support/session.ts";
import { createCustomer, sessionFor } from "../orders/fixtures.ts";

const { server } = useServer();

describe("user.sign_out", () => {
  it("unbinds the customer and keeps the cart; repeating it changes nothing", async () => {
    const customer = await createCustomer(server, { email: "ud@example.dk" });
    const cookie = await sessionFor(server, customer.id);
    const [product] = await plainProducts(server);
    expect((await server.call("cart.add", { productSlug: product!.slug }, { cookie })).status).toBe(200);
    expect(expectOk(server, "user.sign_out", await server.call("user.sign_out", {}, { cookie }))).toEqual({ signedOut: true });
    const session = await server.prisma.storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) }, include: { cart: { include: { items: true } } } });
    expect(session.customerId).toBeNull();
    expect(session.cart?.items).toHaveLength(1);
    expectProblem(await server.call("user.list_orders", {}, { cookie }), 422, "no_customer");
    expect(expectOk(server, "user.sign_out", await server.call("user.sign_out", {}, { cookie }))).toEqual({ signedOut: false });
  });

  it("refuses 422 no_session for a key without a storefront session", async () => {
    expectProblem(await server.call("user.sign_out", {}, { key: await server.key("*") }), 422, "no_session");
  });

  it("needs cart:write", async () => {
    await expectScopeMatrix(server, "user.sign_out", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "user.sign_out", await server.key("cart:write"), [{ customerId: "x" }, { all: true }]);
  });
});
