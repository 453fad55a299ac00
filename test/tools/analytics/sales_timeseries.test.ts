// analytics.sales_timeseries through real HTTP: daily and weekly buckets with zeros, Copenhagen day boundaries, bounds.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrders } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["analytics:read"] } });
beforeAll(async () => {
  await createOrders(server, [
    { createdAt: "2025-07-15T12:00:00Z", totalDkk: 20000 },
    { createdAt: "2025-07-15T13:00:00Z", totalDkk: 5000, status: "processing" },
    // 23:30 UTC on 16 July (summer, UTC+2) is 01:30 on 17 July in Copenhagen.
    { createdAt: "2025-07-16T23:30:00Z", totalDkk: 11100 },
    { createdAt: "2025-07-20T08:00:00Z", totalDkk: 30000, status: "partial_refund", refundedDkk: 5000 },
    { createdAt: "2025-07-18T08:00:00Z", totalDkk: 99999, status: "cancelled" },
    { createdAt: "2025-07-22T08:00:00Z", totalDkk: 1000 },
    // Winter (UTC+1): 22:30 UTC stays on 15 January, 23:30 UTC is 16 January.
    { createdAt: "2025-01-15T22:30:00Z", totalDkk: 300 },
    { createdAt: "2025-01-15T23:30:00Z", totalDkk: 400 },
  ]);
});

type Series = { fromDate: string; toDate: string; interval: string; buckets: Array<{ date: string; revenueDkk: number; orderCount: number }> };
const series = async (input: object) => expectOk<Series>(server, "analytics.sales_timeseries", await server.call("analytics.sales_timeseries", input, { key }));

describe("analytics.sales_timeseries", () => {
  it("lists every local day with revenue and order count, zeros included", async () => {
    const result = await series({ fromDate: "2025-07-14", toDate: "2025-07-20" });
    expect(result).toEqual({
      fromDate: "2025-07-14",
      toDate: "2025-07-20",
      interval: "day",
      buckets: [
        { date: "2025-07-14", revenueDkk: 0, orderCount: 0 },
        { date: "2025-07-15", revenueDkk: 25000, orderCount: 2 },
        { date: "2025-07-16", revenueDkk: 0, orderCount: 0 },
        { date: "2025-07-17", revenueDkk: 11100, orderCount: 1 },
        { date: "2025-07-18", revenueDkk: 0, orderCount: 0 },
        { date: "2025-07-19", revenueDkk: 0, orderCount: 0 },
        { date: "2025-07-20", revenueDkk: 25000, orderCount: 1 },
      ],
    });
  });

  it("puts winter orders on the right local day", async () => {
    const result = await series({ fromDate: "2025-01-15", toDate: "2025-01-16" });
    expect(result.buckets).toEqual([
      { date: "2025-01-15", revenueDkk: 300, orderCount: 1 },
      { date: "2025-01-16", revenueDkk: 400, orderCount: 1 },
    ]);
  });

  it("groups by ISO week labelled with the Monday, counting only days in the range", async () => {
    const result = await series({ fromDate: "2025-07-16", toDate: "2025-07-31", interval: "week" });
    expect(result.interval).toBe("week");
    expect(result.buckets).toEqual([
      { date: "2025-07-14", revenueDkk: 36100, orderCount: 2 },
      { date: "2025-07-21", revenueDkk: 1000, orderCount: 1 },
      { date: "2025-07-28", revenueDkk: 0, orderCount: 0 },
    ]);
  });

  it("defaults to 30 daily buckets ending today", async () => {
    const result = await series({});
    expect(result.buckets).toHaveLength(30);
    expect(result.buckets.at(-1)!.date).toBe(result.toDate);
    expect(result.buckets[0]!.date).toBe(result.fromDate);
  });

  it("needs analytics:read", async () => {
    await expectScopeMatrix(server, "analytics.sales_timeseries", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    expectProblem(await server.call("analytics.sales_timeseries", { fromDate: "2020-01-01", toDate: "2025-01-01" }, { key }), 400, "invalid_input");
    expectOk(server, "analytics.sales_timeseries", await server.call("analytics.sales_timeseries", { fromDate: "2020-01-01", toDate: "2025-01-01", interval: "week" }, { key }));
    await expectRejected(server, "analytics.sales_timeseries", key, [
      { interval: "month" },
      { interval: 7 },
      { fromDate: "15-07-2025" },
      { fromDate: "2025-07-20", toDate: "2025-07-10" },
      { fromDate: "2020-01-01", toDate: "2025-01-01" },
      { extra: 1 },
    ]);
  });
});
