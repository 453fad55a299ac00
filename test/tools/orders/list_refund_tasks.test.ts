// orders.list_refund_tasks through real HTTP: the open bank-transfer refunds (the demo one and one a cancellation opens),
// the paid-out ones when asked, scopes and bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "./fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["orders:read", "orders:write"] } });
type Task = { taskId: string; orderId: string; email: string; amountDkk: number; account: string | null; status: string; createdAt: string; doneAt: string | null; doneBy: string | null };

const list = async (input: object = {}) => expectOk<Task[]>(server, "orders.list_refund_tasks", await server.call("orders.list_refund_tasks", input, { key: staff }));

describe("orders.list_refund_tasks", () => {
  it("lists the open refunds oldest first, with the order's e-mail and the account given at cancelling", async () => {
    const order = await createOrder(server, { status: "paid", email: "refusion@example.dk" });
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Udsolgt", refundAccount: "1234 0001234567" }, { key: staff }));
    const open = await list();
    expect(open[0]).toMatchObject({ taskId: "demo-refund-task", orderId: "demo-order-05", status: "open", doneAt: null, doneBy: null });
    expect(open.at(-1)).toEqual({
      taskId: expect.any(String), orderId: order.id, email: "refusion@example.dk", amountDkk: Number(order.totalDkk), account: "1234 0001234567",
      status: "open", createdAt: expect.stringMatching(/Z$/), doneAt: null, doneBy: null,
    });
  });

  it("lists the paid-out ones when asked, newest first", async () => {
    expect(await list({ status: "done" })).toEqual([]);
    expectOk(server, "orders.complete_refund_task", await server.call("orders.complete_refund_task", { taskId: "demo-refund-task" }, { key: staff }));
    expect((await list({ status: "done" })).map((t) => [t.taskId, t.status])).toEqual([["demo-refund-task", "done"]]);
    expect((await list()).map((t) => t.taskId)).not.toContain("demo-refund-task");
    expect(await list({ limit: 1, status: "done" })).toHaveLength(1);
  });

  it("needs orders:read", async () => {
    await expectScopeMatrix(server, "orders.list_refund_tasks", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.list_refund_tasks", staff, [{ status: "paid" }, { limit: 0 }, { limit: 101 }, { x: 1 }]);
  });
});
