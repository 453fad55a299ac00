// The legal deadlines of a return, counted in Danish calendar days: the 14-day right of withdrawal (forbrugeraftaleloven
// § 19) and the 24-month complaint period (købeloven § 83), both from delivery, and the 14 days a refund may take.
// A period ends at the end of its last day in Copenhagen; the shopper's periods ending on a Saturday or Sunday run to
// the end of the next Monday (EU regulation 1182/71 art. 3(4)); public holidays are not counted in (a deadline on one is
// not moved), so the shop may refuse a day early there.

export const WITHDRAWAL_DAYS = 14;
export const COMPLAINT_MONTHS = 24;
const REFUND_DAYS = 14;

const ZONE = "Europe/Copenhagen";
const dateFormat = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE, year: "numeric", month: "2-digit", day: "2-digit" });
const offsetFormat = new Intl.DateTimeFormat("en-US", { timeZone: ZONE, timeZoneName: "longOffset" });

/** Copenhagen's offset from UTC at `at`, in minutes (60 in winter, 120 in summer). */
function offsetMinutes(at: Date): number {
  const name = offsetFormat.formatToParts(at).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/** The Copenhagen calendar date of an instant, as [year, month (1–12), day]. */
function localDate(at: Date): [number, number, number] {
  const [year, month, day] = dateFormat.format(at).split("-").map(Number);
  return [year!, month!, day!];
}

/** The last millisecond of a Copenhagen calendar day (month may overflow: Date.UTC normalises it). */
function endOfDay(year: number, month: number, day: number): Date {
  const nextMidnightUtc = Date.UTC(year, month - 1, day + 1);
  return new Date(nextMidnightUtc - offsetMinutes(new Date(nextMidnightUtc)) * 60_000 - 1);
}

/** End of the Copenhagen day `months` and `days` after `from`'s date, moved past a weekend when `weekends` says so. */
function periodEnd(from: Date, { months = 0, days = 0 }, weekends: "extend" | "count"): Date {
  const [year, month, day] = localDate(from);
  const last = new Date(Date.UTC(year, month - 1 + months, day + days));
  const weekday = last.getUTCDay();
  const extra = weekends === "count" ? 0 : weekday === 6 ? 2 : weekday === 0 ? 1 : 0;
  return endOfDay(last.getUTCFullYear(), last.getUTCMonth() + 1, last.getUTCDate() + extra);
}

/** The last moment a shopper may withdraw from goods delivered at `deliveredAt` (`days`: the shop's return period, at least 14). */
export function withdrawalDeadline(deliveredAt: Date, days = WITHDRAWAL_DAYS): Date {
  return periodEnd(deliveredAt, { days: Math.max(days, WITHDRAWAL_DAYS) }, "extend");
}

/** The last moment a shopper may complain about goods delivered at `deliveredAt`. */
export function complaintDeadline(deliveredAt: Date): Date {
  return periodEnd(deliveredAt, { months: COMPLAINT_MONTHS }, "extend");
}

/** When the refund of a return approved at `approvedAt` is owed: the shop's own deadline, so weekends count. */
export function refundDeadline(approvedAt: Date): Date {
  return periodEnd(approvedAt, { days: REFUND_DAYS }, "count");
}
