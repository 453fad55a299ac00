// orders.get_delivery through real HTTP: the delivery method and parcel shop of an order, for staff and its own shopper.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../../support/session.ts";

const { server } = useServer();

async function pickupOrder(): Promise<{ cookie: string; orderId: string }> {
  const cookie = await newSession(server);
  const product = (await plainProducts(server, 2)).find((p) => p.priceDkk < 49900)!;
  expectOk<CartSummary>(server, "cart.add", await server.call("cart.add", { productSlug: product.slug }, { cookie }));
  await server.call("cart.set_shipping_address", { ...ADDRESS, email: `levering.${Date.now()}@example.dk` }, { cookie });
  const placed = expectOk<{ orderId: string }>(server, "cart.checkout", await server.call("cart.checkout", { deliveryMethodId: "postnord-pakkeshop", pickupPointId: "pn-frb-meny" }, { cookie }));
  return { cookie, orderId: placed.orderId };
}

describe("orders.get_delivery", () => {
  it("gives the chosen method, its price and the parcel shop, to staff and to the shopper who ordered", async () => {
    const { cookie, orderId } = await pickupOrder();
    const expected = {
      method: "postnord-pakkeshop", name: "PostNord Pakkeshop", carrier: "PostNord", priceDkk: 3900,
      pickupPoint: { id: "pn-frb-meny", name: "Meny Frederiksberg", address: "Gammel Kongevej 120", zip: "1850", city: "Frederiksberg C" },
    };
    expect(expectOk(server, "orders.get_delivery", await server.call("orders.get_delivery", { orderId }, { key: await server.key("orders:read") }))).toEqual(expected);
    expect(expectOk(server, "orders.get_delivery", await server.call("orders.get_delivery", { orderId }, { cookie }))).toEqual(expected);
  });

  it("answers nulls for an order placed without a method", async () => {
    const result = expectOk(server, "orders.get_delivery", await server.call("orders.get_delivery", { orderId: "demo-order-01" }, { key: await server.key("orders:read") }));
    expect(result).toMatchObject({ method: null, name: null, carrier: null, pickupPoint: null, priceDkk: expect.any(Number) });
  });

  it("is 404 for an unknown order; a session not signed in as its customer is refused", async () => {
    expectProblem(await server.call("orders.get_delivery", { orderId: "no-such-order" }, { key: await server.key("orders:read") }), 404);
    const { orderId } = await pickupOrder();
    const other = await newSession(server);
    expectProblem(await server.call("orders.get_delivery", { orderId }, { cookie: other }), 422, "no_customer");
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "orders.get_delivery", { orderId: "demo-order-01" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.get_delivery", await server.key("orders:read"), [{}, { orderId: "" }, { orderId: 1 }, { orderId: "demo-order-01", extra: 1 }]);
  });
});
