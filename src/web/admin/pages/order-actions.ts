// The form posts of an order page: each calls one orders.* tool and goes back to the order with what happened.
import { NotFound, Refused, ToolError } from "../../../core/errors.ts";
import addNote from "../../../tools/orders/add_note.ts";
import cancelOrder from "../../../tools/orders/cancel.ts";
import changeItems from "../../../tools/orders/change_items.ts";
import changeDelivery from "../../../tools/orders/change_delivery.ts";
import refundOrder from "../../../tools/orders/refund.ts";
import resendConfirmation from "../../../tools/orders/resend_confirmation.ts";
import recordPayment from "../../../tools/orders/record_payment.ts";
import setTracking from "../../../tools/orders/set_tracking.ts";
import updateStatus from "../../../tools/orders/update_status.ts";
import { isOrderStatus } from "../../../tools/orders/transitions.ts";
import type { Outcome } from "../../page.ts";
import { money, ORDER_STATUS_LABELS } from "../components.ts";
import { integer, kroner, localDateTime, optional, refundDestination } from "../forms.ts";
import type { AdminRequest } from "../site.ts";
import { ORDER_ID } from "./order.ts";

type Action = (web: AdminRequest, orderId: string) => Promise<string>;

const ACTIONS: Record<string, Action> = {
  async status(web, orderId) {
    const status = web.field("status");
    if (!isOrderStatus(status)) throw new NotFound(`Unknown status "${status}".`);
    await web.call(updateStatus, { orderId, status });
    return `Ordren er nu ${ORDER_STATUS_LABELS[status]?.toLowerCase() ?? status}.`;
  },
  async tracking(web, orderId) {
    const result = await web.call(setTracking, {
      orderId,
      carrier: optional(web.field("carrier")),
      trackingNumber: optional(web.field("trackingNumber")),
      trackingUrl: optional(web.field("trackingUrl")),
      estDeliveryFrom: localDateTime(web.field("estDeliveryFrom"), "estDeliveryFrom"),
      estDeliveryTo: localDateTime(web.field("estDeliveryTo"), "estDeliveryTo"),
      markShipped: web.field("markShipped") === "on",
    });
    return result.status === "shipped" && web.field("markShipped") === "on" ? "Forsendelsen er gemt, og ordren er afsendt." : "Forsendelsen er gemt.";
  },
  async refund(web, orderId) {
    const result = await web.call(refundOrder, { orderId, amountDkk: kroner(web.field("amount"), "amount"), reason: optional(web.field("reason")) });
    return `Refunderet i alt ${money(result.refundedDkk, await web.currency())}; ${money(result.remainingDkk, await web.currency())} tilbage.`;
  },
  async cancel(web, orderId) {
    const refundTo = refundDestination(web.field("refundTo"), web.field("refundCard"));
    const account = optional(web.field("refundAccount"));
    await web.call(cancelOrder, { orderId, reason: web.field("reason").trim(), ...(refundTo ? { refundTo } : {}), ...(account ? { refundAccount: account } : {}) });
    return "Ordren er annulleret, og varerne er lagt tilbage på lager.";
  },
  async items(web, orderId) {
    const quantity = integer(web.field("quantity"), "quantity");
    const variantSku = optional(web.field("variantSku"));
    const how = web.field("collectWith");
    const collectWith = how === "payment_link" || how === "original_card" ? how : how === "gift_card" ? { giftCardCode: web.field("giftCardCode") } : undefined;
    const result = await web.call(changeItems, { orderId, items: [{ orderItemId: web.field("orderItemId"), ...(quantity === undefined ? {} : { quantity }), ...(variantSku ? { variantSku } : {}) }], ...(collectWith ? { collectWith } : {}) });
    // A Danish amount ends in "kr.", which also ends the sentence.
    const currency = await web.currency();
    const said = [`Ordren er ændret. Ny total: ${money(result.totalDkk, currency)}`];
    if (result.returnedDkk > 0) said.push(`Kunden får ${money(result.returnedDkk, currency)} tilbage.`);
    if (result.paymentUrl) said.push(`Kunden får et betalingslink på e-mail og skal betale ${money(result.outstandingDkk, currency)}`);
    return said.join(" ");
  },
  async delivery(web, orderId) {
    const [method = "", pickupPointId] = web.field("delivery").split("|");
    const result = await web.call(changeDelivery, { orderId, method, ...(pickupPointId ? { pickupPointId } : {}) }).catch((error: unknown) => {
      // The item editor can collect a rise (collectWith); a delivery change cannot, so say what to do instead.
      if (error instanceof ToolError && error.code === "payment_required") {
        throw new Refused("payment_required", "En betalt ordres fragt kan ikke stige her: vælg en leveringsmåde, der ikke koster mere.");
      }
      throw error;
    });
    const currency = await web.currency();
    const said = [`Leveringen er ændret til ${result.delivery?.name ?? method}${result.delivery?.pickupPoint ? ` (${result.delivery.pickupPoint.name})` : ""}. Total: ${money(result.totalDkk, currency)}`];
    if (result.returnedDkk > 0) said.push(`Kunden får ${money(result.returnedDkk, currency)} tilbage.`);
    if (result.paymentUrl) said.push(`Kunden får et betalingslink på e-mail og skal betale ${money(result.outstandingDkk, currency)}`);
    return said.join(" ");
  },
  async notes(web, orderId) {
    await web.call(addNote, { orderId, body: web.field("body").trim() });
    return "Noten er tilføjet.";
  },
  async "record-payment"(web, orderId) {
    const result = await web.call(recordPayment, { orderId });
    const currency = await web.currency();
    return `Bankoverførslen på ${money(result.paidDkk, currency)} er registreret.${result.returnedDkk > 0 ? ` Kunden får ${money(result.returnedDkk, currency)} tilbage af den tidligere betaling.` : ""}`;
  },
  async "resend-confirmation"(web, orderId) {
    const result = await web.call(resendConfirmation, { orderId });
    return result.sent ? `Ordrebekræftelsen er sendt til ${result.to}.` : `Ordrebekræftelsen kunne ikke sendes til ${result.to}.`;
  },
};

export async function orderAction(web: AdminRequest, orderId: string, name: string): Promise<Outcome> {
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action || !ORDER_ID.test(orderId)) throw new NotFound(`No order action ${name}.`);
  return web.act(`/admin/orders/${orderId}`, () => action(web, orderId));
}
