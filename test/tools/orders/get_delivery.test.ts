// orders.get_delivery through real HTTP: the method and parcel shop an order was placed with, for staff packing it and
// for the shopper who owns it; none for an order placed without a method.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../../support/session.ts";
import { createCustomer, createOrder, sessionFor } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:read"] } });
type Delivery = { orderId: string; delivery: null | { method: string; name: string; carrier: string; pickupPoint: null | { id: string; name: string; address: string; zip: string; city: string } } };
const get = (orderId: string, auth: { key?: string; cookie?: string } = { key }) => server.call("orders.get_delivery", { orderId }, auth);

async function pickupOrder() {
  const cookie = await newSession(server);
  const product = (await plainProducts(server, 3))[0]!;
  await server.call("cart.add", { productSlug: product.slug, quantity: 1 }, { cookie });
  await server.call("cart.set_shipping_address", ADDRESS, { cookie });
  const placed = await server.call("cart.checkout", { deliveryMethodId: "gls-pakkeshop", pickupPointId: "gls-aarhus-spar" }, { cookie });
  return { orderId: (placed.body.result as { orderId: string }).orderId, cookie };
}

describe("orders.get_delivery", () => {
  it("answers the method and the parcel shop chosen at checkout", async () => {
    const { orderId } = await pickupOrder();
    const result = expectOk<Delivery>(server, "orders.get_delivery", await get(orderId));
    expect(result).toMatchObject({ orderId, delivery: { method: "gls-pakkeshop", name: "GLS Pakkeshop", carrier: "GLS", pickupPoint: { id: "gls-aarhus-spar" } } });
  });

  it("answers null for an order placed without a method, and 404 for an unknown one", async () => {
    const order = await createOrder(server, { status: "paid" });
    expect(expectOk<Delivery>(server, "orders.get_delivery", await get(order.id))).toEqual({ orderId: order.id, delivery: null, shippingCountry: "DK", shippingRegion: null });
    expectProblem(await get("no-such-order"), 404, "not_found");
  });

  it("answers a signed-in shopper for their own order only", async () => {
    const customer = await createCustomer(server, { email: "levering@example.dk" });
    const own = await createOrder(server, { status: "paid", email: customer.email, userId: customer.id });
    const cookie = await sessionFor(server, customer.id);
    expectOk(server, "orders.get_delivery", await get(own.id, { cookie }));
    const { orderId } = await pickupOrder();
    expectProblem(await get(orderId, { cookie }), 404, "not_found");
  });

  it("needs orders:read, and rejects bad input", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectScopeMatrix(server, "orders.get_delivery", { orderId: order.id });
    await expectRejected(server, "orders.get_delivery", key, [{}, { orderId: "" }, { orderId: order.id, x: 1 }]);
  });
});
