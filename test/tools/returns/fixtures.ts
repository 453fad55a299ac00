// Test data for the returns suites: shipped and delivered orders with the status history the windows are counted from,
// and a return taken through request (and approval) by the tools themselves.
import { expect } from "vitest";
import type { TestServer } from "../../support/server.ts";
import { expectOk } from "../../support/expect.ts";
import { createOrder, type OrderSeed } from "../orders/fixtures.ts";

const DAY = 86_400_000;

export interface ShippedSeed extends OrderSeed {
  /** Days since delivery; null or absent: shipped and not yet delivered. */
  deliveredDaysAgo?: number | null;
}

/** An order that shipped (and was delivered `deliveredDaysAgo` days ago), with those moves in its status history. */
export async function shippedOrder(server: TestServer, seed: ShippedSeed = {}) {
  const delivered = seed.deliveredDaysAgo ?? null;
  const order = await createOrder(server, { status: delivered === null ? "shipped" : "delivered", ...seed });
  const shippedAt = new Date(Date.now() - ((delivered ?? 0) + 2) * DAY);
  await server.prisma.orderStatusChange.createMany({
    data: [
      { orderId: order.id, fromStatus: "processing", toStatus: "shipped", actor: "system:test", createdAt: shippedAt },
      ...(delivered === null ? [] : [{ orderId: order.id, fromStatus: "shipped", toStatus: "delivered", actor: "system:test", createdAt: new Date(Date.now() - delivered * DAY) }]),
    ],
  });
  return order;
}

/**
 * A delivered order of one unit (or `quantities[0]`) of the variant whose SKU ends in `size` (-s, -m: the product's
 * price; -l: 100 kr. more), its ledger paid in full, and five of each variant in stock.
 */
export async function deliveredVariantOrder(server: TestServer, size: "s" | "m" | "l", seed: ShippedSeed = {}) {
  const prisma = server.prisma;
  const order = await shippedOrder(server, { deliveredDaysAgo: 2, variant: true, quantities: [1], ...seed });
  const line = order.items[0]!;
  const variants = await prisma.productVariant.findMany({ where: { productId: line.productId }, include: { product: true } });
  const pick = (s: string) => variants.find((v) => v.sku.endsWith(`-${s}`))!;
  const chosen = pick(size);
  const unit = chosen.priceDkk ?? chosen.product.priceDkk;
  const subtotal = unit * BigInt(line.quantity);
  const total = subtotal + order.shippingDkk - order.discountDkk;
  await prisma.orderItem.update({ where: { id: line.id }, data: { variantId: chosen.id, variantSku: chosen.sku, unitPriceDkk: unit } });
  await prisma.order.update({ where: { id: order.id }, data: { subtotalDkk: subtotal, totalDkk: total } });
  await prisma.paymentEntry.updateMany({ where: { orderId: order.id, kind: "payment" }, data: { amountDkk: total } });
  const fresh = await prisma.order.findUniqueOrThrow({ where: { id: order.id }, include: { items: true } });
  for (const v of variants) await prisma.productVariant.update({ where: { id: v.id }, data: { stock: 5n } });
  return { order: fresh, s: pick("s"), m: pick("m"), l: pick("l"), unit };
}

export interface ReturnView {
  returnId: string;
  orderId: string;
  orderNumber: number;
  kind: string;
  status: string;
  reason: string;
  rejectReason: string | null;
  items: Array<{ orderItemId: string; productName: string; quantity: number }>;
  exchangeVariantId: string | null;
  replacementOrderId: string | null;
  refundDkk: number | null;
  refundTo: "original" | "store_credit" | "gift_card" | null;
  refundGiftCard: string | null;
  refundDueBy: string | null;
  createdAt: string;
  updatedAt: string;
}

type Order = Awaited<ReturnType<typeof shippedOrder>>;

/** Requests a return of `quantities` (per line, in the order's line order; default every unit) and approves it when asked. */
export async function openReturn(
  server: TestServer,
  key: string,
  order: Order,
  options: { kind?: "withdrawal" | "complaint"; quantities?: number[]; approve?: boolean; exchangeVariantId?: string; giftCardCode?: string; refundTo?: string } = {},
): Promise<ReturnView> {
  const items = order.items
    .map((item, i) => ({ orderItemId: item.id, quantity: options.quantities ? options.quantities[i] ?? 0 : item.quantity }))
    .filter((item) => item.quantity > 0);
  const input = { orderId: order.id, items, kind: options.kind ?? "withdrawal", reason: "Passede ikke", ...(options.exchangeVariantId && { exchangeVariantId: options.exchangeVariantId }), ...(options.giftCardCode && { giftCardCode: options.giftCardCode }), ...(options.refundTo && { refundTo: options.refundTo }) };
  const requested = expectOk<ReturnView>(server, "returns.request", await server.call("returns.request", input, { key }));
  if (!options.approve) return requested;
  const approved = expectOk<ReturnView>(server, "returns.approve", await server.call("returns.approve", { returnId: requested.returnId }, { key }));
  expect(approved.status).toBe("approved");
  return approved;
}

/** Everything a return write may touch, for "nothing written" checks. */
export async function returnState(server: TestServer, orderId: string) {
  const prisma = server.prisma;
  const [order, returns, items, audits, changes, stock, variants, ledger, refundTasks, orders, mails] = await Promise.all([
    prisma.order.findUnique({ where: { id: orderId } }),
    prisma.returnRequest.findMany({ where: { orderId }, orderBy: { id: "asc" } }),
    prisma.returnItem.count(),
    prisma.auditEntry.count(),
    prisma.orderStatusChange.count(),
    prisma.product.aggregate({ _sum: { stock: true } }),
    prisma.productVariant.aggregate({ _sum: { stock: true } }),
    prisma.paymentEntry.count(),
    prisma.refundTask.count(),
    prisma.order.count(),
    prisma.emailMessage.count(),
  ]);
  return { order, returns, items, audits, changes, stock: stock._sum.stock, variants: variants._sum.stock, ledger, refundTasks, orders, mails };
}
