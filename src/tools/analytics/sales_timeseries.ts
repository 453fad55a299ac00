// analytics.sales_timeseries: revenue and order count per Danish calendar day or ISO week, zero buckets included.
import { z } from "zod";
import { MAX_INT } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { addDays, rangeFields, rangeOutput, resolveRange, revenueStatusesSql, TIME_ZONE, toInt, utc, weekStart } from "./revenue-rules.ts";

type Row = { bucket: string; orderCount: unknown; revenueDkk: unknown };

export default defineTool({
  name: "analytics.sales_timeseries",
  description:
    "Revenue (as analytics.summary) and orders per day or ISO week, empty buckets too, up to 731 days. Returns " +
    "{fromDate, toDate, interval, buckets}.",
  input: z.strictObject({
    ...rangeFields,
    interval: z.enum(["day", "week"]).default("day").describe("A week runs Monday to Sunday, is labelled by its Monday and counts only days in range."),
  }),
  output: z.strictObject({
    ...rangeOutput,
    interval: z.enum(["day", "week"]),
    buckets: z.array(
      z.strictObject({
        date: z.iso.date().describe("The bucket's day, or the Monday of its week (Danish local date)."),
        revenueDkk: z.number().int().max(MAX_INT).describe("Revenue in øre."),
        orderCount: z.number().int().min(0).describe("Orders counted as revenue."),
      }),
    ),
  }),
  scope: "analytics:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { fromDate: "2026-01-01", toDate: "2026-03-31", interval: "week" }],
  async handler({ interval, ...dates }, ctx) {
    const range = resolveRange(dates, ctx.now(), interval === "day" ? 731 : 3660);
    const rows = await ctx.db.$queryRaw<Row[]>`
      SELECT to_char(date_trunc(${interval}, ("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE ${TIME_ZONE}), 'YYYY-MM-DD') AS bucket,
             COUNT(*)::int AS "orderCount", SUM("totalDkk" - "refundedDkk")::bigint AS "revenueDkk"
      FROM "Order"
      WHERE "createdAt" >= ${utc(range.from)} AND "createdAt" < ${utc(range.to)} AND status IN (${revenueStatusesSql})
      GROUP BY 1`;
    const found = new Map(rows.map((row) => [row.bucket, row]));
    const step = interval === "day" ? 1 : 7;
    const buckets = [];
    for (let date = interval === "day" ? range.fromDate : weekStart(range.fromDate); date <= range.toDate; date = addDays(date, step)) {
      const row = found.get(date);
      buckets.push({ date, revenueDkk: toInt(row?.revenueDkk), orderCount: toInt(row?.orderCount) });
    }
    return { fromDate: range.fromDate, toDate: range.toDate, interval, buckets };
  },
});
