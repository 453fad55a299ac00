// orders.change_delivery: another delivery method or parcel shop for an unshipped order, or home delivery (and back) to
// the order's shipping address (orders.change_address changes that address).
// Shipping is priced as checkout prices the method for the order's goods (its own method keeps its price), and the
// money follows as with an item edit: an unpaid order's total follows (a new payment link), a paid order is refunded a
// cheaper method's difference, and a dearer one is refused (422 payment_required) as a paid order cannot collect more.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { formatMoney } from "../../core/format.ts";
import { Prisma, type Order } from "../../generated/prisma/client.ts";
import { chooseDelivery, deliveryOf, orderDelivery, type PickupPoint } from "../cart/delivery.ts";
import { settle } from "../money/item-edits.ts";
import { balanceOf } from "../money/ledger.ts";
import { refundAccount } from "../money/refunds.ts";
import { getFreeShippingFrom } from "../settings/sale-terms.ts";
import { oere } from "../shared/amounts.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { shippingFor } from "./delivery-change.ts";
import { sendOrderChanged } from "./emails.ts";
import { assertUnshipped, changeStatus, lockOrder, orderRow } from "./order-writes.ts";
import { MAX_AMOUNT, shippingSettings, vatOf } from "./pricing.ts";
import { itemOrder, orderId } from "./schemas.ts";
import { PAID, UNPAID } from "./transitions.ts";

const isPaid = (order: Order) => order.paidAt !== null || PAID.has(order.status);

/** How the shopper reads the order's delivery in the e-mail. */
function deliveryText(name: string, point: PickupPoint | null, order: Order): string {
  return point ? `${name}, hentes i ${point.name}, ${point.address}, ${point.zip} ${point.city}` : `${name} til ${order.shippingName}, ${order.shippingAddress}, ${order.shippingZip} ${order.shippingCity}`;
}

export default defineTool({
  name: "orders.change_delivery",
  description:
    "Move an unshipped order to another delivery method or parcel shop; money as orders.change_items.",
  errors: [
    { status: 422, code: "already_shipped" },
    { status: 422, code: "unknown_delivery_method" },
    { status: 422, code: "pickup_point_required" },
    { status: 422, code: "invalid_pickup_point" },
    { status: 422, code: "payment_required", when: "a paid total cannot rise" },
    { status: 422, code: "payment_in_progress" },
    { status: 422, code: "refund_failed" },
  ],
  input: z.strictObject({
    orderId,
    method: z.string().min(1).max(50).describe("Method id (cart.delivery_options)."),
    pickupPointId: z.string().min(1).max(50).optional().describe("Parcel shop id."),
    refundAccount,
  }),
  output: z.strictObject({
    id: z.string(),
    status: z.string(),
    delivery: orderDelivery,
    shippingName: z.string(),
    shippingAddress: z.string(),
    shippingZip: z.string(),
    shippingCity: z.string(),
    shippingDkk: oere("Shipping"),
    totalDkk: oere("Total incl. VAT"),
    returnedDkk: oere("Given back by this change"),
    outstandingDkk: oere("Still to pay"),
    paymentUrl: z.string().nullable().describe("Link to pay the new amount (unpaid orders), else null."),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  shopper: { order: (input) => input.orderId },
  annotations: UPDATE,
  examples: [{ orderId: "demo-order-16", method: "postnord-pakkeshop", pickupPointId: "pn-odense-rema" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    assertUnshipped(order, "its delivery");
    const [settings, own] = await Promise.all([shippingSettings(ctx.db), getFreeShippingFrom(ctx.db)]);
    const choice = chooseDelivery(settings, input.method, input.pickupPointId, own)!;
    const shipping = shippingFor(order, settings, own, choice.method);
    const total = order.subtotalDkk - order.discountDkk + shipping;
    if (total > MAX_AMOUNT) throw new Refused("amount_too_large", "The order total would exceed the largest amount the shop can handle.");
    const paid = isPaid(order);
    if (paid && total > order.totalDkk) {
      throw new Refused("payment_required", `${choice.method.name} raises paid order ${order.id}'s total from ${formatMoney(order.totalDkk, order.currency)} to ${formatMoney(total, order.currency)}; a paid order's total can only stay or go down. Pick a method that costs no more.`);
    }
    const { paidDkk, returnedDkk } = await balanceOf(ctx.db, order.id);
    const held = paidDkk - returnedDkk;
    const point = choice.pickupPoint;
    const before = deliveryOf(order);
    if (before && before.method === choice.method.id && (before.pickupPoint?.id ?? null) === (point?.id ?? null) && total === order.totalDkk) {
      ctx.unchanged();
      return view(order, held, 0n, null);
    }
    const after = await ctx.db.order.update({
      where: { id: order.id },
      data: {
        deliveryMethodId: choice.method.id,
        deliveryMethodName: choice.method.name,
        deliveryCarrier: choice.method.carrier,
        pickupPoint: point ? { ...point } : Prisma.DbNull,
        shippingDkk: shipping,
        totalDkk: total,
        vatOere: order.vatOere === null ? null : vatOf(total),
      },
      include: { items: { orderBy: itemOrder } },
    });
    await ctx.audit({ subjectType: "order", subjectId: order.id, before: orderRow(order), after: orderRow(after) });
    const edit = { before: order, after, heldDkk: held, paid, awaitingPayment: UNPAID.has(order.status), destination: { to: "original" as const }, account: input.refundAccount ?? null, collectWith: null };
    const settled = await settle(ctx, edit);
    const now = settled.covered ? { ...(await changeStatus(ctx, after, { to: "paid", reason: "Covered by earlier payments after a delivery change" })), items: after.items } : after;
    await ctx.collaborators.orderEvents.announce(ctx, { type: "items_changed", orderId: order.id, order: now, lines: now.items, changes: [], previousTotalDkk: order.totalDkk });
    const result = view(now, settled.heldDkk, settled.returnedDkk, settled.paymentUrl);
    const note = { returnedDkk: settled.returnedDkk, outstandingDkk: BigInt(result.outstandingDkk), paymentUrl: settled.paymentUrl, delivery: deliveryText(choice.method.name, point, now) };
    ctx.afterCommit(() => sendOrderChanged(ctx.collaborators.db, ctx.collaborators.mailer, order.id, note, ctx.now()));
    return result;
  },
});

function view(order: Order, held: bigint, returned: bigint, paymentUrl: string | null) {
  const outstanding = order.totalDkk - order.refundedDkk - held;
  return {
    id: order.id,
    status: order.status,
    delivery: deliveryOf(order),
    shippingName: order.shippingName,
    shippingAddress: order.shippingAddress,
    shippingZip: order.shippingZip,
    shippingCity: order.shippingCity,
    shippingDkk: Number(order.shippingDkk),
    totalDkk: Number(order.totalDkk),
    returnedDkk: Number(returned),
    outstandingDkk: Number(outstanding > 0n ? outstanding : 0n),
    paymentUrl,
  };
}
