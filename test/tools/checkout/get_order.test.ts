// checkout.get_order through real HTTP: the order of the caller's completed session with its shipping, hidden from others.
import { describe, expect, it } from "vitest";
import type { SessionView } from "../../../src/tools/checkout/schemas.ts";
import type { OrderView } from "../../../src/tools/checkout/get_order.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { openSession } from "./helpers.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["checkout:agent"] } });

async function completedOrder() {
  const { view } = await openSession(server, key);
  const done = expectOk<SessionView>(server, "checkout.complete", await server.call("checkout.complete", { id: view.id, payment: { handlerId: "payment_link" } }, { key }));
  return done;
}

describe("checkout.get_order", () => {
  it("returns the order with the completed session, and its shipment once shipped", async () => {
    const done = await completedOrder();
    const order = expectOk<OrderView>(server, "checkout.get_order", await server.call("checkout.get_order", { orderId: done.orderId }, { key }));
    expect(order).toEqual({ id: done.orderId, status: "pending_payment", canceled: false, shippedAt: null, deliveredAt: null, carrier: null, trackingNumber: null, trackingUrl: null, checkout: done, fulfillmentEvents: [], adjustments: [] });
    const staff = await server.key("*");
    for (const status of ["paid", "shipped"]) expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: done.orderId, status }, { key: staff }));
    const shipped = expectOk<OrderView>(server, "checkout.get_order", await server.call("checkout.get_order", { orderId: done.orderId }, { key }));
    expect(shipped.status).toBe("shipped");
    expect(shipped.shippedAt).not.toBeNull();
  });

  it("hides orders of others' sessions and orders not from a session (404)", async () => {
    const done = await completedOrder();
    expectProblem(await server.call("checkout.get_order", { orderId: done.orderId }, { key: await server.key("checkout:agent") }), 404, "not_found");
    const other = await server.prisma.order.findFirstOrThrow({ where: { id: { not: done.orderId! } } });
    expectProblem(await server.call("checkout.get_order", { orderId: other.id }, { key }), 404, "not_found");
    await expectScopeMatrix(server, "checkout.get_order", { orderId: done.orderId });
  });

  it("rejects bad input with 400", async () => {
    await expectRejected(server, "checkout.get_order", key, [{}, { orderId: "" }, { orderId: 1 }, { id: "x" }]);
  });
});
