// returns.get through real HTTP: one return with its items, the demo's too; 404 unknown; returns:read.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { openReturn, shippedOrder, type ReturnView } from "./fixtures.ts";

const { server, keys: { reader, writer } } = useServer({ keys: { reader: ["returns:read"], writer: ["returns:write"] } });
const get = (returnId: string) => server.call("returns.get", { returnId }, { key: reader });

describe("returns.get", () => {
  it("answers the return with its items and deadline", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2, quantities: [2, 1] });
    const approved = await openReturn(server, writer, order, { quantities: [1, 1], approve: true });
    const result = expectOk<ReturnView>(server, "returns.get", await get(approved.returnId));
    expect(result).toEqual(approved);
    expect(result.items.map((item) => item.quantity)).toEqual([1, 1]);
  });

  it("shows the demo's requested withdrawal", async () => {
    expect(expectOk<ReturnView>(server, "returns.get", await get("demo-return-1"))).toMatchObject({ orderId: "demo-order-23", kind: "withdrawal", status: "requested", items: [{ orderItemId: "demo-order-23-line-1", quantity: 1 }] });
  });

  it("answers 404 for an unknown return", async () => {
    expectProblem(await get("no-such-return"), 404, "not_found");
  });

  it("needs returns:read", async () => {
    await expectScopeMatrix(server, "returns.get", { returnId: "demo-return-1" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "returns.get", reader, [{}, { returnId: "" }, { returnId: "demo-return-1", full: true }]);
  });
});
