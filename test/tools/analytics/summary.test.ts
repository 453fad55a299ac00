// analytics.summary through real HTTP: exact figures for a range, Copenhagen day boundaries, defaults, scopes and bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { DEMO_ORDERS } from "../../../prisma/seed/history.ts";
import { REVENUE_STATUSES } from "../../../src/tools/analytics/revenue-rules.ts";
import { useServer } from "../../support/server.ts";
import { createOrders } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["analytics:read"] } });
beforeAll(async () => {
  await createOrders(server, [
    { createdAt: "2025-07-10T10:00:00Z", totalDkk: 10000, status: "paid" },
    { createdAt: "2025-07-15T12:00:00Z", totalDkk: 20000, status: "shipped", isAiGenerated: true, aiAgentSource: "chatgpt", channel: "mcp" },
    { createdAt: "2025-07-20T08:00:00Z", totalDkk: 30000, status: "partial_refund", refundedDkk: 5000 },
    // 22:30 UTC on 30 June is 00:30 on 1 July in Copenhagen (UTC+2): inside July.
    { createdAt: "2025-06-30T22:30:00Z", totalDkk: 7000, status: "delivered" },
    // 22:30 UTC on 31 July is 00:30 on 1 August in Copenhagen: outside July.
    { createdAt: "2025-07-31T22:30:00Z", totalDkk: 40000, status: "completed" },
    { createdAt: "2025-07-11T10:00:00Z", totalDkk: 99999, status: "cancelled" },
    { createdAt: "2025-07-11T10:00:00Z", totalDkk: 88888, status: "pending_payment" },
    { createdAt: "2025-07-12T10:00:00Z", totalDkk: 77777, status: "refunded", refundedDkk: 77777 },
    { createdAt: "2025-07-12T10:00:00Z", totalDkk: 66666, status: "flagged_review" },
  ]);
  await server.prisma.customer.createMany({
    data: [
      { email: "ny1@example.dk", createdAt: new Date("2025-07-02T09:00:00Z") },
      { email: "ny2@example.dk", createdAt: new Date("2025-06-30T22:15:00Z") },
      { email: "gammel@example.dk", createdAt: new Date("2025-06-30T21:59:00Z") },
    ],
  });
});

type Summary = {
  fromDate: string;
  toDate: string;
  revenueDkk: number;
  orderCount: number;
  averageOrderValueDkk: number;
  newCustomers: number;
  aiGeneratedOrderCount: number;
  aiGeneratedRevenueDkk: number;
  aiGeneratedShare: number;
};
const summary = async (input: object) => expectOk<Summary>(server, "analytics.summary", await server.call("analytics.summary", input, { key }));

describe("analytics.summary", () => {
  it("computes exact figures for a month with Copenhagen day boundaries", async () => {
    expect(await summary({ fromDate: "2025-07-01", toDate: "2025-07-31" })).toEqual({
      fromDate: "2025-07-01",
      toDate: "2025-07-31",
      revenueDkk: 62000,
      orderCount: 4,
      averageOrderValueDkk: 15500,
      newCustomers: 2,
      aiGeneratedOrderCount: 1,
      aiGeneratedRevenueDkk: 20000,
      aiGeneratedShare: 20000 / 62000,
    });
  });

  it("counts an order at 22:30 UTC on 31 July on 1 August local time", async () => {
    const august = await summary({ fromDate: "2025-08-01", toDate: "2025-08-01" });
    expect(august).toMatchObject({ revenueDkk: 40000, orderCount: 1, averageOrderValueDkk: 40000, aiGeneratedShare: 0 });
  });

  it("answers zeros for an empty range", async () => {
    expect(await summary({ fromDate: "2020-01-01", toDate: "2020-01-31" })).toMatchObject({
      revenueDkk: 0, orderCount: 0, averageOrderValueDkk: 0, newCustomers: 0, aiGeneratedOrderCount: 0, aiGeneratedRevenueDkk: 0, aiGeneratedShare: 0,
    });
  });

  it("defaults to the last 30 days including today (where the demo shop's four weeks of orders are)", async () => {
    const demo = await summary({});
    const demoRevenueOrders = DEMO_ORDERS.filter((order) => (REVENUE_STATUSES as readonly string[]).includes(order.status));
    expect(demo.orderCount).toBe(demoRevenueOrders.length);
    expect(demo.aiGeneratedOrderCount).toBe(demoRevenueOrders.filter((order) => order.agent).length);
    const now = Date.now();
    await createOrders(server, [
      { createdAt: new Date(now - 60_000).toISOString(), totalDkk: 12345 },
      { createdAt: new Date(now - 40 * 86_400_000).toISOString(), totalDkk: 54321 },
    ]);
    const result = await summary({});
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Copenhagen" }).format(new Date());
    expect(result.toDate).toBe(today);
    expect(Date.parse(result.toDate) - Date.parse(result.fromDate)).toBe(29 * 86_400_000);
    expect(result).toMatchObject({ revenueDkk: demo.revenueDkk + 12345, orderCount: demo.orderCount + 1 });
  });

  it("needs analytics:read", async () => {
    await expectScopeMatrix(server, "analytics.summary", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    expectProblem(await server.call("analytics.summary", { fromDate: "2025-08-01", toDate: "2025-07-01" }, { key }), 400, "invalid_input");
    await expectRejected(server, "analytics.summary", key, [
      { fromDate: "2025-7-1" },
      { fromDate: "2025-07-01T00:00:00Z" },
      { toDate: "2025-02-30" },
      { toDate: 20250701 },
      { fromDate: "2025-08-01", toDate: "2025-07-01" },
      { unknown: true },
    ]);
  });
});
