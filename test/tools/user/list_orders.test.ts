// user.list_orders through real HTTP: only the session customer's orders, newest first.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

const { server } = useServer();
let cookie: string;
const mine: string[] = [];
beforeAll(async () => {
  const customer = await createCustomer(server, { email: "anna@example.dk" });
  const other = await createCustomer(server, { email: "bo@example.dk" });
  for (let i = 1; i <= 3; i++) mine.push((await createOrder(server, { userId: customer.id, createdAt: new Date(Date.UTC(2026, 0, i)) })).id);
  await createOrder(server, { userId: other.id });
  await createOrder(server, { email: "anna@example.dk" });
  cookie = await sessionFor(server, customer.id);
});

describe("user.list_orders", () => {
  it("lists only the session customer's orders, newest first", async () => {
    const result = expectOk<Array<{ id: string }>>(server, "user.list_orders", await server.call("user.list_orders", {}, { cookie }));
    expect(result.map((o) => o.id)).toEqual([...mine].reverse());
    const two = expectOk<Array<{ id: string }>>(server, "user.list_orders", await server.call("user.list_orders", { limit: 2 }, { cookie }));
    expect(two.map((o) => o.id)).toEqual([mine[2], mine[1]]);
  });

  it("is empty for a customer without orders", async () => {
    const customer = await createCustomer(server, { email: "ny@example.dk" });
    expect(expectOk(server, "user.list_orders", await server.call("user.list_orders", {}, { cookie: await sessionFor(server, customer.id) }))).toEqual([]);
  });

  it("refuses with 422 no_customer without a bound customer", async () => {
    expectProblem(await server.call("user.list_orders", {}, { cookie: await sessionFor(server, null) }), 422, "no_customer");
    expectProblem(await server.call("user.list_orders", {}, { key: await server.key("*") }), 422, "no_customer");
  });

  it("needs customer:read", async () => {
    await expectScopeMatrix(server, "user.list_orders", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    for (const input of [{ limit: 0 }, { limit: 101 }, { customerId: "x" }]) expectProblem(await server.call("user.list_orders", input, { cookie }), 400);
    await expectRejected(server, "user.list_orders", await server.key("customer:read"), [{ limit: 0 }, { limit: "5" }, { email: "a@b.dk" }]);
  });
});
