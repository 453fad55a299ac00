// returns.request through real HTTP: withdrawals within 14 days of delivery, complaints within 24 months, only shipped
// orders, non-returnable products, quantities never beyond what was ordered (also when requests race), exchanges.
import { describe, expect, it } from "vitest";
import { complaintDeadline, refundDeadline, withdrawalDeadline } from "../../../src/tools/returns/deadlines.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "../orders/fixtures.ts";
import { returnState, shippedOrder, type ReturnView } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["returns:write", "returns:read"] } });
const prisma = () => server.prisma;
type Order = Awaited<ReturnType<typeof shippedOrder>>;
const request = (order: Order, input: object = {}) =>
  server.call("returns.request", { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "Fortrudt", ...input }, { key });

describe("returns.request", () => {
  it("opens a withdrawal within 14 days of delivery, audited, and answers the return", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 5, quantities: [2, 1] });
    const result = expectOk<ReturnView>(server, "returns.request", await request(order, { items: [{ orderItemId: order.items[0]!.id, quantity: 2 }], reason: "  Passede ikke  " }));
    expect(result).toEqual({
      returnId: expect.any(String),
      orderId: order.id,
      orderNumber: order.number,
      kind: "withdrawal",
      status: "requested",
      reason: "Passede ikke",
      rejectReason: null,
      items: [{ orderItemId: order.items[0]!.id, productName: order.items[0]!.productName, quantity: 2 }],
      exchangeVariantId: null,
      replacementOrderId: null,
      refundDkk: null,
      refundTo: "original",
      refundGiftCard: null,
      refundDueBy: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await lastAudit(server)).toMatchObject({ tool: "returns.request", subjectType: "return", subjectId: result.returnId, before: null, after: { status: "requested", items: [{ quantity: 2 }] } });
  });

  it("takes a withdrawal of a shipped order not yet delivered, and of a completed or partly refunded one", async () => {
    expectOk(server, "returns.request", await request(await shippedOrder(server)));
    expectOk(server, "returns.request", await request(await shippedOrder(server, { deliveredDaysAgo: 1, status: "completed" })));
    expectOk(server, "returns.request", await request(await shippedOrder(server, { deliveredDaysAgo: 1, status: "partial_refund" })));
  });

  it("closes the withdrawal window 14 days after delivery (422 return_window_closed) but takes a complaint for 24 months", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 20 });
    const before = await returnState(server, order.id);
    const refused = await request(order);
    expectProblem(refused, 422, "return_window_closed");
    expect(refused.body.detail).toMatch(/14-day right of withdrawal/);
    expect(await returnState(server, order.id)).toEqual(before);
    expectOk(server, "returns.request", await request(order, { kind: "complaint", reason: "Hængslet knækkede" }));
    const old = await shippedOrder(server, { deliveredDaysAgo: 740 });
    expectProblem(await request(old, { kind: "complaint" }), 422, "return_window_closed");
  });

  it("counts the windows in Danish calendar days, a withdrawal ending on a weekend running to Monday", () => {
    // Delivered Wednesday 4 Nov 2026 at 10:00 in Copenhagen: day 14 is Wednesday 18 Nov, ending at midnight local time.
    expect(withdrawalDeadline(new Date("2026-11-04T09:00:00Z")).toISOString()).toBe("2026-11-18T22:59:59.999Z");
    // Delivered Saturday 7 Nov: day 14 is Saturday 21 Nov, so the period runs to the end of Monday 23 Nov.
    expect(withdrawalDeadline(new Date("2026-11-07T09:00:00Z")).toISOString()).toBe("2026-11-23T22:59:59.999Z");
    // Delivered just after midnight local time (still the previous day in UTC), summer time.
    expect(withdrawalDeadline(new Date("2026-06-30T22:30:00Z")).toISOString()).toBe("2026-07-15T21:59:59.999Z");
    // 24 months from Wednesday 4 Nov 2026 is Saturday 4 Nov 2028: to the end of Monday 6 Nov.
    expect(complaintDeadline(new Date("2026-11-04T09:00:00Z")).toISOString()).toBe("2028-11-06T22:59:59.999Z");
    expect(complaintDeadline(new Date("2026-12-01T09:00:00Z")).toISOString()).toBe("2028-12-01T22:59:59.999Z");
    // The shop's own refund deadline counts weekends: approved Saturday 7 Nov, owed by Saturday 21 Nov.
    expect(refundDeadline(new Date("2026-11-07T09:00:00Z")).toISOString()).toBe("2026-11-21T22:59:59.999Z");
  });

  it("refuses an order that has not shipped (422 not_shipped, pointing at orders.cancel) or is closed (422 order_closed)", async () => {
    for (const status of ["pending_payment", "pending", "flagged_review", "paid", "processing", "partial_refund"]) {
      const order = await createOrder(server, { status });
      const before = await returnState(server, order.id);
      const refused = await request(order);
      expectProblem(refused, 422, "not_shipped");
      expect(refused.body.detail).toContain("orders.cancel");
      expect(await returnState(server, order.id)).toEqual(before);
    }
    for (const status of ["cancelled", "refunded", "disputed"]) expectProblem(await request(await createOrder(server, { status })), 422, "order_closed");
  });

  it("refuses a withdrawal of a non-returnable product (422 not_returnable) but takes a complaint about it", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2 });
    await prisma().product.update({ where: { id: order.items[0]!.productId }, data: { returnable: false } });
    try {
      const before = await returnState(server, order.id);
      expectProblem(await request(order), 422, "not_returnable");
      expect(await returnState(server, order.id)).toEqual(before);
      expectOk(server, "returns.request", await request(order, { items: [{ orderItemId: order.items[1]!.id, quantity: 1 }] }));
      expectOk(server, "returns.request", await request(order, { kind: "complaint", reason: "Forkert styrke" }));
    } finally {
      await prisma().product.update({ where: { id: order.items[0]!.productId }, data: { returnable: true } });
    }
  });

  it("never asks back more than was ordered less what other returns hold (422 quantity_exceeds_order); a rejected return frees its units", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [3, 1] });
    const line = order.items.find((item) => item.quantity === 3)!;
    expectProblem(await request(order, { items: [{ orderItemId: line.id, quantity: 4 }] }), 422, "quantity_exceeds_order");
    const first = expectOk<ReturnView>(server, "returns.request", await request(order, { items: [{ orderItemId: line.id, quantity: 2 }] }));
    const before = await returnState(server, order.id);
    expectProblem(await request(order, { items: [{ orderItemId: line.id, quantity: 2 }] }), 422, "quantity_exceeds_order");
    expect(await returnState(server, order.id)).toEqual(before);
    expectOk(server, "returns.reject", await server.call("returns.reject", { returnId: first.returnId, reason: "Dublet" }, { key }));
    expectOk(server, "returns.request", await request(order, { items: [{ orderItemId: line.id, quantity: 3 }] }));
  });

  it("lets only one of two requests racing for the same units through", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [1] });
    const answers = await Promise.all([request(order), request(order), request(order)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422]);
    for (const answer of answers.filter((a) => a.status === 422)) expectProblem(answer, 422, "quantity_exceeds_order");
    expect(await prisma().returnItem.aggregate({ where: { request: { orderId: order.id } }, _sum: { quantity: true } })).toMatchObject({ _sum: { quantity: 1 } });
  });

  it("takes an exchange for another variant of the same product in stock, and refuses any other (422 invalid_exchange_variant, insufficient_stock)", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, variant: true, quantities: [1, 1] });
    const line = order.items.find((item) => item.variantId)!;
    const variants = await prisma().productVariant.findMany({ where: { productId: line.productId }, orderBy: { sku: "asc" } });
    const other = variants.find((v) => v.id !== line.variantId)!;
    await prisma().productVariant.update({ where: { id: other.id }, data: { stock: 5n } });
    const exchange = { items: [{ orderItemId: line.id, quantity: 1 }], exchangeVariantId: other.id };
    const result = expectOk<ReturnView>(server, "returns.request", await request(order, exchange));
    expect(result.exchangeVariantId).toBe(other.id);
    expectOk(server, "returns.reject", await server.call("returns.reject", { returnId: result.returnId, reason: "Prøve" }, { key }));

    const plainLine = order.items.find((item) => !item.variantId)!;
    const foreign = await prisma().productVariant.findFirstOrThrow({ where: { productId: { not: line.productId } } });
    expectProblem(await request(order, { ...exchange, exchangeVariantId: foreign.id }), 422, "invalid_exchange_variant");
    expectProblem(await request(order, { ...exchange, exchangeVariantId: line.variantId }), 422, "invalid_exchange_variant");
    expectProblem(await request(order, { ...exchange, exchangeVariantId: "no-such-variant" }), 422, "invalid_exchange_variant");
    expectProblem(await request(order, { items: [{ orderItemId: plainLine.id, quantity: 1 }], exchangeVariantId: other.id }), 422, "invalid_exchange_variant");
    await prisma().productVariant.update({ where: { id: other.id }, data: { stock: 0n } });
    expectProblem(await request(order, exchange), 422, "insufficient_stock");
  });

  it("answers 404 for an unknown order or a line of another order", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1 });
    const other = await shippedOrder(server, { deliveredDaysAgo: 1 });
    expectProblem(await server.call("returns.request", { orderId: "no-such-order", items: [{ orderItemId: "x", quantity: 1 }], kind: "withdrawal", reason: "x" }, { key }), 404, "not_found");
    expectProblem(await request(order, { items: [{ orderItemId: other.items[0]!.id, quantity: 1 }] }), 404, "not_found");
  });

  it("needs returns:write", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [5] });
    await expectScopeMatrix(server, "returns.request", { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "Fortrudt" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1 });
    const item = { orderItemId: order.items[0]!.id, quantity: 1 };
    const good = { orderId: order.id, items: [item], kind: "withdrawal", reason: "Fortrudt" };
    await expectRejected(
      server,
      "returns.request",
      key,
      [
        {},
        { ...good, items: [] },
        { ...good, items: [item, item] },
        { ...good, items: [{ ...item, quantity: 0 }] },
        { ...good, items: [{ ...item, quantity: 1.5 }] },
        { ...good, kind: "regret" },
        { ...good, reason: "  " },
        { ...good, reason: "x".repeat(1001) },
        { ...good, exchangeVariantId: "" },
        { ...good, refund: true },
      ],
      () => returnState(server, order.id),
    );
  });
});
