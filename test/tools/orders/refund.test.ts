// orders.refund through real HTTP: partial and full refunds accumulate, never beyond what was paid, legal statuses only.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder, orderState } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });

type Result = { id: string; status: string; refundedDkk: number; remainingDkk: number };
const refund = (input: object) => server.call("orders.refund", input, { key });

describe("orders.refund", () => {
  it("refunds part, then the rest, accumulating refundedDkk", async () => {
    const order = await createOrder(server, { status: "delivered" });
    const total = Number(order.totalDkk);
    const first = expectOk<Result>(server, "orders.refund", await refund({ orderId: order.id, amountDkk: 1000, reason: "Ridse" }));
    expect(first).toEqual({ id: order.id, status: "partial_refund", refundedDkk: 1000, remainingDkk: total - 1000 });
    const second = expectOk<Result>(server, "orders.refund", await refund({ orderId: order.id, amountDkk: 500 }));
    expect(second).toEqual({ id: order.id, status: "partial_refund", refundedDkk: 1500, remainingDkk: total - 1500 });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.refund", subjectType: "order", subjectId: order.id });
    expect(audit!.before).toMatchObject({ refundedDkk: 1000, status: "partial_refund" });
    expect(audit!.after).toMatchObject({ refundedDkk: 1500 });
    const rest = expectOk<Result>(server, "orders.refund", await refund({ orderId: order.id }));
    expect(rest).toEqual({ id: order.id, status: "refunded", refundedDkk: total, remainingDkk: 0 });
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.refundedAt).not.toBeNull();
    const reasons = await server.prisma.orderStatusChange.findMany({ where: { orderId: order.id }, orderBy: { createdAt: "asc" } });
    expect(reasons.map((r) => [r.toStatus, r.reason])).toEqual([["partial_refund", "Ridse"], ["partial_refund", null], ["refunded", null]]);
  });

  it("an exact full amount makes the order refunded", async () => {
    const order = await createOrder(server, { status: "paid" });
    const result = expectOk<Result>(server, "orders.refund", await refund({ orderId: order.id, amountDkk: Number(order.totalDkk) }));
    expect(result.status).toBe("refunded");
  });

  it("refuses more than was paid minus refunded with 422 refund_exceeds_paid, writing nothing", async () => {
    const order = await createOrder(server, { status: "shipped" });
    expectOk(server, "orders.refund", await refund({ orderId: order.id, amountDkk: 100 }));
    const before = await orderState(server, order.id);
    expectProblem(await refund({ orderId: order.id, amountDkk: Number(order.totalDkk) }), 422, "refund_exceeds_paid");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("never lets concurrent refunds together exceed the total", async () => {
    const order = await createOrder(server, { status: "completed" });
    const part = Math.ceil(Number(order.totalDkk) * 0.6);
    const answers = await Promise.all([refund({ orderId: order.id, amountDkk: part }), refund({ orderId: order.id, amountDkk: part })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.refundedDkk).toBe(BigInt(part));
  });

  it("refuses unpaid, cancelled and fully refunded orders with 422 illegal_transition", async () => {
    for (const status of ["pending_payment", "pending", "flagged_review", "cancelled", "refunded"]) {
      const order = await createOrder(server, { status });
      const before = await orderState(server, order.id);
      expectProblem(await refund({ orderId: order.id, amountDkk: 100 }), 422, "illegal_transition");
      expect(await orderState(server, order.id)).toEqual(before);
    }
    const disputed = await createOrder(server, { status: "disputed" });
    expectProblem(await refund({ orderId: disputed.id, amountDkk: 100 }), 422, "illegal_transition");
    expect(expectOk<Result>(server, "orders.refund", await refund({ orderId: disputed.id })).status).toBe("refunded");
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await refund({ orderId: "nope" }), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectScopeMatrix(server, "orders.refund", { orderId: order.id, amountDkk: 100 });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectRejected(
      server,
      "orders.refund",
      key,
      [{}, { orderId: order.id, amountDkk: 0 }, { orderId: order.id, amountDkk: -5 }, { orderId: order.id, amountDkk: 1.5 }, { orderId: order.id, amountDkk: "100" }, { orderId: order.id, reason: "" }, { orderId: order.id, confirm: true }],
      () => orderState(server, order.id),
    );
  });
});
