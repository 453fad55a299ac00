// orders.get_by_number through real HTTP: exactly orders.get's answer for the numbered order, 404, scopes, bad input.
import { describe, expect, it } from "vitest";
import { DEMO } from "../../../prisma/seed/history.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:read"] } });

const call = (input: object) => server.call("orders.get_by_number", input, { key });

describe("orders.get_by_number", () => {
  it("answers exactly what orders.get answers for the order with that number", async () => {
    const order = await createOrder(server, { variant: true, quantities: [1, 2] });
    const byNumber = expectOk(server, "orders.get_by_number", await call({ number: order.number }));
    const byId = expectOk(server, "orders.get", await server.call("orders.get", { orderId: order.id }, { key }));
    expect(byNumber).toEqual(byId);
    expect(byNumber).not.toHaveProperty("number");
  });

  it("finds the demo shop's oldest order as #1001", async () => {
    expect(expectOk<{ id: string }>(server, "orders.get_by_number", await call({ number: 1001 })).id).toBe(DEMO.order(1));
  });

  it("answers 404 for a number no order has", async () => {
    expectProblem(await call({ number: 999 }), 404, "not_found");
    expectProblem(await call({ number: 2_147_483_647 }), 404, "not_found");
  });

  it("needs orders:read", async () => {
    await expectScopeMatrix(server, "orders.get_by_number", { number: 1001 });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.get_by_number", key, [
      {},
      { number: 0 },
      { number: -1001 },
      { number: 1001.5 },
      { number: "1001" },
      { number: "#1001" },
      { number: 2_147_483_648 },
      { number: 1001, extra: 1 },
    ]);
  });
});
