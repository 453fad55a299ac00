// orders.change_address through real HTTP: before shipping only, Danish addresses checked, audited; refusals write nothing.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder, orderState } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });
const NEW = { name: "Mette Hansen", address: "Vestergade 10", zip: "5000", city: "odense c" };
const change = (orderId: string, input: object = NEW) => server.call("orders.change_address", { orderId, ...input }, { key });

describe("orders.change_address", () => {
  it("moves an unshipped order to a new address, with the official city name, audited", async () => {
    for (const status of ["pending_payment", "pending", "flagged_review", "paid", "processing"]) {
      const order = await createOrder(server, { status });
      const result = expectOk(server, "orders.change_address", await change(order.id));
      expect(result).toEqual({ id: order.id, status, shippingName: "Mette Hansen", shippingAddress: "Vestergade 10", shippingZip: "5000", shippingCity: "Odense C", shippingCountry: "DK" });
      expect(await lastAudit(server)).toMatchObject({ tool: "orders.change_address", subjectId: order.id, before: { shippingAddress: order.shippingAddress }, after: { shippingAddress: "Vestergade 10" } });
    }
  });

  it("takes an address abroad without Danish checks", async () => {
    const order = await createOrder(server, { status: "paid" });
    expect(expectOk(server, "orders.change_address", await change(order.id, { name: "Mette Hansen", address: "Storgatan 3", zip: "211 34", city: "Malmö", country: "SE" }))).toMatchObject({ shippingCountry: "SE", shippingZip: "211 34" });
  });

  it("keeps the region given, keeps the order's own within its country, and drops it for another country", async () => {
    const order = await createOrder(server, { status: "paid" });
    const region = async () => (await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).shippingRegion;
    expectOk(server, "orders.change_address", await change(order.id, { name: "Mette Hansen", address: "Marienplatz 1", zip: "80331", city: "München", country: "DE", region: "Bayern" }));
    expect(await region()).toBe("Bayern");
    expectOk(server, "orders.change_address", await change(order.id, { name: "Mette Hansen", address: "Marienplatz 2", zip: "80331", city: "München" }));
    expect(await region()).toBe("Bayern");
    expectOk(server, "orders.change_address", await change(order.id, { name: "Mette Hansen", address: "Storgatan 3", zip: "211 34", city: "Malmö", country: "SE" }));
    expect(await region()).toBeNull();
  });

  it("refuses once the order has shipped (422 already_shipped) and a wrong Danish postal code, changing nothing", async () => {
    for (const status of ["shipped", "delivered", "completed", "cancelled", "refunded"]) {
      const order = await createOrder(server, { status });
      const before = await orderState(server, order.id);
      expectProblem(await change(order.id), 422, "already_shipped");
      expect(await orderState(server, order.id)).toEqual(before);
    }
    const order = await createOrder(server, { status: "paid" });
    const before = await orderState(server, order.id);
    expectProblem(await change(order.id, { ...NEW, zip: "9999" }), 422, "invalid_address");
    expect(await orderState(server, order.id)).toEqual(before);
    expectProblem(await change("no-such-order"), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectScopeMatrix(server, "orders.change_address", { orderId: order.id, ...NEW });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectRejected(server, "orders.change_address", key, [{ orderId: order.id }, { orderId: order.id, ...NEW, name: "" }, { orderId: order.id, ...NEW, zip: "!" }, { orderId: order.id, ...NEW, country: "Danmark" }, { orderId: order.id, ...NEW, region: " " }, { orderId: order.id, ...NEW, x: 1 }], () => orderState(server, order.id));
  });
});
