// user.get_last_shipping through real HTTP: the session customer's newest saved or ordered-to address, nobody else's.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

const { server } = useServer();

const last = (auth: { key?: string; cookie?: string }) => server.call("user.get_last_shipping", {}, auth);

describe("user.get_last_shipping", () => {
  it("returns the latest order's address, or a saved address used more recently", async () => {
    const customer = await createCustomer(server, { email: "anna@example.dk" });
    const other = await createCustomer(server, { email: "bo@example.dk" });
    await createOrder(server, { userId: other.id, shippingAddress: "Andenvej 1", createdAt: new Date(Date.now() + 60_000) });
    await createOrder(server, { userId: customer.id, shippingAddress: "Gammelvej 1", createdAt: new Date("2025-01-01T00:00:00Z") });
    await createOrder(server, { userId: customer.id, shippingAddress: "Nyvej 2", createdAt: new Date("2025-06-01T00:00:00Z") });
    const cookie = await sessionFor(server, customer.id);
    const fromOrder = expectOk(server, "user.get_last_shipping", await last({ cookie }));
    expect(fromOrder).toEqual({ name: "Mette Hansen", address: "Nyvej 2", zip: "8000", city: "Aarhus C", country: "DK", phone: "+45 12 34 56 78", usedAt: "2025-06-01T00:00:00.000Z", source: "order" });
    await server.prisma.address.create({
      data: { customerId: customer.id, name: "Anna Jensen", address: "Strøget 12", zip: "1160", city: "København K", lastUsedAt: new Date("2025-07-01T00:00:00Z") },
    });
    const saved = expectOk(server, "user.get_last_shipping", await last({ cookie }));
    expect(saved).toMatchObject({ name: "Anna Jensen", address: "Strøget 12", zip: "1160", phone: null, source: "saved_address" });
  });

  it("answers 404 when the customer has no address yet", async () => {
    const customer = await createCustomer(server, { email: "ny@example.dk" });
    expectProblem(await last({ cookie: await sessionFor(server, customer.id) }), 404, "not_found");
  });

  it("refuses with 422 no_customer without a bound customer (unbound session or a plain key)", async () => {
    expectProblem(await last({ cookie: await sessionFor(server, null) }), 422, "no_customer");
    expectProblem(await last({ key: await server.key("customer:read") }), 422, "no_customer");
  });

  it("needs customer:read", async () => {
    await expectScopeMatrix(server, "user.get_last_shipping", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    const customer = await createCustomer(server, { email: "bad@example.dk" });
    const cookie = await sessionFor(server, customer.id);
    for (const input of [{ customerId: customer.id }, { limit: 1 }]) expectProblem(await server.call("user.get_last_shipping", input, { cookie }), 400);
    await expectRejected(server, "user.get_last_shipping", await server.key("customer:read"), [{ customerId: "x" }]);
  });
});
