// The discount rules checkout relies on: evaluation reasons, rounding, and redemption that never exceeds the limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../../src/core/db.ts";
import { discountAmount, evaluateDiscount, redeemDiscount } from "../../../src/tools/discounts/discount-rules.ts";
import { testDatabase } from "../../support/server.ts";

let database: Database;
let drop: () => Promise<void>;
const now = new Date("2030-06-01T12:00:00Z");
beforeAll(async () => {
  ({ database, drop } = await testDatabase());
  const db = database.prisma;
  await db.discount.createMany({
    data: [
      { code: "PCT15", type: "percent", value: 15n },
      { code: "FAST50", type: "fixed", value: 5000n },
      { code: "OFF", type: "fixed", value: 100n, active: false },
      { code: "OLD", type: "fixed", value: 100n, validUntil: new Date("2030-06-01T12:00:00Z") },
      { code: "FULL", type: "fixed", value: 100n, usageLimit: 2n, usageCount: 2n },
      { code: "FEM", type: "percent", value: 10n, usageLimit: 5n },
      { code: "UBEGR", type: "percent", value: 10n },
    ],
  });
});
afterAll(() => drop());

describe("discountAmount", () => {
  it("rounds percent half up to whole øre and never exceeds the subtotal", () => {
    expect(discountAmount("percent", 15n, 333)).toBe(50);
    expect(discountAmount("percent", 10n, 5)).toBe(1);
    expect(discountAmount("percent", 10n, 4)).toBe(0);
    expect(discountAmount("percent", 100n, 12345)).toBe(12345);
    expect(discountAmount("percent", 25n, 9007199254740991)).toBe(2251799813685248);
    expect(discountAmount("fixed", 5000n, 4000)).toBe(4000);
    expect(discountAmount("fixed", 5000n, 60000)).toBe(5000);
    expect(discountAmount("fixed", 5000n, 0)).toBe(0);
  });
});

describe("evaluateDiscount", () => {
  it("returns the discount and the amount off for a usable code, in any case", async () => {
    expect(await evaluateDiscount(database.prisma, "pct15", 49900, now)).toEqual({ ok: true, discount: { code: "PCT15", type: "percent", value: 15 }, discountDkk: 7485 });
    expect(await evaluateDiscount(database.prisma, "Fast50", 3000, now)).toEqual({ ok: true, discount: { code: "FAST50", type: "fixed", value: 5000 }, discountDkk: 3000 });
  });

  it("names the reason a code cannot be used", async () => {
    const reason = async (code: string) => {
      const result = await evaluateDiscount(database.prisma, code, 10000, now);
      if (result.ok) throw new Error(`${code} should not apply`);
      expect(result.detail.length).toBeGreaterThan(0);
      return result.reason;
    };
    expect(await reason("NOPE")).toBe("unknown");
    expect(await reason("off")).toBe("inactive");
    expect(await reason("OLD")).toBe("expired");
    expect(await reason("FULL")).toBe("used_up");
  });
});

describe("redeemDiscount", () => {
  it("counts a use only for usable codes", async () => {
    const db = database.prisma;
    expect(await redeemDiscount(db, "ubegr", now)).toBe(true);
    expect((await db.discount.findUniqueOrThrow({ where: { code: "UBEGR" } })).usageCount).toBe(1n);
    for (const code of ["NOPE", "OFF", "OLD", "FULL"]) expect(await redeemDiscount(db, code, now)).toBe(false);
    expect((await db.discount.findUniqueOrThrow({ where: { code: "FULL" } })).usageCount).toBe(2n);
  });

  it("never exceeds the limit under concurrency: 20 parallel redemptions of a 5-use code, exactly 5 succeed", async () => {
    const db = database.prisma;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => db.$transaction((tx) => redeemDiscount(tx, "FEM", now), { maxWait: 20_000, timeout: 20_000 })),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
    expect((await db.discount.findUniqueOrThrow({ where: { code: "FEM" } })).usageCount).toBe(5n);
    expect((await evaluateDiscount(db, "FEM", 1000, now)).ok).toBe(false);
  });
});
