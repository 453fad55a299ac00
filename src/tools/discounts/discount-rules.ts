// Discount rules shared by the discounts tools and checkout: lookup by code, evaluation, atomic redemption.
import type { Db } from "../../core/db.ts";
import { NotFound } from "../../core/errors.ts";
import { iso } from "../../core/json.ts";
import type { Discount } from "../../generated/prisma/client.ts";
import type { DiscountType, DiscountView } from "./schemas.ts";

/** Codes are stored uppercase; every lookup uppercases its input. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export function discountView(row: Discount): DiscountView {
  return {
    id: row.id,
    code: row.code,
    type: row.type as DiscountType,
    value: Number(row.value),
    validUntil: iso(row.validUntil),
    usageLimit: row.usageLimit === null ? null : Number(row.usageLimit),
    usageCount: Number(row.usageCount),
    active: row.active,
  };
}

/** The discount row for a code (any case), or 404. */
export async function findDiscount(db: Db, code: string): Promise<Discount> {
  const row = await db.discount.findUnique({ where: { code: normalizeCode(code) } });
  if (!row) throw new NotFound(`No discount code "${normalizeCode(code)}".`);
  return row;
}

export const DISCOUNT_STATUSES = ["active", "inactive", "expired", "used_up"] as const;
export type DiscountStatus = (typeof DISCOUNT_STATUSES)[number];

/** Whether a code can be applied now ("active"), or why not: the one rule of discounts.try_apply, checkout and the admin list. */
export function discountStatus(row: Discount, now: Date): DiscountStatus {
  if (!row.active) return "inactive";
  if (row.validUntil && row.validUntil.getTime() <= now.getTime()) return "expired";
  if (row.usageLimit !== null && row.usageCount >= row.usageLimit) return "used_up";
  return "active";
}

export type DiscountEvaluation =
  | { ok: true; discount: { code: string; type: DiscountType; value: number }; discountDkk: number }
  | { ok: false; reason: "unknown" | Exclude<DiscountStatus, "active">; detail: string };

/** The amount off a subtotal (øre): percent rounds half up to whole øre; never more than the subtotal. */
export function discountAmount(type: DiscountType, value: bigint, subtotalDkk: number): number {
  const subtotal = BigInt(Math.max(0, Math.trunc(subtotalDkk)));
  const off = type === "percent" ? (subtotal * value + 50n) / 100n : value;
  return Number(off < subtotal ? off : subtotal);
}

/** Whether a code can be applied now to this subtotal (øre), and how much it takes off; never writes. */
export async function evaluateDiscount(db: Db, code: string, subtotalDkk: number, now: Date): Promise<DiscountEvaluation> {
  const normalized = normalizeCode(code);
  const row = await db.discount.findUnique({ where: { code: normalized } });
  if (!row) return { ok: false, reason: "unknown", detail: `There is no discount code "${normalized}".` };
  const status = discountStatus(row, now);
  if (status === "inactive") return { ok: false, reason: status, detail: `The code ${row.code} is not active.` };
  if (status === "expired") return { ok: false, reason: status, detail: `The code ${row.code} expired at ${row.validUntil?.toISOString()}.` };
  if (status === "used_up") return { ok: false, reason: status, detail: `The code ${row.code} has been used its maximum of ${row.usageLimit} times.` };
  const type = row.type as DiscountType;
  return { ok: true, discount: { code: row.code, type, value: Number(row.value) }, discountDkk: discountAmount(type, row.value, subtotalDkk) };
}

/**
 * Counts one use of a code with a single conditional UPDATE (active, not expired, usage left), so concurrent
 * checkouts can never push usageCount above usageLimit. False when the code could not be redeemed.
 */
export async function redeemDiscount(db: Db, code: string, now: Date): Promise<boolean> {
  const { count } = await db.discount.updateMany({
    where: {
      code: normalizeCode(code),
      active: true,
      AND: [
        { OR: [{ validUntil: null }, { validUntil: { gt: now } }] },
        { OR: [{ usageLimit: null }, { usageCount: { lt: db.discount.fields.usageLimit } }] },
      ],
    },
    data: { usageCount: { increment: 1 } },
  });
  return count === 1;
}
