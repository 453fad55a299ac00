// The shopper's return deadlines end on a Danish working day: a period whose last day is a Saturday, Sunday, public
// holiday (moving with Easter), Grundlovsdag, Christmas Eve or New Year's Eve runs to the end of the next working day
// (forbrugeraftaleloven § 19, stk. 6). Store Bededag counts until 2023. The shop's own refund deadline does not move.
import { describe, expect, it } from "vitest";
import { complaintDeadline, easterSunday, isDanishNonWorkingDay, refundDeadline, withdrawalDeadline } from "../../../src/tools/returns/deadlines.ts";

/** Delivered at 10:00 in Copenhagen on a date (winter or summer time alike: 08:00 UTC is 09:00 or 10:00 there). */
const at = (date: string) => new Date(`${date}T08:00:00Z`);
const day = (date: string) => new Date(`${date}T00:00:00Z`);
/** The end of a Copenhagen day in UTC: 22:59:59.999 in winter, 21:59:59.999 in summer. */
const endWinter = (date: string) => `${date}T22:59:59.999Z`;
const endSummer = (date: string) => `${date}T21:59:59.999Z`;

describe("return deadlines and Danish public holidays", () => {
  it("finds Easter Sunday for past and future years", () => {
    const dates = { 2000: "2000-04-23", 2019: "2019-04-21", 2023: "2023-04-09", 2024: "2024-03-31", 2025: "2025-04-20", 2026: "2026-04-05", 2027: "2027-03-28", 2038: "2038-04-25" };
    for (const [year, date] of Object.entries(dates)) expect(easterSunday(Number(year)).toISOString().slice(0, 10)).toBe(date);
  });

  it("knows the Danish days off of 2026 and the working days next to them", () => {
    const off = ["2026-01-01", "2026-04-02", "2026-04-03", "2026-04-05", "2026-04-06", "2026-05-14", "2026-05-24", "2026-05-25", "2026-06-05", "2026-12-24", "2026-12-25", "2026-12-26", "2026-12-31", "2026-11-28", "2026-11-29"];
    for (const date of off) expect(isDanishNonWorkingDay(day(date)), date).toBe(true);
    const open = ["2026-04-01", "2026-04-07", "2026-05-01", "2026-05-15", "2026-05-26", "2026-06-04", "2026-12-23", "2026-12-28", "2026-12-30", "2026-05-01"];
    for (const date of open) expect(isDanishNonWorkingDay(day(date)), date).toBe(false);
  });

  it("moves a withdrawal ending at Easter past Skærtorsdag, Langfredag, the weekend and 2. påskedag", () => {
    // Delivered Thursday 19 Mar 2026: day 14 is Skærtorsdag 2 Apr; the next working day is Tuesday 7 Apr.
    expect(withdrawalDeadline(at("2026-03-19")).toISOString()).toBe(endSummer("2026-04-07"));
    // Delivered Wednesday 18 Mar: day 14 is Wednesday 1 Apr, a working day.
    expect(withdrawalDeadline(at("2026-03-18")).toISOString()).toBe(endSummer("2026-04-01"));
  });

  it("moves a withdrawal ending at Christmas or on New Year's Eve to the next working day", () => {
    // Day 14 is Christmas Eve (Thursday 24 Dec 2026): 25, 26 and the Sunday are off, so Monday 28 Dec.
    expect(withdrawalDeadline(at("2026-12-10")).toISOString()).toBe(endWinter("2026-12-28"));
    // Day 14 is New Year's Eve: New Year's Day and the weekend follow, so Monday 4 Jan 2027.
    expect(withdrawalDeadline(at("2026-12-17")).toISOString()).toBe(endWinter("2027-01-04"));
  });

  it("moves a withdrawal ending on Grundlovsdag, Kristi himmelfartsdag or 2. pinsedag by one working day", () => {
    // Grundlovsdag Thursday 5 June 2025 → Friday 6 June.
    expect(withdrawalDeadline(at("2025-05-22")).toISOString()).toBe(endSummer("2025-06-06"));
    // Kristi himmelfartsdag Thursday 14 May 2026 → Friday 15 May (the Friday after is a working day).
    expect(withdrawalDeadline(at("2026-04-30")).toISOString()).toBe(endSummer("2026-05-15"));
    // 2. pinsedag Monday 25 May 2026 → Tuesday 26 May; so does a period ending on the Saturday before Pinse.
    expect(withdrawalDeadline(at("2026-05-11")).toISOString()).toBe(endSummer("2026-05-26"));
    expect(withdrawalDeadline(at("2026-05-09")).toISOString()).toBe(endSummer("2026-05-26"));
  });

  it("counts Store Bededag as a holiday until 2023 and not from 2024", () => {
    // Store Bededag Friday 5 May 2023 → Monday 8 May.
    expect(withdrawalDeadline(at("2023-04-21")).toISOString()).toBe(endSummer("2023-05-08"));
    // Friday 26 Apr 2024 would have been Store Bededag: now an ordinary Friday.
    expect(withdrawalDeadline(at("2024-04-12")).toISOString()).toBe(endSummer("2024-04-26"));
  });

  it("moves a complaint period ending on Christmas Eve, and keeps a longer shop period's holidays too", () => {
    // 24 months from Tuesday 24 Dec 2024 is Thursday 24 Dec 2026 → Monday 28 Dec.
    expect(complaintDeadline(at("2024-12-24")).toISOString()).toBe(endWinter("2026-12-28"));
    // A 30-day return period from Sunday 15 Mar 2026 ends on Tuesday 14 Apr, a working day...
    expect(withdrawalDeadline(at("2026-03-15"), 30).toISOString()).toBe(endSummer("2026-04-14"));
    // ...and from Saturday 7 Mar on 2. påskedag (Monday 6 Apr), so Tuesday 7 Apr.
    expect(withdrawalDeadline(at("2026-03-07"), 30).toISOString()).toBe(endSummer("2026-04-07"));
  });

  it("leaves the shop's own refund deadline on a holiday", () => {
    // Approved Thursday 10 Dec 2026: owed by the end of Christmas Eve.
    expect(refundDeadline(at("2026-12-10")).toISOString()).toBe(endWinter("2026-12-24"));
  });
});
