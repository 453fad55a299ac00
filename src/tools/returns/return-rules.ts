// Returns shared by the returns.* tools: the one order lookup, row locks, the state machine, the windows the law
// gives, how many units are still returnable, restocking, and what a return refunds.
import { NotFound, Refused } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import type { ToolContext } from "../context.ts";
import { lockOrder } from "../orders/order-writes.ts";
import { itemOrder, type OrderWithItems } from "../orders/schemas.ts";
import { SHIPPED, UNSHIPPED } from "../orders/transitions.ts";
import { complaintDeadline, COMPLAINT_MONTHS, withdrawalDeadline } from "./deadlines.ts";
import { getReturnDays } from "../settings/sale-terms.ts";
import { withItems, type ReturnUnits, type ReturnKind, type ReturnStatus, type ReturnWithItems } from "./schemas.ts";

/** The moves a return may make; anything else is 422 illegal_transition. */
const MOVES: Record<ReturnStatus, readonly ReturnStatus[]> = {
  requested: ["approved", "rejected"],
  approved: ["received", "refunded"],
  received: [],
  refunded: [],
  rejected: [],
};

/** Returns that hold their units: every one but a rejected one. */
const HOLDING: ReturnStatus[] = ["requested", "approved", "received", "refunded"];
/** Returns whose goods are back: their units count as returned when the next return's refund is worked out. */
const SETTLED: ReturnStatus[] = ["received", "refunded"];

/**
 * The order a return is about, with its lines: the one place every returns.* tool looks an order up (404 when unknown),
 * so a caller's right to it can be checked here. `lock` takes its row lock for the rest of the transaction: every write
 * to an order's returns queues on it, so two requests or receipts never both count the same units or money.
 */
export async function loadOrderForReturn(ctx: ToolContext, orderId: string, options: { lock: boolean }): Promise<OrderWithItems> {
  if (options.lock) return lockOrder(ctx.db, orderId);
  const order = await ctx.db.order.findUnique({ where: { id: orderId }, include: { items: { orderBy: itemOrder } } });
  if (!order) throw new NotFound(`No order with id "${orderId}".`);
  return order;
}

/** A return with its items, and its order; 404 when either is unknown. */
export async function loadReturn(ctx: ToolContext, returnId: string): Promise<{ ret: ReturnWithItems; order: OrderWithItems }> {
  const ret = await ctx.db.returnRequest.findUnique({ where: { id: returnId }, include: withItems });
  if (!ret) throw new NotFound(`No return with id "${returnId}".`);
  return { ret, order: await loadOrderForReturn(ctx, ret.orderId, { lock: false }) };
}

/** Locks the return's order (see loadOrderForReturn), then reads the return as it is now that no one else can change it. */
export async function lockReturn(ctx: ToolContext, returnId: string): Promise<{ ret: ReturnWithItems; order: OrderWithItems }> {
  const found = await ctx.db.returnRequest.findUnique({ where: { id: returnId }, select: { orderId: true } });
  if (!found) throw new NotFound(`No return with id "${returnId}".`);
  const order = await loadOrderForReturn(ctx, found.orderId, { lock: true });
  const ret = await ctx.db.returnRequest.findUniqueOrThrow({ where: { id: returnId }, include: withItems });
  return { ret, order };
}

export function assertMove(ret: ReturnWithItems, to: ReturnStatus, action: string): void {
  if (!MOVES[ret.status as ReturnStatus]?.includes(to)) {
    throw new Refused("illegal_transition", `Cannot ${action} return ${ret.id}: it is "${ret.status}".`);
  }
}

/** When the order was delivered (its first move to delivered, or to completed when that was skipped); null before. */
async function deliveredAt(db: Db, orderId: string): Promise<Date | null> {
  const change = await db.orderStatusChange.findFirst({ where: { orderId, toStatus: { in: ["delivered", "completed"] } }, orderBy: { createdAt: "asc" } });
  return change?.createdAt ?? null;
}

/**
 * Refuses a return the order or the law does not allow now: before shipping (422 not_shipped: cancel instead), on a
 * cancelled, refunded or disputed order (422 order_closed), and after the window from delivery (422
 * return_window_closed). A shipped order not yet delivered may be returned: its window has not started.
 */
export async function assertReturnable(ctx: ToolContext, order: OrderWithItems, kind: ReturnKind): Promise<void> {
  const shipped = SHIPPED.has(order.status) ||
    (order.status === "partial_refund" && (await ctx.db.orderStatusChange.count({ where: { orderId: order.id, toStatus: { in: [...SHIPPED] } } })) > 0);
  // Before shipping the shopper cancels instead (orders.cancel).
  if (!shipped && (UNSHIPPED.has(order.status) || order.status === "partial_refund")) {
    throw new Refused("not_shipped", `Order ${order.id} has not shipped ("${order.status}"): cancel it with orders.cancel instead of returning it.`);
  }
  if (!shipped) throw new Refused("order_closed", `Order ${order.id} is "${order.status}": it takes no returns.`);
  const delivered = await deliveredAt(ctx.db, order.id);
  if (!delivered) return;
  const days = await getReturnDays(ctx.db);
  const deadline = kind === "withdrawal" ? withdrawalDeadline(delivered, days) : complaintDeadline(delivered);
  if (ctx.now() > deadline) {
    const period = kind === "withdrawal" ? (days > 14 ? `the shop's ${days}-day return period` : "the 14-day right of withdrawal") : `the ${COMPLAINT_MONTHS}-month complaint period`;
    throw new Refused("return_window_closed", `Order ${order.id} was delivered ${delivered.toISOString()}; ${period} ended ${deadline.toISOString()}.`);
  }
}

/** Units of each order line that returns already hold (all but rejected ones), by order item id. */
export async function heldUnits(db: Db, orderId: string, statuses: ReturnStatus[] = HOLDING, where: { kind?: ReturnKind; exchange?: boolean } = {}): Promise<Map<string, number>> {
  const items = await db.returnItem.findMany({
    where: {
      request: {
        orderId,
        status: { in: statuses },
        ...(where.kind && { kind: where.kind }),
        ...(where.exchange !== undefined && { exchangeVariantId: where.exchange ? { not: null } : null }),
      },
    },
    select: { orderItemId: true, quantity: true },
  });
  const held = new Map<string, number>();
  for (const item of items) held.set(item.orderItemId, (held.get(item.orderItemId) ?? 0) + item.quantity);
  return held;
}

/** Puts the return's units back: variant lines into the variant's stock, other lines into the product's. */
export async function restockReturn(ctx: ToolContext, ret: ReturnWithItems): Promise<void> {
  const now = ctx.now();
  for (const { orderItem, quantity } of ret.items) {
    const units = BigInt(quantity);
    if (orderItem.variantId) {
      await ctx.db.productVariant.updateMany({ where: { id: orderItem.variantId }, data: { stock: { increment: units }, updatedAt: now } });
    } else {
      await ctx.db.product.updateMany({ where: { id: orderItem.productId }, data: { stock: { increment: units }, updatedAt: now } });
    }
  }
  await ctx.collaborators.catalog.changed(ctx, { stock: [...new Set(ret.items.map((item) => item.orderItem.productId))] });
}

/**
 * What the return's units were paid, net of their share of the order's discount. Worked out as the net of all units
 * back so far including these, less the net of those before, so that all of an order's units together come to exactly
 * its subtotal less its discount, whatever the rounding.
 */
export async function netPaidFor(ctx: ToolContext, order: OrderWithItems, ret: Pick<ReturnUnits, "items">): Promise<bigint> {
  const before = await heldUnits(ctx.db, order.id, SETTLED);
  const after = new Map(before);
  for (const item of ret.items) after.set(item.orderItemId, (after.get(item.orderItemId) ?? 0) + item.quantity);
  return netOf(order, after) - netOf(order, before);
}

function netOf(order: OrderWithItems, units: Map<string, number>): bigint {
  const gross = order.items.reduce((sum, item) => sum + item.unitPriceDkk * BigInt(units.get(item.id) ?? 0), 0n);
  if (order.subtotalDkk <= 0n || order.discountDkk <= 0n) return gross;
  return gross - (order.discountDkk * gross) / order.subtotalDkk;
}

/**
 * Whether receiving `ret` completes the withdrawal of the whole order: every unit back under withdrawal, none kept as
 * an exchange. Its refund then includes the original standard shipping (forbrugeraftaleloven § 20).
 */
export async function completesWithdrawal(ctx: ToolContext, order: OrderWithItems, ret: ReturnWithItems): Promise<boolean> {
  if (ret.kind !== "withdrawal" || ret.exchangeVariantId) return false;
  const back = await heldUnits(ctx.db, order.id, SETTLED, { kind: "withdrawal", exchange: false });
  for (const item of ret.items) back.set(item.orderItemId, (back.get(item.orderItemId) ?? 0) + item.quantity);
  return order.items.every((item) => (back.get(item.id) ?? 0) >= item.quantity);
}
