// customer.get_orders through real HTTP: one customer's orders by id or e-mail, staff only.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

type Summary = { id: string; itemCount: number; createdAt: string };

const { server, keys: { key } } = useServer({ keys: { key: ["customer:read"] } });
let anna: { id: string };
const annaOrders: string[] = [];
beforeAll(async () => {
  anna = await createCustomer(server, { email: "anna@example.dk" });
  const other = await createCustomer(server, { email: "bo@example.dk" });
  for (let i = 1; i <= 3; i++) {
    annaOrders.push((await createOrder(server, { userId: anna.id, createdAt: new Date(Date.UTC(2026, 0, i)), quantities: [i] })).id);
  }
  await createOrder(server, { userId: other.id });
  await createOrder(server, { email: "anna@example.dk" });
});

const get = (input: object) => server.call("customer.get_orders", input, { key });

describe("customer.get_orders", () => {
  it("returns the customer's orders, newest first, by id or by e-mail", async () => {
    const byId = expectOk<Summary[]>(server, "customer.get_orders", await get({ customerId: anna.id }));
    expect(byId.map((o) => o.id)).toEqual([...annaOrders].reverse());
    expect(byId.map((o) => o.itemCount)).toEqual([3, 2, 1]);
    const byEmail = expectOk<Summary[]>(server, "customer.get_orders", await get({ email: "Anna@Example.dk", limit: 2 }));
    expect(byEmail.map((o) => o.id)).toEqual(byId.slice(0, 2).map((o) => o.id));
  });

  it("answers 404 for an unknown customer", async () => {
    expectProblem(await get({ customerId: "nope" }), 404, "not_found");
    expectProblem(await get({ email: "nobody@example.dk" }), 404, "not_found");
  });

  it("is forbidden to a storefront session, even its own customer", async () => {
    const cookie = await sessionFor(server, anna.id);
    expectProblem(await server.call("customer.get_orders", { customerId: anna.id }, { cookie }), 403, "forbidden");
    // Authorised before the input is read: an empty or broken input is refused as forbidden too, not as a 400.
    expectProblem(await server.call("customer.get_orders", {}, { cookie }), 403, "forbidden");
    expectProblem(await server.call("customer.get_orders", { customerId: 7, x: 1 }, { cookie }), 403, "forbidden");
  });

  it("needs customer:read", async () => {
    await expectScopeMatrix(server, "customer.get_orders", { customerId: anna.id });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "customer.get_orders", key, [{}, { customerId: anna.id, email: "anna@example.dk" }, { email: "anna" }, { customerId: "" }, { customerId: anna.id, limit: 0 }, { customerId: anna.id, limit: 101 }, { customerId: anna.id, x: 1 }]);
  });
});
