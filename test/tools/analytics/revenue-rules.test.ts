// The Copenhagen calendar helpers of the analytics area: local midnights across DST changes, local dates, ranges.
import { describe, expect, it } from "vitest";
import { addDays, localDate, localMidnight, resolveRange, weekStart } from "../../../src/tools/analytics/revenue-rules.ts";

describe("analytics calendar helpers", () => {
  it("finds the UTC instant of Danish midnight in winter, summer and on DST change days", () => {
    expect(localMidnight("2025-01-15").toISOString()).toBe("2025-01-14T23:00:00.000Z");
    expect(localMidnight("2025-07-15").toISOString()).toBe("2025-07-14T22:00:00.000Z");
    expect(localMidnight("2025-03-30").toISOString()).toBe("2025-03-29T23:00:00.000Z");
    expect(localMidnight("2025-03-31").toISOString()).toBe("2025-03-30T22:00:00.000Z");
    expect(localMidnight("2025-10-26").toISOString()).toBe("2025-10-25T22:00:00.000Z");
    expect(localMidnight("2025-10-27").toISOString()).toBe("2025-10-26T23:00:00.000Z");
  });

  it("gives the Danish calendar date of an instant", () => {
    expect(localDate(new Date("2025-07-15T21:59:59Z"))).toBe("2025-07-15");
    expect(localDate(new Date("2025-07-15T23:30:00Z"))).toBe("2025-07-16");
    expect(localDate(new Date("2025-01-15T22:30:00Z"))).toBe("2025-01-15");
    expect(localDate(new Date("2025-01-15T23:30:00Z"))).toBe("2025-01-16");
  });

  it("does calendar arithmetic and finds ISO week starts", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2025-01-01", -1)).toBe("2024-12-31");
    expect(weekStart("2025-07-20")).toBe("2025-07-14");
    expect(weekStart("2025-07-14")).toBe("2025-07-14");
    expect(weekStart("2025-07-01")).toBe("2025-06-30");
  });

  it("resolves ranges: defaults, exclusive end at the next local midnight, order and length checks", () => {
    const range = resolveRange({}, new Date("2025-07-15T23:30:00Z"));
    expect(range).toEqual({
      fromDate: "2025-06-17",
      toDate: "2025-07-16",
      from: new Date("2025-06-16T22:00:00Z"),
      to: new Date("2025-07-16T22:00:00Z"),
    });
    expect(resolveRange({ fromDate: "2025-03-29", toDate: "2025-03-30" }, new Date()).to.toISOString()).toBe("2025-03-30T22:00:00.000Z");
    expect(() => resolveRange({ fromDate: "2025-02-01", toDate: "2025-01-01" }, new Date())).toThrow(/after/);
    expect(() => resolveRange({ fromDate: "2025-01-01", toDate: "2025-01-08" }, new Date(), 7)).toThrow(/at most 7 days/);
    expect(resolveRange({ fromDate: "2025-01-01", toDate: "2025-01-07" }, new Date(), 7).toDate).toBe("2025-01-07");
  });
});
