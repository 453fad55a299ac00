// The legal deadlines of a return, counted in Danish calendar days: the 14-day right of withdrawal (forbrugeraftaleloven
// § 19) and the 24-month complaint period (købeloven § 83), both from delivery, and the 14 days a refund may take.
// A period ends at the end of its last day in Copenhagen. The shopper's periods ending on a day that is not a working
// day run to the end of the next working day: a Saturday, a Sunday, a Danish public holiday (helligdag), Grundlovsdag
// (5 June), Christmas Eve or New Year's Eve (forbrugeraftaleloven § 19, stk. 6; the same days as forældelsesloven
// § 27, stk. 2; EU regulation 1182/71 art. 3(4) for the public holidays). Store Bededag counts until 2023 only (it was
// abolished from 2024).

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

/** Easter Sunday of a Gregorian year (the anonymous Gregorian computus), as a UTC midnight. */
export function easterSunday(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(year, month - 1, day));
}

/** Days from Easter Sunday of the movable Danish public holidays: Skærtorsdag to 2. pinsedag (Store Bededag apart). */
const EASTER_OFFSETS = [-3, -2, 0, 1, 39, 49, 50];
/** Store Bededag, the fourth Friday after Easter, a public holiday until 2023. */
const STORE_BEDEDAG = 26;
/** Fixed days (month-day) a deadline does not end on: New Year, Grundlovsdag, Christmas Eve to 2. juledag, New Year's Eve. */
const FIXED = new Set(["01-01", "06-05", "12-24", "12-25", "12-26", "12-31"]);

/** Whether a calendar date (a UTC midnight) is not a Danish working day for a shopper's deadline. */
export function isDanishNonWorkingDay(date: Date): boolean {
  const weekday = date.getUTCDay();
  if (weekday === 0 || weekday === 6) return true;
  const monthDay = `${String(date.getUTCMonth() + 1).padStart(2, "0")}-${String(date.getUTCDate()).padStart(2, "0")}`;
  if (FIXED.has(monthDay)) return true;
  const year = date.getUTCFullYear();
  const fromEaster = Math.round((date.getTime() - easterSunday(year).getTime()) / 86_400_000);
  return EASTER_OFFSETS.includes(fromEaster) || (fromEaster === STORE_BEDEDAG && year < 2024);
}

/** End of the Copenhagen day `months` and `days` after `from`'s date, moved to the next working day when `closed` says so. */
function periodEnd(from: Date, { months = 0, days = 0 }, closed: "extend" | "count"): Date {
  const [year, month, day] = localDate(from);
  const last = new Date(Date.UTC(year, month - 1 + months, day + days));
  while (closed === "extend" && isDanishNonWorkingDay(last)) last.setUTCDate(last.getUTCDate() + 1);
  return endOfDay(last.getUTCFullYear(), last.getUTCMonth() + 1, last.getUTCDate());
}

/** The last moment a shopper may withdraw from goods delivered at `deliveredAt` (`days`: the shop's return period, at least 14). */
export function withdrawalDeadline(deliveredAt: Date, days = WITHDRAWAL_DAYS): Date {
  return periodEnd(deliveredAt, { days: Math.max(days, WITHDRAWAL_DAYS) }, "extend");
}

/** The last moment a shopper may complain about goods delivered at `deliveredAt`. */
export function complaintDeadline(deliveredAt: Date): Date {
  return periodEnd(deliveredAt, { months: COMPLAINT_MONTHS }, "extend");
}

/** When the refund of a return approved at `approvedAt` is owed: the shop's own deadline, so weekends and holidays count. */
export function refundDeadline(approvedAt: Date): Date {
  return periodEnd(approvedAt, { days: REFUND_DAYS }, "count");
}
