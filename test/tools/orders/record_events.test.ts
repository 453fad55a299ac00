// orders.record_events through real HTTP: append-only events and adjustments, shipped moves the order, refusals.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder, orderState } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });

const record = (input: object) => server.call("orders.record_events", input, { key });
const shipped = {
  id: "evt_1",
  type: "shipped",
  occurredAt: "2026-03-02T08:00:00Z",
  lineItems: [{ id: "li_1", quantity: 2 }],
  trackingNumber: "TRACK123",
  trackingUrl: "https://track.example/123",
  carrier: "GLS",
};
const refund = { id: "adj_1", type: "refund", occurredAt: "2026-03-03T08:00:00Z", status: "pending", amount: 500, description: "Customer refund request" };

describe("orders.record_events", () => {
  it("records a shipped event, moves the order to shipped and keeps the tracking", async () => {
    const order = await createOrder(server, { status: "paid" });
    const result = expectOk(server, "orders.record_events", await record({ orderId: order.id, fulfillmentEvents: [shipped] }));
    expect(result).toEqual({ id: order.id, status: "shipped", fulfillmentEvents: [shipped], adjustments: [] });
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ status: "shipped", carrier: "GLS", trackingNumber: "TRACK123", trackingUrl: shipped.trackingUrl });
    const changes = await server.prisma.orderStatusChange.findMany({ where: { orderId: order.id } });
    expect(changes).toMatchObject([{ fromStatus: "paid", toStatus: "shipped" }]);
    expect(await lastAudit(server)).toMatchObject({ tool: "orders.record_events", subjectType: "order", subjectId: order.id });
  });

  it("ships and delivers a paid order given both events at once; a delivered event alone leaves a paid order paid", async () => {
    const delivered = { id: "evt_2", type: "delivered", occurredAt: "2026-03-04T12:00:00Z", lineItems: [{ id: "li_1", quantity: 2 }] };
    const order = await createOrder(server, { status: "paid" });
    expect(expectOk(server, "orders.record_events", await record({ orderId: order.id, fulfillmentEvents: [shipped, delivered] }))).toMatchObject({ status: "delivered" });
    const changes = await server.prisma.orderStatusChange.findMany({ where: { orderId: order.id }, orderBy: { createdAt: "asc" } });
    expect(changes.map((change) => [change.fromStatus, change.toStatus])).toEqual([["paid", "shipped"], ["shipped", "delivered"]]);
    const waiting = await createOrder(server, { status: "paid" });
    expect(expectOk(server, "orders.record_events", await record({ orderId: waiting.id, fulfillmentEvents: [delivered] }))).toMatchObject({ status: "paid" });
  });

  it("appends: ids already recorded are ignored, adjustments leave the status alone", async () => {
    const order = await createOrder(server, { status: "paid" });
    expectOk(server, "orders.record_events", await record({ orderId: order.id, adjustments: [refund] }));
    const later = { ...refund, id: "adj_2", status: "completed", amount: 100 };
    const result = expectOk(server, "orders.record_events", await record({ orderId: order.id, adjustments: [{ ...refund, amount: 9 }, later] }));
    expect(result).toEqual({ id: order.id, status: "paid", fulfillmentEvents: [], adjustments: [refund, later] });
    expect(await server.prisma.orderStatusChange.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("records a second shipped event on a shipped order without a status change", async () => {
    const order = await createOrder(server, { status: "shipped" });
    const result = expectOk(server, "orders.record_events", await record({ orderId: order.id, fulfillmentEvents: [shipped] }));
    expect(result).toMatchObject({ status: "shipped" });
    expect(await server.prisma.orderStatusChange.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("refuses a shipped event where shipping is not legal (422 illegal_transition), saving nothing", async () => {
    for (const status of ["pending_payment", "cancelled", "refunded"]) {
      const order = await createOrder(server, { status });
      const before = await orderState(server, order.id);
      expectProblem(await record({ orderId: order.id, fulfillmentEvents: [shipped] }), 422, "illegal_transition");
      expect(await orderState(server, order.id)).toEqual(before);
    }
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await record({ orderId: "nope", adjustments: [refund] }), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectScopeMatrix(server, "orders.record_events", { orderId: order.id, adjustments: [refund] });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    const id = order.id;
    await expectRejected(
      server,
      "orders.record_events",
      key,
      [
        { adjustments: [refund] },
        { orderId: id, adjustments: [{ ...refund, status: "INVALID_STATUS" }] },
        { orderId: id, adjustments: { id: "adj_1", amount: 100 } },
        { orderId: id, adjustments: [{ ...refund, amount: -1 }] },
        { orderId: id, fulfillmentEvents: [{ ...shipped, occurredAt: "yesterday" }] },
        { orderId: id, fulfillmentEvents: [{ ...shipped, lineItems: [{ id: "li_1", quantity: 0 }] }] },
        { orderId: id, fulfillmentEvents: [{ ...shipped, trackingUrl: "not a url" }] },
        { orderId: id, fulfillmentEvents: [{ ...shipped, extra: 1 }] },
      ],
      () => orderState(server, id),
    );
  });
});
