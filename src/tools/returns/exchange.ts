// Exchanges: another variant of the same product instead of a refund. Checked at request, its units reserved at
// approval (a conditional decrement), and at receipt a replacement order (channel "exchange", free shipping) that is
// credited with what the returned units cost per unit: a dearer variant leaves the difference to pay through the
// order's normal payment link, a cheaper one refunds what was paid for the returned units less the new variant's price.
import { Refused } from "../../core/errors.ts";
import { formatMoney } from "../../core/format.ts";
import type { Order, Product, ProductVariant } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { orderRef } from "../orders/numbers.ts";
import { vatOf } from "../orders/pricing.ts";
import { itemOrder, type OrderWithItems } from "../orders/schemas.ts";
import { changeStatus, orderRow } from "../orders/service.ts";
import { emitOrderCreated } from "../orders/webhook-events.ts";
import { emitIfLow } from "../products/webhook-events.ts";
import { getCommerce } from "../settings/commerce.ts";
import { returnReference, type ReturnWithItems } from "./schemas.ts";
import { grossOf } from "./service.ts";

type Variant = ProductVariant & { product: Product };
type Line = { productId: string; variantId: string | null };

/** The variant to exchange `lines` for: of the same (visible) product as every line and none of theirs; else 422 invalid_exchange_variant. */
export async function exchangeVariant(ctx: ToolContext, variantId: string, lines: Line[]): Promise<Variant> {
  const variant = await ctx.db.productVariant.findUnique({ where: { id: variantId }, include: { product: true } });
  if (!variant || variant.product.deletedAt || lines.some((line) => line.productId !== variant.productId || line.variantId === variant.id)) {
    throw new Refused("invalid_exchange_variant", `Variant "${variantId}" is not another variant of the product being returned.`);
  }
  return variant;
}

/** 422 insufficient_stock unless `units` of the variant are in stock. */
export function assertInStock(variant: Variant, units: number): void {
  if (variant.stock < BigInt(units)) {
    throw new Refused("insufficient_stock", `Only ${variant.stock} of ${variant.product.name} (${variant.sku}) in stock; the exchange needs ${units}.`);
  }
}

const unitsOf = (ret: ReturnWithItems) => ret.items.reduce((sum, item) => sum + item.quantity, 0);

/** Takes the exchange's units from stock by one conditional update (approval); 422 insufficient_stock or invalid_exchange_variant. */
export async function reserveExchange(ctx: ToolContext, ret: ReturnWithItems): Promise<void> {
  const variant = await exchangeVariant(ctx, ret.exchangeVariantId!, ret.items.map((item) => item.orderItem));
  const units = unitsOf(ret);
  const n = BigInt(units);
  const [left] = await ctx.db.$queryRaw<Array<{ stock: bigint | number }>>`
    UPDATE "ProductVariant" SET stock = stock - ${n}, "updatedAt" = ${ctx.now()} WHERE id = ${variant.id} AND stock >= ${n} RETURNING stock`;
  if (!left) throw new Refused("insufficient_stock", `Not enough of ${variant.product.name} (${variant.sku}) in stock for the exchange's ${units} units.`);
  await emitIfLow(ctx, { productId: variant.productId, slug: variant.product.slug, sku: variant.sku, before: Number(left.stock) + units, after: Number(left.stock) });
  await ctx.services.catalog.changed(ctx, { stock: [variant.productId] });
}

export interface Replacement {
  order: Order;
  /** Where the shopper pays what the dearer variant costs more; null when nothing is owed. */
  paymentUrl: string | null;
  /** What the cheaper variant leaves to refund on the original order (øre, before the ledger's cap). */
  refundDkk: bigint;
}

/** Makes the replacement order for a received exchange, with the units reserved at approval. */
export async function shipReplacement(ctx: ToolContext, original: OrderWithItems, ret: ReturnWithItems, netPaid: bigint): Promise<Replacement> {
  const variant = await ctx.db.productVariant.findUniqueOrThrow({ where: { id: ret.exchangeVariantId! }, include: { product: true } });
  const units = unitsOf(ret);
  const unitPrice = variant.priceDkk ?? variant.product.priceDkk;
  const value = unitPrice * BigInt(units);
  const credit = grossOf(ret) < value ? grossOf(ret) : value;
  const total = value - credit;
  const now = ctx.now();
  const reference = returnReference(ret);
  const commerce = await getCommerce(ctx.db);
  const created = await ctx.db.order.create({
    data: {
      userId: original.userId,
      email: original.email,
      status: "pending_payment",
      shippingName: original.shippingName,
      shippingAddress: original.shippingAddress,
      shippingZip: original.shippingZip,
      shippingCity: original.shippingCity,
      shippingCountry: original.shippingCountry,
      billingName: original.billingName,
      billingAddress: original.billingAddress,
      billingZip: original.billingZip,
      billingCity: original.billingCity,
      billingCountry: original.billingCountry,
      phoneNumber: original.phoneNumber,
      subtotalDkk: value,
      shippingDkk: 0n,
      discountDkk: credit,
      totalDkk: total,
      vatOere: commerce.pricesIncludeVat ? vatOf(total) : null,
      paymentProvider: ctx.services.payments.name,
      currency: original.currency,
      channel: "exchange",
      createdAt: now,
      items: {
        create: {
          productId: variant.productId,
          productName: variant.product.name,
          unitPriceDkk: unitPrice,
          quantity: units,
          variantId: variant.id,
          variantSku: variant.sku,
          variantAttributes: variant.attributes ?? {},
        },
      },
      notes: { create: { body: `Ombytning for retur ${reference} af ordre ${orderRef(original.number)}: krediteret ${formatMoney(credit, original.currency)} for de returnerede varer.`, author: ctx.caller.actor, createdAt: now } },
    },
    include: { items: { orderBy: itemOrder } },
  });
  await ctx.db.orderStatusChange.create({ data: { orderId: created.id, fromStatus: null, toStatus: "pending_payment", actor: ctx.caller.actor, reason: `Ombytning ${reference}`, createdAt: now } });
  await ctx.db.orderNote.create({ data: { orderId: original.id, body: `Retur ${reference} modtaget og ombyttet: erstatningsordre ${orderRef(created.number)}.`, author: ctx.caller.actor, createdAt: now } });
  await ctx.audit({ subjectType: "order", subjectId: created.id, before: null, after: orderRow(created) });
  await emitOrderCreated(ctx, created, created.items);
  if (total === 0n) {
    const paid = await changeStatus(ctx, created, { to: "paid", reason: `Ombytning ${reference}: intet at betale` });
    return { order: paid, paymentUrl: null, refundDkk: netPaid > value ? netPaid - value : 0n };
  }
  const payment = await ctx.services.payments.createPayment({
    id: created.id,
    number: created.number,
    email: created.email,
    currency: created.currency,
    totalDkk: Number(total),
    // Nothing of the replacement is paid yet: the returned goods are a discount on it, not a payment.
    paidDkk: 0,
    shippingDkk: 0,
    discountDkk: Number(credit),
    items: [{ productName: variant.product.name, unitPriceDkk: Number(unitPrice), quantity: units }],
  });
  const order = payment.providerSessionId ? await ctx.db.order.update({ where: { id: created.id }, data: { paymentProviderSessionId: payment.providerSessionId } }) : created;
  return { order, paymentUrl: payment.paymentUrl, refundDkk: 0n };
}
