// Shared analytics rules: which orders count as revenue, and Europe/Copenhagen local dates to UTC instants.
import { z } from "zod";
import { Invalid } from "../../core/errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export const TIME_ZONE = "Europe/Copenhagen";

/**
 * Orders whose money the shop has (or is about to ship against). Excluded: not yet paid (pending_payment, pending),
 * held for a fraud check (flagged_review), under a chargeback (disputed), cancelled and fully refunded orders.
 */
export const REVENUE_STATUSES = ["paid", "processing", "shipped", "delivered", "completed", "partial_refund"] as const;

export const REVENUE_RULE =
  `Revenue: totals minus refunds (øre) of ${REVENUE_STATUSES.join("/")} orders by Danish day.`;

/** `IN (…)` list of the revenue statuses for raw SQL (bound parameters). */
export const revenueStatusesSql = Prisma.join([...REVENUE_STATUSES]);

/** A UTC instant as a `timestamp` parameter (columns hold UTC without time zone). */
export function utc(instant: Date): Prisma.Sql {
  return Prisma.sql`${instant.toISOString()}::timestamp`;
}

const localDay = z.iso.date();

/** The shared fromDate/toDate input fields (local Danish calendar dates, inclusive). */
export const rangeFields = {
  fromDate: localDay.optional().describe("Danish day, inclusive; default toDate − 29 days."),
  toDate: localDay.optional().describe("Inclusive; default today."),
};

export const rangeOutput = {
  fromDate: localDay.describe("First day counted (Danish local date, inclusive)."),
  toDate: localDay.describe("Last day counted (Danish local date, inclusive)."),
};

export interface DateRange {
  fromDate: string;
  toDate: string;
  /** UTC instant of local midnight starting fromDate. */
  from: Date;
  /** UTC instant of local midnight after toDate (exclusive). */
  to: Date;
}

const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });
const clockFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: TIME_ZONE, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
});

/** The Danish calendar date (YYYY-MM-DD) of an instant. */
export function localDate(instant: Date): string {
  return dayFormat.format(instant);
}

/** Calendar arithmetic on YYYY-MM-DD strings. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The Monday on or before a date (ISO weeks start on Monday). */
export function weekStart(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** Offset of Danish local time from UTC at an instant, in milliseconds (+1 h in winter, +2 h in summer). */
function offsetAt(instant: Date): number {
  const parts = Object.fromEntries(clockFormat.formatToParts(instant).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The UTC instant at which a Danish local date begins (DST-correct: Danish clocks never skip midnight). */
export function localMidnight(date: string): Date {
  const naive = Date.parse(`${date}T00:00:00Z`);
  let instant = naive - offsetAt(new Date(naive));
  instant = naive - offsetAt(new Date(instant));
  return new Date(instant);
}

/** Resolves optional fromDate/toDate (default: the last 30 days including today) to local dates and UTC bounds. */
export function resolveRange(input: { fromDate?: string | undefined; toDate?: string | undefined }, now: Date, maxDays = 3660): DateRange {
  const toDate = input.toDate ?? localDate(now);
  const fromDate = input.fromDate ?? addDays(toDate, -29);
  if (fromDate > toDate) throw new Invalid(`fromDate (${fromDate}) is after toDate (${toDate}).`, [{ path: "fromDate", message: "Must not be after toDate" }]);
  if (addDays(fromDate, maxDays - 1) < toDate) {
    throw new Invalid(`The range may span at most ${maxDays} days.`, [{ path: "toDate", message: `At most ${maxDays} days after fromDate` }]);
  }
  return { fromDate, toDate, from: localMidnight(fromDate), to: localMidnight(addDays(toDate, 1)) };
}

/** Integer from a SQL aggregate (bigint, numeric string or number; null for an empty group). */
export function toInt(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return Number(value);
}
