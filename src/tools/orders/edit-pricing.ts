// The totals of an item edit (orders.change_items) priced again: the order's discount re-applied, shipping across the
// free-shipping threshold, VAT as the order had it. Where the difference goes is in src/tools/money/item-edits.ts.
import { Refused } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import type { Order } from "../../generated/prisma/client.ts";
import type { DiscountType } from "../discounts/schemas.ts";
import { discountAmount } from "../discounts/discount-rules.ts";
import { unitOf, type EditedLine } from "./edits.ts";
import { MAX_AMOUNT, shippingSettings, vatOf } from "./pricing.ts";
import { freeFrom, listPrice } from "../cart/delivery.ts";
import { getFreeShippingFrom } from "../settings/sale-terms.ts";

export interface Totals {
  subtotalDkk: bigint;
  discountDkk: bigint;
  shippingDkk: bigint;
  totalDkk: bigint;
  vatOere: bigint | null;
}

/** The order's totals for the edited lines, VAT as the order had it (none when it was placed without). */
export async function repriced(db: Db, order: Order, lines: readonly EditedLine[]): Promise<Totals> {
  const subtotal = lines.reduce((sum, line) => sum + unitOf(line) * BigInt(line.quantity), 0n);
  const discount = await discountFor(db, order, subtotal);
  const shipping = await shippingFor(db, order, subtotal - discount);
  const total = subtotal - discount + shipping;
  if (total > MAX_AMOUNT) throw new Refused("amount_too_large", "The order total would exceed the largest amount the shop can handle (9007199254740991 øre).");
  return { subtotalDkk: subtotal, discountDkk: discount, shippingDkk: shipping, totalDkk: total, vatOere: order.vatOere === null ? null : vatOf(total) };
}

/**
 * The order's codes re-applied to the new subtotal as checkout applies them (stacked in order), whatever their state now:
 * the shopper had them when ordering. When they no longer give the order's discount on its old subtotal (a code was
 * changed or deleted since), the discount is scaled with the subtotal instead, rounded half up.
 */
async function discountFor(db: Db, order: Order, subtotal: bigint): Promise<bigint> {
  if (order.discountDkk === 0n) return 0n;
  const codes = (order.discountCode ?? "").split(",").filter(Boolean);
  const rows = codes.length ? await db.discount.findMany({ where: { code: { in: codes } } }) : [];
  const stacked = (base: bigint) => {
    let off = 0n;
    for (const code of codes) {
      const row = rows.find((candidate) => candidate.code === code)!;
      off += BigInt(discountAmount(row.type as DiscountType, row.value, Number(base - off)));
    }
    return off;
  };
  if (codes.length && rows.length === codes.length && stacked(order.subtotalDkk) === order.discountDkk) return stacked(subtotal);
  if (order.subtotalDkk === 0n) return 0n;
  const scaled = (2n * order.discountDkk * subtotal + order.subtotalDkk) / (2n * order.subtotalDkk);
  return scaled < subtotal ? scaled : subtotal;
}

/**
 * Shipping changes only where the edit crosses the free-shipping threshold: free shipping earned by the goods becomes
 * the flat rate below it, the flat rate becomes free at it; any other amount (a rate chosen at checkout) stays.
 */
async function shippingFor(db: Db, order: Order, goods: bigint): Promise<bigint> {
  const [settings, own] = await Promise.all([shippingSettings(db), getFreeShippingFrom(db)]);
  // An order placed with a delivery method that still exists goes by that method's price and threshold.
  const method = settings.methods.find((candidate) => candidate.id === order.deliveryMethodId);
  const threshold = BigInt(method ? freeFrom(settings, method, own) : settings.freeShippingThresholdDkk);
  const flat = BigInt(method ? listPrice(settings, method) : settings.flatRateDkk);
  const before = order.subtotalDkk - order.discountDkk;
  if (before >= threshold && goods < threshold && order.shippingDkk === 0n) return flat;
  if (before < threshold && goods >= threshold && order.shippingDkk === flat) return 0n;
  return order.shippingDkk;
}
