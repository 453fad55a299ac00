// orders.change_items: lower, raise, remove or swap an unshipped order's lines; stock, totals and money follow at once.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { formatMoney } from "../../core/format.ts";
import type { Order } from "../../generated/prisma/client.ts";
import { collectWith } from "../money/collect.ts";
import { settle } from "../money/item-edits.ts";
import { balanceOf } from "../money/ledger.ts";
import { destinationOf, refundAccount, refundTo } from "../money/refunds.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { repriced } from "./edit-pricing.ts";
import { changed, editedLines, moveStock, unitOf, writeLines, type EditedLine } from "./edits.ts";
import type { ItemChange } from "./events.ts";
import { sendOrderChanged } from "./emails.ts";
import { itemOrder, orderId, type OrderWithItems } from "./schemas.ts";
import { assertUnshipped, changeStatus, lockOrder, orderRow } from "./order-writes.ts";
import { PAID, UNPAID } from "./transitions.ts";

/** Paid: money came in (a paid order that went to review keeps its paidAt; before shipping PAID is paid or processing). */
const isPaid = (order: Order) => order.paidAt !== null || PAID.has(order.status);

const change = z
  .strictObject({
    orderItemId: z.string().min(1).max(200).describe("orders.get items[].id."),
    quantity: z.number().int().min(0).max(100).optional().describe("New quantity; 0 removes the line."),
    variantSku: z.string().min(1).max(100).optional().describe("Swap to this one (orders.item_options)."),
  })
  .refine((line) => line.quantity !== undefined || line.variantSku !== undefined, "Give quantity or variantSku");

export default defineTool({
  name: "orders.change_items",
  description:
    "Change an unshipped order's lines (quantity, 0 removes; or variant) at catalogue price. A paid order is refunded " +
    "the difference, an unpaid one gets a new payment link. Returns its lines and money.",
  errors: [
    { status: 422, code: "already_shipped" },
    { status: 422, code: "invalid_variant" },
    { status: 422, code: "out_of_stock" },
    { status: 422, code: "last_line", when: "no line would remain" },
    { status: 422, code: "payment_required", when: "a paid total would rise without collectWith" },
    { status: 422, code: "payment_in_progress" },
    { status: 422, code: "refund_failed" },
    { status: 422, code: "insufficient_balance", when: "the gift card cannot cover the rise" },
    { status: 422, code: "card_not_reusable" },
    { status: 422, code: "payment_declined" },
    { status: 422, code: "giftcard_expired", when: "refundTo names an expired card" },
    { status: 404, when: "unknown order, line or refundTo card" },
  ],
  input: z.strictObject({
    orderId,
    items: z
      .array(change)
      .min(1)
      .max(50)
      .refine((lines) => new Set(lines.map((line) => line.orderItemId)).size === lines.length, "One change per line")
      .describe("Changes, one per line."),
    refundTo,
    refundAccount,
    collectWith: collectWith.optional(),
  }),
  output: z.strictObject({
    id: z.string(),
    status: z.string(),
    lines: z.array(z.strictObject({ orderItemId: z.string(), productName: z.string(), variantSku: z.string().nullable(), quantity: z.number().int().min(1), unitPriceDkk: oere("Unit price") })),
    subtotalDkk: oere("Sum of the lines"),
    discountDkk: oere("Discount"),
    shippingDkk: oere("Shipping"),
    totalDkk: oere("Total incl. VAT"),
    vatOere: oere("VAT included").nullable(),
    returnedDkk: oere("Given back by this change"),
    outstandingDkk: oere("Still to pay"),
    paymentUrl: z.string().nullable().describe("Link to pay what is outstanding, else null."),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  shopper: { order: (input) => input.orderId },
  sensitive: ["giftCardCode"],
  annotations: DESTRUCTIVE,
  examples: [
    { orderId: "demo-order-16", items: [{ orderItemId: "demo-order-16-line-3", variantSku: "gucci-cat-eye-coast-57-m" }] },
    { orderId: "demo-order-18", items: [{ orderItemId: "demo-order-18-line-1", quantity: 2 }] },
  ],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    assertUnshipped(order, "its items");
    const lines = await editedLines(ctx.db, order, input.items);
    if (lines.every((line) => line.quantity === 0)) {
      throw new Refused("last_line", `Removing every line would leave order ${order.id} empty; cancel it with orders.cancel instead.`);
    }
    const { paidDkk, returnedDkk } = await balanceOf(ctx.db, order.id);
    if (!lines.some(changed)) {
      ctx.unchanged();
      return view(order, paidDkk - returnedDkk, 0n, null);
    }
    const totals = await repriced(ctx.db, order, lines);
    const paid = isPaid(order);
    if (paid && totals.totalDkk > order.totalDkk && !input.collectWith) {
      throw new Refused("payment_required", `The change raises paid order ${order.id}'s total from ${formatMoney(order.totalDkk, order.currency)} to ${formatMoney(totals.totalDkk, order.currency)}; name how the difference is collected (collectWith), or cancel it (orders.cancel) and place a new order.`);
    }
    if (paid && order.outstandingDkk > order.totalDkk - order.refundedDkk - (paidDkk - returnedDkk)) {
      throw new Refused("payment_in_progress", `Order ${order.id} waits for the payment of its new payment method (orders.change_payment); change its items once that has been paid.`);
    }
    const productIds = await moveStock(ctx, lines);
    await writeLines(ctx.db, lines);
    const after = await ctx.db.order.update({ where: { id: order.id }, data: totals, include: { items: { orderBy: itemOrder } } });
    await ctx.audit({ subjectType: "order", subjectId: order.id, before: { ...orderRow(order), items: order.items }, after });
    const destination = await destinationOf(ctx, input.refundTo);
    const edit = { before: order, after, heldDkk: paidDkk - returnedDkk, paid, awaitingPayment: UNPAID.has(order.status), destination, account: input.refundAccount ?? null, collectWith: input.collectWith ?? null };
    const settled = await settle(ctx, edit);
    const now = settled.covered ? { ...(await changeStatus(ctx, after, { to: "paid", reason: "Covered by earlier payments after an item change" })), items: after.items } : after;
    await ctx.collaborators.catalog.changed(ctx, { stock: productIds });
    await ctx.collaborators.orderEvents.announce(ctx, { type: "items_changed", orderId: order.id, order: now, lines: now.items, changes: lines.filter(changed).map(itemChange), previousTotalDkk: order.totalDkk });
    const result = view(now, settled.heldDkk, settled.returnedDkk, settled.paymentUrl);
    const note = { returnedDkk: settled.returnedDkk, refundParts: settled.parts, outstandingDkk: BigInt(result.outstandingDkk), paymentUrl: settled.paymentUrl };
    ctx.afterCommit(() => sendOrderChanged(ctx.collaborators.db, ctx.collaborators.mailer, order.id, note, ctx.now()));
    return result;
  },
});

/** What an edited line changed, as the order-event hub tells it. */
function itemChange(line: EditedLine): ItemChange {
  const { item } = line;
  return {
    orderItemId: item.id,
    productName: item.productName,
    fromSku: item.variantSku,
    toSku: line.swap?.sku ?? item.variantSku,
    fromQuantity: item.quantity,
    toQuantity: line.quantity,
    unitPriceDkk: unitOf(line),
  };
}

/** The order's lines and money; outstanding is the total less what was refunded of it and what the shop holds. */
function view(order: OrderWithItems, held: bigint, returned: bigint, paymentUrl: string | null) {
  const outstanding = order.totalDkk - order.refundedDkk - held;
  return {
    id: order.id,
    status: order.status,
    lines: order.items.map((item) => ({ orderItemId: item.id, productName: item.productName, variantSku: item.variantSku, quantity: item.quantity, unitPriceDkk: Number(item.unitPriceDkk) })),
    subtotalDkk: Number(order.subtotalDkk),
    discountDkk: Number(order.discountDkk),
    shippingDkk: Number(order.shippingDkk),
    totalDkk: Number(order.totalDkk),
    vatOere: order.vatOere === null ? null : Number(order.vatOere),
    returnedDkk: Number(returned),
    outstandingDkk: Number(outstanding > 0n ? outstanding : 0n),
    paymentUrl,
  };
}
