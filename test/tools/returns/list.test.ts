// returns.list through real HTTP: newest first, by status and by order, paged; 404 for an unknown order; returns:read.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { openReturn, shippedOrder, type ReturnView } from "./fixtures.ts";

const { server, keys: { reader, writer } } = useServer({ keys: { reader: ["returns:read"], writer: ["returns:write"] } });
const list = async (input: object) => expectOk<ReturnView[]>(server, "returns.list", await server.call("returns.list", input, { key: reader }));

describe("returns.list", () => {
  it("lists the demo's returns, newest first, and filters them by status", async () => {
    expect((await list({})).map((r) => r.returnId)).toEqual(["demo-return-1", "demo-return-3", "demo-return-2"]);
    expect((await list({ status: "approved" })).map((r) => r.returnId)).toEqual(["demo-return-2"]);
    expect(await list({ status: "refunded" })).toEqual([]);
  });

  it("lists one order's returns, and pages with limit and offset", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [1, 1, 1] });
    const made = [];
    for (const quantities of [[1, 0, 0], [0, 1, 0], [0, 0, 1]]) made.push(await openReturn(server, writer, order, { quantities }));
    const ids = made.map((r) => r.returnId).reverse();
    expect((await list({ orderId: order.id })).map((r) => r.returnId)).toEqual(ids);
    expect((await list({ orderId: order.id, limit: 2 })).map((r) => r.returnId)).toEqual(ids.slice(0, 2));
    expect((await list({ orderId: order.id, limit: 2, offset: 2 })).map((r) => r.returnId)).toEqual(ids.slice(2));
    expect(await list({ orderId: order.id, status: "approved" })).toEqual([]);
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await server.call("returns.list", { orderId: "no-such-order" }, { key: reader }), 404, "not_found");
  });

  it("needs returns:read", async () => {
    await expectScopeMatrix(server, "returns.list", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "returns.list", reader, [{ status: "open" }, { limit: 0 }, { limit: 101 }, { offset: -1 }, { orderId: "" }, { customerId: "x" }]);
  });
});
