// checkout.complete: turn a ready checkout session into an order (stock reserved as orders do), pay it, and link the two.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { channelOf, placeOrder } from "../orders/place.ts";
import { changeStatus, lockOrder } from "../orders/order-writes.ts";
import { AgentCheckoutOff, getCommerce } from "../settings/commerce.ts";
import { getSection } from "../settings/settings-document.ts";
import { getFreeShippingFrom } from "../settings/sale-terms.ts";
import { pickupDelivery } from "./pickup.ts";
import { defineTool, WRITE } from "../tool.ts";
import { chargeStripe, decidePayment, type StripeCharged } from "./payment.ts";
import { sessionColumns } from "./placed-from.ts";
import { checkoutId, paymentInput, sessionView } from "./schemas.ts";
import { assertModifiable, columns, loadSession, priceSession, stateOf } from "./sessions.ts";

/**
 * What the session keeps of the instrument: never the card number, only the digits and brand an instrument shows (for
 * a Stripe charge, those of the PaymentMethod Stripe charged).
 */
function paidWith(payment: z.infer<typeof paymentInput>, charged: StripeCharged | null) {
  const brand = charged ? charged.brand : payment.brand;
  const lastDigits = charged ? charged.lastDigits : (payment.lastDigits ?? payment.cardNumber?.slice(-4));
  return {
    handlerId: payment.handlerId,
    instrumentType: payment.instrumentType ?? charged?.method ?? null,
    ...(brand ? { brand } : {}),
    ...(lastDigits ? { lastDigits } : {}),
  };
}

/** Terms a caller agreed to (a protocol door's payment mandate): completing refuses a session that no longer has them. */
const expectedTerms = z.strictObject({
  total: z.number().int().describe("Total, minor units."),
  lines: z
    .array(z.strictObject({ itemId: z.string().min(1).max(100).describe("Item id."), quantity: z.number().int().min(1).describe("Quantity."), unitPrice: z.number().int().describe("Minor units.") }))
    .max(100)
    .describe("Lines, in order."),
});

type Line = { itemId: string; quantity: number; unitPrice: number };
const termsKey = (total: number | undefined, lines: readonly Line[]) => JSON.stringify([total, lines.map((line) => [line.itemId, line.quantity, line.unitPrice])]);

function hasTerms(view: { lines: Line[]; totals: Array<{ type: string; amount: number }> }, terms: z.infer<typeof expectedTerms>): boolean {
  return termsKey(view.totals.find((entry) => entry.type === "total")?.amount, view.lines) === termsKey(terms.total, terms.lines);
}

export default defineTool({
  name: "checkout.complete",
  description:
    "Place the order of a ready_for_complete session, paying with one of its handlers; a refusal orders nothing. " +
    "Returns the session with orderId.",
  errors: [
    { status: 403, code: "agent_checkout_off", when: "the shop sells to no AI agents now" },
    { status: 422, code: "checkout_not_ready" },
    { status: 422, code: "checkout_not_modifiable" },
    { status: 422, code: "insufficient_stock" },
    { status: 422, code: "payment_handler_unknown" },
    { status: 422, code: "payment_declined" },
    { status: 422, code: "payment_refused" },
    { status: 422, code: "checkout_changed", when: "the session no longer has the expected terms" },
  ],
  input: z.strictObject({
    id: checkoutId,
    payment: paymentInput.describe("How the buyer pays."),
    expect: expectedTerms.optional().describe("Refuse unless the session, priced now, has these terms."),
  }),
  output: sessionView,
  scope: "checkout:agent",
  anonymous: true,
  audited: true,
  sensitive: ["token", "cardNumber"],
  annotations: WRITE,
  examples: [{ id: "chk_00000000000000000000000000000000", payment: { handlerId: "payment_link" } }],
  async handler({ id, payment, expect }, ctx) {
    if ((await getCommerce(ctx.db)).agentAccess === "off") throw new AgentCheckoutOff();
    const row = await loadSession(ctx, id, true);
    assertModifiable(ctx, row);
    const state = stateOf(row);
    const ready = await priceSession(ctx, state);
    if (ready.status !== "ready_for_complete") {
      const missing = ready.messages.filter((message) => message.type === "error").map((message) => `${message.path}: ${message.content}`);
      const soldOut = ready.messages.some((message) => message.code === "out_of_stock");
      throw new Refused(soldOut ? "insufficient_stock" : "checkout_not_ready", `Checkout session ${id} is ${ready.status}: ${missing.join(" ")}`);
    }
    if (expect && !hasTerms(ready, expect)) throw new Refused("checkout_changed", `Checkout session ${id} no longer has the terms that were agreed (lines, prices, total).`);
    const decision = decidePayment(ctx, payment.handlerId, payment.token, payment.cardNumber);
    const buyer = state.buyer ?? {};
    const buyerName = [buyer.firstName, buyer.lastName].filter(Boolean).join(" ");
    const option = ready.fulfillment.options.find((candidate) => candidate.id === ready.fulfillment.selectedOptionId);
    // A pickup option: the order records the method and parcel shop as the storefront's do; without an address of the
    // buyer's own, the parcel shop's is the shipping address (where the carrier takes it).
    const delivery = state.fulfillment.pickup
      ? pickupDelivery(await getSection(ctx.db, "shipping"), ready.fulfillment.selectedOptionId, state.fulfillment.pickupPointId, await getFreeShippingFrom(ctx.db))
      : null;
    const point = delivery?.pickupPoint;
    const destination = state.fulfillment.destination ?? { country: "DK", street: point?.address, postalCode: point?.zip, city: point?.city, name: undefined, extended: undefined, region: undefined };
    const street = destination.street ?? "";
    const { order } = await placeOrder(ctx, {
      lines: state.lines,
      discountCode: state.discountCodes,
      dropInvalidDiscount: true,
      // A shop that completes on a country alone (commerce.checkoutNeeds) may have no e-mail: the order has no customer then.
      email: buyer.email ?? "",
      phone: buyer.phone ?? null,
      shippingDkk: option?.amount,
      ...(delivery ? { delivery } : {}),
      shipping: {
        name: destination.name ?? (buyerName || buyer.email || ""),
        address: destination.extended ? `${street}, ${destination.extended}` : street,
        zip: destination.postalCode ?? "",
        city: destination.city ?? "",
        country: destination.country,
        region: destination.region ?? null,
      },
      billing: null,
      channel: state.protocol === "shop" ? channelOf(ctx.door) : state.protocol,
      aiAgentSource: state.agentName ?? (state.protocol === "shop" ? null : `${state.protocol}-agent`),
      sessionId: ctx.caller.session?.persistent ? ctx.caller.session.id : null,
      ...sessionColumns({ id, protocol: state.protocol }),
    });
    let charged: StripeCharged | null = null;
    if (decision === "charge") {
      // The order exists (stock taken) but is not committed: a decline rolls both back.
      charged = await chargeStripe(ctx, { token: payment.token!, amount: Number(order.totalDkk), currency: state.currency, orderId: order.id, checkoutId: id });
      await changeStatus(ctx, await lockOrder(ctx.db, order.id), {
        to: "paid",
        reason: `${payment.handlerId} ${charged.intentId} ${id}`,
        // The PaymentIntent is the ledger entry's reference and what a refund goes back through.
        data: { paymentMethod: charged.method ?? payment.instrumentType ?? "card", paymentProviderPaymentIntentId: charged.intentId },
      });
    }
    if (decision === "paid") {
      await changeStatus(ctx, await lockOrder(ctx.db, order.id), { to: "paid", reason: `${payment.handlerId} ${id}`, data: { paymentMethod: payment.instrumentType ?? "card" } });
    }
    const now = ctx.now();
    // The policies the buyer bought under, kept on the order: later changes of the shop's terms do not rewrite them.
    const policies = await getSection(ctx.db, "policies");
    await ctx.db.order.update({ where: { id: order.id }, data: { policySnapshot: { ...policies, capturedAt: now.toISOString() } } });
    const done = { ...state, status: "completed" as const, orderId: order.id, payment: paidWith(payment, charged), updatedAt: now };
    // The view the order was placed from: re-pricing now would miss a code this order just used up.
    const view = { ...ready, status: done.status, orderId: order.id, messages: [], payment: { ...ready.payment, selected: done.payment }, updatedAt: now.toISOString() };
    await ctx.db.checkoutSession.update({ where: { id }, data: { ...columns(done, view), orderId: order.id, completedAt: now, updatedAt: now } });
    await ctx.collaborators.orderEvents.announce(ctx, { type: "checkout_completed", orderId: order.id, checkoutId: id });
    await ctx.audit({ subjectType: "checkout_session", subjectId: id, before: row.view, after: view });
    return view;
  },
});
