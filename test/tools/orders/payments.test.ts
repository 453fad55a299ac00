// orders.payments through real HTTP: the ledger of an order as payments and refunds are booked by the tools that cause them.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "./fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["orders:read", "orders:write"] } });

type Entry = { kind: string; method: string; amountDkk: number; reference: string | null; createdAt: string };
const ledger = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key: staff }));

describe("orders.payments", () => {
  it("is empty for an unpaid order, books the payment when the bank transfer is marked received, then each refund", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    expect(await ledger(order.id)).toEqual([]);
    expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status: "paid" }, { key: staff }));
    const paid = await ledger(order.id);
    expect(paid).toEqual([{ kind: "payment", method: "bank_transfer", amountDkk: Number(order.totalDkk), reference: null, createdAt: expect.any(String) }]);

    expectOk(server, "orders.refund", await server.call("orders.refund", { orderId: order.id, amountDkk: 1000 }, { key: staff }));
    expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status: "refunded" }, { key: staff }));
    const entries = await ledger(order.id);
    expect(entries.map((e) => [e.kind, e.amountDkk])).toEqual([["payment", Number(order.totalDkk)], ["refund", 1000], ["refund", Number(order.totalDkk) - 1000]]);
    // refundedDkk on the order is what the ledger gave back.
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.refundedDkk).toBe(BigInt(entries.filter((e) => e.kind !== "payment").reduce((sum, e) => sum + e.amountDkk, 0)));
  });

  it("books a payment once: a second move to paid (after a dispute) adds nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status: "disputed" }, { key: staff }));
    expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status: "paid" }, { key: staff }));
    expect((await ledger(order.id)).filter((e) => e.kind === "payment")).toHaveLength(1);
  });

  it("lists the demo shop's history: paid orders have their payment, refunded ones their refund", async () => {
    const orders = await server.prisma.order.findMany({ where: { id: { startsWith: "demo-order-" } } });
    for (const order of orders) {
      const entries = await ledger(order.id);
      const paid = entries.filter((e) => e.kind === "payment").reduce((sum, e) => sum + e.amountDkk, 0);
      const returned = entries.filter((e) => e.kind !== "payment").reduce((sum, e) => sum + e.amountDkk, 0);
      expect(paid, order.id).toBe(order.paidAt ? Number(order.totalDkk) : 0);
      expect(returned, order.id).toBe(Number(order.refundedDkk));
    }
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await server.call("orders.payments", { orderId: "nope" }, { key: staff }), 404, "not_found");
  });

  it("needs orders:read", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectScopeMatrix(server, "orders.payments", { orderId: order.id });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.payments", staff, [{}, { orderId: "" }, { orderId: 5 }, { orderId: "x", extra: 1 }]);
  });
});
