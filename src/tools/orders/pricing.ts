// The one pricing function: cart summaries, checkout and orders.create all price lines here.
// Unit prices come from the catalogue (a variant's priceDkk overrides its product's), the discount from
// evaluateDiscount, shipping from the "shipping" settings. All amounts are integer øre, VAT 25 % included:
// vatOere = total × 25 / 125 = total / 5, rounded half up to whole øre. Sums are computed in BigInt and refused
// (422 amount_too_large) beyond 9007199254740991.
import type { Db } from "../../core/db.ts";
import type { Product, ProductVariant } from "../../generated/prisma/client.ts";
import { Refused } from "../../core/errors.ts";
import type { DiscountType } from "../discounts/schemas.ts";
import { evaluateDiscount, type DiscountEvaluation } from "../discounts/discount-rules.ts";
import { getCommerce } from "../settings/commerce.ts";
import { getSection } from "../settings/settings-document.ts";

export const MAX_AMOUNT = 9007199254740991n;

export interface LineRef {
  productId: string;
  variantId: string | null;
  quantity: number;
}

type PricedLine<R extends LineRef = LineRef> = R & PricedFields;

interface PricedFields {
  productSlug: string;
  productName: string;
  variantSku: string | null;
  variantAttributes: Record<string, string> | null;
  unitPriceDkk: number;
  lineTotalDkk: number;
  /** Units in stock of the product, or of the variant for a variant line. */
  stock: number;
}

interface AppliedDiscount {
  code: string;
  type: DiscountType;
  value: number;
  discountDkk: number;
}

export interface Pricing<R extends LineRef = LineRef> {
  lines: Array<PricedLine<R>>;
  itemCount: number;
  subtotalDkk: number;
  discountCode: string | null;
  discountDkk: number;
  /** Each code that took something off, in the order applied (stacked codes each apply to what the ones before left). */
  applied: AppliedDiscount[];
  /** Why the requested code gives no discount (null when none was asked for, or it applies). */
  discountRefusal: Extract<DiscountEvaluation, { ok: false }> | null;
  shippingDkk: number;
  /** The goods total after discount from which shipping is free (the "shipping" setting). */
  freeShippingThresholdDkk: number;
  /** How much more to buy for free shipping: 0 when shipping costs nothing already (or the cart is empty). */
  freeShippingLeftDkk: number;
  /** VAT contained in the total; 0 when the shop's prices are without VAT (the "commerce" setting). */
  vatOere: number;
  totalDkk: number;
}

export interface PriceOptions {
  /** The shipping amount of a chosen shipping rate, instead of the flat rate of the shipping settings. */
  shippingDkk?: number;
  /** The chosen delivery method's price instead of the flat rate; free above the threshold like the flat rate. */
  deliveryDkk?: number;
  /** The chosen method's own free-shipping threshold, instead of the shop's. */
  deliveryFreeFromDkk?: number;
  /** Visible products and variants the caller has just read in the same transaction (orders.create), not read again. */
  known?: { products: readonly Product[]; variants: readonly ProductVariant[] };
}

/** The "shipping" settings section (flat rate and free-shipping threshold in øre; defaults when never stored). */
export async function shippingSettings(db: Db) {
  return getSection(db, "shipping");
}

/** VAT contained in a VAT-inclusive amount at 25 %: amount / 5, rounded half up (integer øre). */
export function vatOf(totalDkk: bigint): bigint {
  return (totalDkk + 2n) / 5n;
}

function checked(amount: bigint, what: string): number {
  if (amount > MAX_AMOUNT) throw new Refused("amount_too_large", `The ${what} exceeds the largest amount the shop can handle (9007199254740991 øre).`);
  return Number(amount);
}

/**
 * Prices lines against the catalogue. Lines whose product was deleted (or whose variant no longer exists) are
 * left out: what the summary shows is exactly what checkout orders. Lines keep the order they were given in.
 * One code (a string) is refused with `discountRefusal` when it does not apply; a list of codes (checkout sessions) is
 * stacked in order, each on the subtotal the ones before left, and codes that do not apply are skipped.
 */
export async function priceLines<R extends LineRef>(
  db: Db,
  refs: R[],
  discountCode: string | readonly string[] | null,
  now: Date,
  options: PriceOptions = {},
): Promise<Pricing<R>> {
  const productById = new Map((options.known?.products ?? []).map((row) => [row.id, row]));
  const variantById = new Map((options.known?.variants ?? []).map((row) => [row.id, row]));
  const productIds = [...new Set(refs.map((ref) => ref.productId))].filter((id) => !productById.has(id));
  const variantIds = refs.flatMap((ref) => (ref.variantId && !variantById.has(ref.variantId) ? [ref.variantId] : []));
  const [products, variants] = await Promise.all([
    productIds.length ? db.product.findMany({ where: { id: { in: productIds }, deletedAt: null, draft: false } }) : [],
    variantIds.length ? db.productVariant.findMany({ where: { id: { in: variantIds } } }) : [],
  ]);
  for (const row of products) productById.set(row.id, row);
  for (const row of variants) variantById.set(row.id, row);
  const lines: Array<PricedLine<R>> = [];
  let subtotal = 0n;
  let itemCount = 0;
  for (const ref of refs) {
    const product = productById.get(ref.productId);
    const variant = ref.variantId ? variantById.get(ref.variantId) : undefined;
    if (!product || (ref.variantId && (!variant || variant.productId !== product.id))) continue;
    const unit = variant?.priceDkk ?? product.priceDkk;
    const lineTotal = unit * BigInt(ref.quantity);
    subtotal += lineTotal;
    itemCount += ref.quantity;
    lines.push({
      ...ref,
      productSlug: product.slug,
      productName: product.name,
      variantSku: variant?.sku ?? null,
      variantAttributes: variant ? (variant.attributes as Record<string, string>) : null,
      unitPriceDkk: checked(unit, "unit price"),
      lineTotalDkk: checked(lineTotal, "line total"),
      stock: Number(variant ? variant.stock : product.stock),
    });
  }
  const subtotalDkk = checked(subtotal, "subtotal");
  let discount = 0n;
  let discountRefusal: Pricing["discountRefusal"] = null;
  const applied: AppliedDiscount[] = [];
  const codes = discountCode === null ? [] : typeof discountCode === "string" ? [discountCode] : discountCode;
  for (const code of codes) {
    const evaluation = await evaluateDiscount(db, code, subtotalDkk - Number(discount), now);
    if (evaluation.ok) {
      if (applied.some((entry) => entry.code === evaluation.discount.code)) continue;
      discount += BigInt(evaluation.discountDkk);
      applied.push({ ...evaluation.discount, discountDkk: evaluation.discountDkk });
    } else if (typeof discountCode === "string") {
      discountRefusal = evaluation;
    }
  }
  const appliedCode = applied.length ? applied.map((entry) => entry.code).join(",") : null;
  const settings = await shippingSettings(db);
  const afterDiscount = subtotal - discount;
  const threshold = BigInt(options.deliveryFreeFromDkk ?? settings.freeShippingThresholdDkk);
  const free = lines.length === 0 || (options.shippingDkk === undefined && afterDiscount >= threshold);
  const shipping = free ? 0n : BigInt(options.shippingDkk ?? options.deliveryDkk ?? settings.flatRateDkk);
  const { pricesIncludeVat } = await getCommerce(db);
  const total = afterDiscount + shipping;
  return {
    lines,
    itemCount,
    subtotalDkk,
    discountCode: appliedCode,
    discountDkk: Number(discount),
    applied,
    discountRefusal,
    shippingDkk: Number(shipping),
    freeShippingThresholdDkk: Number(threshold),
    freeShippingLeftDkk: shipping === 0n ? 0 : Number(threshold - afterDiscount),
    vatOere: pricesIncludeVat ? Number(vatOf(total)) : 0,
    totalDkk: checked(total, "order total"),
  };
}
