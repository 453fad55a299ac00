// customer.list_addresses through real HTTP: the default first, only the caller's own book for a shopper.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, sessionFor } from "../orders/fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["customer:read"] } });
type Address = { id: string; isDefault: boolean; address: string };

describe("customer.list_addresses", () => {
  it("lists the demo customer's book for staff and for her own signed-in session, default first", async () => {
    const staffView = expectOk<Address[]>(server, "customer.list_addresses", await server.call("customer.list_addresses", { customerId: "demo-customer-mette" }, { key: staff }));
    expect(staffView).toEqual([{ id: "demo-address-mette", name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K", region: null, country: "DK", phone: expect.any(String), isDefault: true }]);
    const prisma = server.prisma;
    await prisma.address.create({ data: { id: "mette-summer", customerId: "demo-customer-mette", name: "Mette Hansen", address: "Strandvejen 2", zip: "3000", city: "Helsingør", lastUsedAt: new Date() } });
    const cookie = await sessionFor(server, "demo-customer-mette");
    const own = expectOk<Address[]>(server, "customer.list_addresses", await server.call("customer.list_addresses", {}, { cookie }));
    expect(own.map((a) => [a.id, a.isDefault])).toEqual([["demo-address-mette", true], ["mette-summer", false]]);
  });

  it("answers an empty book with [] and hides other customers' books from a session", async () => {
    const empty = await createCustomer(server, { email: "empty.book@example.dk" });
    const cookie = await sessionFor(server, empty.id);
    expect(expectOk(server, "customer.list_addresses", await server.call("customer.list_addresses", {}, { cookie }))).toEqual([]);
    expectProblem(await server.call("customer.list_addresses", { customerId: "demo-customer-mette" }, { cookie }), 404, "not_found");
    expectProblem(await server.call("customer.list_addresses", {}, { cookie: await sessionFor(server, null) }), 422, "no_customer");
    expectProblem(await server.call("customer.list_addresses", {}, { key: staff }), 400, "invalid_input");
    expectProblem(await server.call("customer.list_addresses", { customerId: "nobody" }, { key: staff }), 404, "not_found");
  });

  it("needs customer:read", async () => {
    await expectScopeMatrix(server, "customer.list_addresses", { customerId: "demo-customer-jonas" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "customer.list_addresses", staff, [{ customerId: "" }, { customerId: 5 }, { customerId: "x", extra: 1 }]);
  });
});
