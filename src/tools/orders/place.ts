// Placing an order (cart.checkout and orders.create share it): price, decrement stock and discount usage with
// conditional updates in the caller's transaction (any shortfall → 422 and everything rolls back), find or create
// the customer, write the order with item snapshots, its first status change and audit entry, take what a gift card
// pays, then ask the payment provider for the payment URL of the rest (inside the transaction, so a provider failure
// leaves no orphan order and no spent card); a card paying everything makes the order paid at once.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import type { Order } from "../../generated/prisma/client.ts";
import { validateAddress } from "../address/postal-codes.ts";
import type { Door, ToolContext } from "../context.ts";
import { redeemDiscount } from "../discounts/discount-rules.ts";
import { getCommerce } from "../settings/commerce.ts";
import { sendPaymentInstructions } from "./emails.ts";
import { priceLines, type LineRef, type PriceOptions, type Pricing } from "./pricing.ts";
import { emitIfLow } from "../products/webhook-events.ts";
import { codeHint } from "../money/gift-card-codes.ts";
import { spendUpTo } from "../money/gift-cards.ts";
import { book } from "../money/ledger.ts";
import type { DeliveryChoice } from "../cart/delivery.ts";
import { changeStatus, lockOrder } from "./order-writes.ts";

interface PostalAddress {
  name: string;
  address: string;
  zip: string;
  city: string;
  /** ISO 3166-1 alpha-2; Denmark when absent. */
  country?: string;
  /** State or province, where the country has them (checkout sessions' destinations). */
  region?: string | null | undefined;
}

/** Input fields of a Danish postal address (orders.create shipping and billing). */
export const postal = {
  name: z.string().trim().min(2).max(200),
  address: z.string().trim().min(2).max(200),
  zip: z.string().regex(/^\d{4}$/, "Danish postal codes are 4 digits"),
  city: z.string().trim().min(1).max(100).describe("Must match the postal code."),
};

/** The address with the official city name; 422 invalid_address naming `what` and the problems. */
export function checkedAddress(what: string, input: { address: string; zip: string; city: string }) {
  const check = validateAddress(input);
  if (!check.valid || !check.normalized) throw new Refused("invalid_address", `${what}: ${check.problems.join(" ")}`);
  return check.normalized;
}

export interface PlaceOrderInput {
  lines: LineRef[];
  /** One code (refused or dropped when it does not apply), or stacked codes (those that do not apply are skipped). */
  discountCode: string | readonly string[] | null;
  /** The chosen shipping rate's amount (checkout sessions), instead of the flat rate. */
  shippingDkk?: number;
  /** The delivery method chosen at checkout (its price instead of the flat rate, stored on the order). */
  delivery?: DeliveryChoice | null;
  /** Order without a code that no longer applies instead of refusing (422 discount_unavailable). */
  dropInvalidDiscount: boolean;
  email: string;
  phone: string | null;
  shipping: PostalAddress;
  billing: (PostalAddress & { country: string }) | null;
  channel: string;
  aiAgentSource: string | null;
  sessionId: string | null;
  /** The Agentic Commerce Protocol checkout session the order completes (Order.acpSessionId). */
  acpSessionId?: string | null;
  /** The lines' visible products and variants, when the caller has just read them in this transaction. */
  known?: PriceOptions["known"];
  /** A gift card that pays what it can of the total; the payment is asked for the rest. */
  giftCardCode?: string | null;
}

export interface PlacedOrder {
  order: Order;
  pricing: Pricing;
  paymentUrl: string;
  /** What a gift card paid at checkout (0 without one); when it is the whole total the order is already paid. */
  giftCardDkk: bigint;
}

const AI_DOORS: ReadonlySet<Door> = new Set(["mcp", "storefront-assistant", "admin-assistant"]);

/** The order channel of a door: "mcp", "chat" for the assistants, else "web". */
export function channelOf(door: Door): string {
  if (door === "mcp") return "mcp";
  return door === "storefront-assistant" || door === "admin-assistant" ? "chat" : "web";
}

/** The AI agent behind a call (MCP client or assistant), or null for people. */
function aiAgentOf(ctx: ToolContext): string | null {
  return AI_DOORS.has(ctx.door) ? (ctx.caller.agent ?? ctx.door) : null;
}

/** Decrements stock for every line (one conditional UPDATE each, in id order); 422 insufficient_stock on a shortfall. */
async function takeStock(ctx: ToolContext, pricing: Pricing): Promise<void> {
  const wanted = new Map<string, Units>();
  for (const line of pricing.lines) {
    const key = `${line.productId}:${line.variantId ?? ""}`;
    const entry = wanted.get(key) ?? { productId: line.productId, variantId: line.variantId, quantity: 0, name: line.variantSku ? `${line.productName} (${line.variantSku})` : line.productName };
    entry.quantity += line.quantity;
    wanted.set(key, entry);
  }
  for (const key of [...wanted.keys()].sort()) {
    const units = wanted.get(key)!;
    if (!(await takeUnits(ctx, units))) throw new Refused("insufficient_stock", `Not enough of ${units.name} in stock for ${units.quantity} units.`);
  }
}

/** Takes what the card holds, at most the total, and books it as the order's first payment; returns the amount. */
async function payFromGiftCard(ctx: ToolContext, order: Order, code: string): Promise<bigint> {
  if (order.totalDkk <= 0n) return 0n;
  const { card, amountDkk } = await spendUpTo(ctx, code, order.totalDkk, order.id);
  await book(ctx, order.id, { kind: "payment", method: "gift_card", amountDkk, reference: codeHint(card.code) });
  return amountDkk;
}

/** Units of one product, or of one of its variants, and how to name them in a refusal. */
export interface Units {
  productId: string;
  variantId: string | null;
  quantity: number;
  name: string;
}

/**
 * Takes units from stock with one conditional UPDATE (never below zero, never from a deleted product) and reports a
 * stock that fell low; false when there were not enough.
 */
export async function takeUnits(ctx: ToolContext, { productId, variantId, quantity }: Units): Promise<boolean> {
  const n = BigInt(quantity);
  type Left = { slug: string; sku: string | null; stock: bigint | number };
  const [left] = variantId
    ? await ctx.db.$queryRaw<Left[]>`UPDATE "ProductVariant" v SET stock = v.stock - ${n}, "updatedAt" = now() FROM "Product" p
        WHERE v.id = ${variantId} AND v.stock >= ${n} AND p.id = v."productId" AND p."deletedAt" IS NULL AND NOT p.draft RETURNING p.slug, v.sku, v.stock`
    : await ctx.db.$queryRaw<Left[]>`UPDATE "Product" SET stock = stock - ${n}, "updatedAt" = now()
        WHERE id = ${productId} AND stock >= ${n} AND "deletedAt" IS NULL AND NOT draft RETURNING slug, NULL::text AS sku, stock`;
  if (!left) return false;
  await emitIfLow(ctx, { productId, slug: left.slug, sku: left.sku, before: Number(left.stock) + quantity, after: Number(left.stock) });
  return true;
}

export async function placeOrder(ctx: ToolContext, input: PlaceOrderInput): Promise<PlacedOrder> {
  const now = ctx.now();
  const shippingOptions: PriceOptions =
    input.shippingDkk !== undefined ? { shippingDkk: input.shippingDkk } : input.delivery ? { deliveryDkk: input.delivery.listPriceDkk, deliveryFreeFromDkk: input.delivery.freeFromDkk } : {};
  const priceOptions: PriceOptions = input.known ? { ...shippingOptions, known: input.known } : shippingOptions;
  const delivery = input.delivery ?? null;
  let pricing = await priceLines(ctx.db, input.lines, input.discountCode, now, priceOptions);
  if (pricing.lines.length === 0) throw new Refused("cart_empty", "There is nothing to order: no lines, or only products that are no longer sold.");
  if (pricing.discountRefusal) {
    if (!input.dropInvalidDiscount) throw new Refused("discount_unavailable", pricing.discountRefusal.detail);
    pricing = await priceLines(ctx.db, input.lines, null, now, priceOptions);
  }
  await takeStock(ctx, pricing);
  for (const { code } of pricing.applied) {
    if (!(await redeemDiscount(ctx.db, code, now))) {
      throw new Refused("discount_unavailable", `The code ${code} could not be redeemed (used up, expired or switched off just now).`);
    }
  }
  const email = input.email.toLowerCase();
  // An app a shopper linked over OAuth (UCP identity linking, a shopper's MCP token) orders for that customer, whatever
  // e-mail it gives; any other caller's order belongs to the customer of its e-mail, as always.
  const linked = ctx.caller.oauthClient && ctx.caller.kind === "session" ? ctx.caller.session?.customerId : undefined;
  const known = linked ? await ctx.db.customer.findUnique({ where: { id: linked } }) : email ? await ctx.db.customer.findUnique({ where: { email } }) : null;
  const customer = known ?? (email ? await ctx.db.customer.upsert({ where: { email }, create: { email, name: input.shipping.name, phone: input.phone }, update: {} }) : null);
  const aiAgentSource = input.aiAgentSource ?? aiAgentOf(ctx);
  const commerce = await getCommerce(ctx.db);
  // The insert takes the next order number (the column's default, migration order_numbers); other checkouts wait on the
  // counter row from here until this transaction ends, which keeps the numbers gap-free.
  const order = await ctx.db.order.create({
    data: {
      userId: customer?.id ?? null,
      sessionId: input.sessionId,
      email,
      status: "pending_payment",
      shippingName: input.shipping.name,
      shippingAddress: input.shipping.address,
      shippingZip: input.shipping.zip,
      shippingCity: input.shipping.city,
      shippingCountry: input.shipping.country ?? "DK",
      shippingRegion: input.shipping.region ?? null,
      billingName: input.billing?.name ?? null,
      billingAddress: input.billing?.address ?? null,
      billingZip: input.billing?.zip ?? null,
      billingCity: input.billing?.city ?? null,
      billingCountry: input.billing?.country ?? null,
      billingRegion: input.billing?.region ?? null,
      phoneNumber: input.phone,
      subtotalDkk: BigInt(pricing.subtotalDkk),
      shippingDkk: BigInt(pricing.shippingDkk),
      discountDkk: BigInt(pricing.discountDkk),
      totalDkk: BigInt(pricing.totalDkk),
      vatOere: commerce.pricesIncludeVat ? BigInt(pricing.vatOere) : null,
      discountCode: pricing.discountCode,
      isAiGenerated: aiAgentSource !== null,
      aiAgentSource,
      paymentProvider: ctx.collaborators.payments.name,
      currency: commerce.currency,
      fxRate: 1,
      channel: input.channel,
      acpSessionId: input.acpSessionId ?? null,
      deliveryMethodId: delivery?.method.id ?? null,
      deliveryMethodName: delivery?.method.name ?? null,
      deliveryCarrier: delivery?.method.carrier ?? null,
      ...(delivery?.pickupPoint ? { pickupPoint: { ...delivery.pickupPoint } } : {}),
      createdAt: now,
    },
  });
  // The lines as their own statement: a nested create would read the order back once more.
  const items = await ctx.db.orderItem.createManyAndReturn({
    data: pricing.lines.map((line) => ({
      orderId: order.id,
      productId: line.productId,
      productName: line.productName,
      unitPriceDkk: BigInt(line.unitPriceDkk),
      quantity: line.quantity,
      variantId: line.variantId,
      variantSku: line.variantSku,
      ...(line.variantAttributes ? { variantAttributes: line.variantAttributes } : {}),
    })),
  });
  await ctx.db.orderStatusChange.create({
    data: { orderId: order.id, fromStatus: null, toStatus: order.status, actor: ctx.caller.actor, reason: "Order placed", createdAt: now },
  });
  const giftCardDkk = input.giftCardCode ? await payFromGiftCard(ctx, order, input.giftCardCode) : 0n;
  const paidInFull = giftCardDkk > 0n && giftCardDkk === order.totalDkk;
  const provider = ctx.collaborators.payments;
  let saved = order;
  let paymentUrl = provider.pageUrl(order.id);
  if (!paidInFull) {
    const payment = await provider.createPayment({
      id: order.id,
      number: order.number,
      email,
      currency: order.currency,
      totalDkk: pricing.totalDkk,
      paidDkk: Number(giftCardDkk),
      shippingDkk: pricing.shippingDkk,
      discountDkk: pricing.discountDkk,
      items: pricing.lines.map((line) => ({ productName: line.productName, unitPriceDkk: line.unitPriceDkk, quantity: line.quantity })),
    });
    paymentUrl = payment.paymentUrl;
    if (payment.providerSessionId) saved = await ctx.db.order.update({ where: { id: order.id }, data: { paymentProviderSessionId: payment.providerSessionId } });
    // Bank transfer: the shopper needs the amount, reference and account in writing; card payments confirm once paid.
    if (provider.name === "manual") {
      const placed = { ...order, items };
      ctx.afterCommit(() => sendPaymentInstructions(ctx.collaborators.db, ctx.collaborators.mailer, placed, giftCardDkk, paymentUrl, ctx.now()));
    }
  }
  await ctx.audit({ subjectType: "order", subjectId: saved.id, before: null, after: saved });
  await ctx.collaborators.orderEvents.announce(ctx, { type: "created", orderId: saved.id, order: saved, lines: pricing.lines });
  // The card paid everything: the order is paid now, as any payment makes it (confirmation e-mail, webhooks).
  if (paidInFull) saved = await changeStatus(ctx, await lockOrder(ctx.db, order.id), { to: "paid", reason: "gift card at checkout", data: { paymentMethod: "gift_card" } });
  await ctx.collaborators.catalog.changed(ctx, { stock: [...new Set(pricing.lines.map((line) => line.productId))] });
  return { order: saved, pricing, paymentUrl, giftCardDkk };
}
