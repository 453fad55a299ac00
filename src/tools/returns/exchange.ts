// Exchanges: another variant of the same product instead of a refund. Checked at request, its units reserved at
// approval (a conditional decrement), and at receipt a replacement order (channel "exchange", free shipping) at the new
// variant's price with the returned units' discount rate, to which the ledger moves what was paid for the returned units
// (their discount share included): a dearer variant leaves the difference to pay through the order's normal payment
// link, a cheaper one refunds what was paid for the returned units less the replacement's price.
import { Refused } from "../../core/errors.ts";
import { formatMoney } from "../../core/format.ts";
import type { GiftCard, Order, Product, ProductVariant } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { orderRef } from "../shared/order-numbers.ts";
import { vatOf } from "../orders/pricing.ts";
import { book, methodOf, transfer } from "../money/ledger.ts";
import { codeHint, findCard } from "../money/gift-card-codes.ts";
import { spendUpTo, usable } from "../money/gift-cards.ts";
import { itemOrder, type OrderWithItems } from "../orders/schemas.ts";
import { changeStatus, orderRow } from "../orders/order-writes.ts";
import { emitIfLow } from "../products/webhook-events.ts";
import { getCommerce } from "../settings/commerce.ts";
import { returnReference, type ReturnUnits, type ReturnWithItems } from "./schemas.ts";
import { netPaidFor } from "./return-rules.ts";

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

const unitsOf = (ret: ReturnUnits) => ret.items.reduce((sum, item) => sum + item.quantity, 0);

/** Takes the exchange's units from stock by one conditional update (approval); 422 insufficient_stock or invalid_exchange_variant. */
export async function reserveExchange(ctx: ToolContext, ret: ReturnWithItems): Promise<void> {
  const variant = await exchangeVariant(ctx, ret.exchangeVariantId!, ret.items.map((item) => item.orderItem));
  const units = unitsOf(ret);
  const n = BigInt(units);
  const [left] = await ctx.db.$queryRaw<Array<{ stock: bigint | number }>>`
    UPDATE "ProductVariant" SET stock = stock - ${n}, "updatedAt" = ${ctx.now()} WHERE id = ${variant.id} AND stock >= ${n} RETURNING stock`;
  if (!left) throw new Refused("insufficient_stock", `Not enough of ${variant.product.name} (${variant.sku}) in stock for the exchange's ${units} units.`);
  await emitIfLow(ctx, { productId: variant.productId, slug: variant.product.slug, sku: variant.sku, before: Number(left.stock) + units, after: Number(left.stock) });
  await ctx.collaborators.catalog.changed(ctx, { stock: [variant.productId] });
}

/** The new variant of a received exchange and what its units cost. */
export interface Priced {
  variant: Variant;
  /** The new variant's unit price in the catalogue today (øre). */
  unitPrice: bigint;
  /** The unit price times the returned units (øre): the replacement's subtotal. */
  listDkk: bigint;
  /** What the replacement costs (øre): its list price with the returned units' discount rate carried over. */
  valueDkk: bigint;
}

/**
 * Prices the new variant of a received exchange: the catalogue's price today, less the same share the shopper's discount
 * took off the returned units (`paidDkk` of their `unitPriceDkk` at purchase). The discount goes with the goods, so a
 * size swap at the same price costs nothing more, and the difference either way is the difference at the rate paid.
 */
export async function priceExchange(ctx: ToolContext, ret: ReturnUnits, paidDkk: bigint): Promise<Priced> {
  const variant = await ctx.db.productVariant.findUniqueOrThrow({ where: { id: ret.exchangeVariantId! }, include: { product: true } });
  const unitPrice = variant.priceDkk ?? variant.product.priceDkk;
  const listDkk = unitPrice * BigInt(unitsOf(ret));
  const grossDkk = ret.items.reduce((sum, item) => sum + item.orderItem.unitPriceDkk * BigInt(item.quantity), 0n);
  const valueDkk = grossDkk > 0n && paidDkk < grossDkk ? (listDkk * paidDkk * 2n + grossDkk) / (grossDkk * 2n) : listDkk;
  return { variant, unitPrice, listDkk, valueDkk };
}

/**
 * The gift card or store credit named to pay a dearer exchange's difference, checked at request against the difference
 * priced now: 404 unknown code, 422 giftcard_expired, 422 insufficient_balance when its balance cannot cover it. Not a
 * reservation: receipt debits the card by the conditional UPDATE of every spend and leaves what the card no longer
 * covers (spent elsewhere meanwhile) to the replacement's payment link.
 */
export async function payerCard(ctx: ToolContext, order: OrderWithItems, units: ReturnUnits, typed: string): Promise<GiftCard> {
  const card = usable(ctx, await findCard(ctx.db, typed));
  const paid = await netPaidFor(ctx, order, units);
  const { valueDkk } = await priceExchange(ctx, units, paid);
  const difference = valueDkk - paid;
  if (difference > card.balanceDkk) {
    throw new Refused("insufficient_balance", `The gift card ${codeHint(card.code)} has ${formatMoney(card.balanceDkk, card.currency)} left; the exchange costs ${formatMoney(difference, order.currency)} more than the returned goods were paid.`);
  }
  return card;
}

/**
 * Pays what a replacement still owes from the card the return named, as far as it holds it now (the balance checked at
 * request may have been spent since): booked as a gift-card payment; 0 when the card is spent or expired.
 */
async function payFromCard(ctx: ToolContext, replacement: Order, giftCardId: string, due: bigint): Promise<bigint> {
  const card = await ctx.db.giftCard.findUnique({ where: { id: giftCardId } });
  if (!card) return 0n;
  try {
    const spent = await spendUpTo(ctx, card.code, due, replacement.id);
    await book(ctx, replacement.id, { kind: "payment", method: "gift_card", amountDkk: spent.amountDkk, reference: codeHint(card.code) });
    return spent.amountDkk;
  } catch (error) {
    // Spent elsewhere or expired since the request: the payment link asks for the rest, as for any dearer exchange.
    if (error instanceof Refused) return 0n;
    throw error;
  }
}

export interface Replacement {
  order: Order;
  /** Moved from the original order's ledger to the replacement's, toward its price (øre). */
  movedDkk: bigint;
  /** Still to pay on the replacement (øre); its payment link is paymentUrl. */
  dueDkk: bigint;
  /** Where the shopper pays what the dearer variant costs more; null when nothing is owed. */
  paymentUrl: string | null;
}

/**
 * Makes the replacement order for a received exchange, with the units reserved at approval, at the new variant's price
 * today, and moves `credit` (what the returned units were paid, at most that price) toward it from the original order's
 * ledger, as far as that still holds it.
 */
export async function shipReplacement(ctx: ToolContext, original: OrderWithItems, ret: ReturnWithItems, priced: Priced, credit: bigint): Promise<Replacement> {
  const { variant, unitPrice, listDkk, valueDkk: value } = priced;
  const units = unitsOf(ret);
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
      shippingRegion: original.shippingRegion,
      billingName: original.billingName,
      billingAddress: original.billingAddress,
      billingZip: original.billingZip,
      billingCity: original.billingCity,
      billingCountry: original.billingCountry,
      billingRegion: original.billingRegion,
      phoneNumber: original.phoneNumber,
      subtotalDkk: listDkk,
      shippingDkk: 0n,
      discountDkk: listDkk - value,
      totalDkk: value,
      vatOere: commerce.pricesIncludeVat ? vatOf(value) : null,
      paymentProvider: ctx.collaborators.payments.name,
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
    },
    include: { items: { orderBy: itemOrder } },
  });
  const moved = await transfer(ctx, original, created, credit);
  await ctx.db.orderNote.create({ data: { orderId: created.id, body: `Ombytning for retur ${reference} af ordre ${orderRef(original.number)}: ${formatMoney(moved, original.currency)}, som blev betalt for de returnerede varer, er overført til denne ordre.`, author: ctx.caller.actor, createdAt: now } });
  await ctx.db.orderStatusChange.create({ data: { orderId: created.id, fromStatus: null, toStatus: "pending_payment", actor: ctx.caller.actor, reason: `Ombytning ${reference}`, createdAt: now } });
  await ctx.db.orderNote.create({ data: { orderId: original.id, body: `Retur ${reference} modtaget og ombyttet: erstatningsordre ${orderRef(created.number)}.`, author: ctx.caller.actor, createdAt: now } });
  await ctx.audit({ subjectType: "order", subjectId: created.id, before: null, after: orderRow(created) });
  await ctx.collaborators.orderEvents.announce(ctx, { type: "created", orderId: created.id, order: created, lines: created.items });
  const fromCard = ret.giftCardId && moved < value ? await payFromCard(ctx, created, ret.giftCardId, value - moved) : 0n;
  if (moved + fromCard === value) {
    const how = fromCard > 0n ? "de returnerede varer og gavekort" : "de returnerede varer";
    const paid = await changeStatus(ctx, created, { to: "paid", reason: `Ombytning ${reference}: betalt med ${how}`, data: { paymentMethod: moved > 0n ? methodOf(original) : "gift_card" } });
    return { order: paid, movedDkk: moved, dueDkk: 0n, paymentUrl: null };
  }
  const payment = await ctx.collaborators.payments.createPayment({
    id: created.id,
    number: created.number,
    email: created.email,
    currency: created.currency,
    totalDkk: Number(value),
    // What the returned goods and the named card paid is already on the replacement's ledger: the session asks for the rest.
    paidDkk: Number(moved + fromCard),
    shippingDkk: 0,
    discountDkk: Number(listDkk - value),
    items: [{ productName: variant.product.name, unitPriceDkk: Number(unitPrice), quantity: units }],
  });
  const order = payment.providerSessionId ? await ctx.db.order.update({ where: { id: created.id }, data: { paymentProviderSessionId: payment.providerSessionId } }) : created;
  return { order, movedDkk: moved, dueDkk: value - moved - fromCard, paymentUrl: payment.paymentUrl };
}
