// orders.get_number through real HTTP: {orderId, number} of an order, 404, scopes, bad input.
import { describe, expect, it } from "vitest";
import { DEMO } from "../../../prisma/seed/history.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:read"] } });

const call = (input: object) => server.call("orders.get_number", input, { key });

describe("orders.get_number", () => {
  it("answers the order's id and number, and nothing else", async () => {
    const order = await createOrder(server);
    expect(expectOk(server, "orders.get_number", await call({ orderId: order.id }))).toEqual({ orderId: order.id, number: order.number });
  });

  it("numbers the demo orders from 1001 in the order they were placed", async () => {
    const demo = await server.prisma.order.findMany({ where: { id: { startsWith: "demo-order-" } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const numbers = [];
    for (const order of demo) numbers.push(expectOk<{ number: number }>(server, "orders.get_number", await call({ orderId: order.id })).number);
    expect(numbers).toEqual(demo.map((_, i) => 1001 + i));
    expect(expectOk(server, "orders.get_number", await call({ orderId: DEMO.order(1) }))).toEqual({ orderId: DEMO.order(1), number: 1001 });
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await call({ orderId: "nope" }), 404, "not_found");
  });

  it("needs orders:read", async () => {
    await expectScopeMatrix(server, "orders.get_number", { orderId: DEMO.order(1) });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.get_number", key, [{}, { orderId: "" }, { orderId: 1001 }, { orderId: "x".repeat(201) }, { orderId: "x", extra: 1 }]);
  });
});
