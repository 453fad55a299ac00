// GET /admin/orders/<id>: one order to work on: lines (editable until it ships), totals, addresses, payment, the legal
// next statuses as buttons, tracking, refund, cancel, notes, resend confirmation and the timeline.
import { NotFound } from "../../../core/errors.ts";
import addNote from "../../../tools/orders/add_note.ts";
import checkoutAgreement, { type Agreement } from "../../../tools/checkout/agreement.ts";
import cancelOrder from "../../../tools/orders/cancel.ts";
import ordersGet from "../../../tools/orders/get.ts";
import ordersGetPayment from "../../../tools/orders/get_payment.ts";
import ordersGetDelivery from "../../../tools/orders/get_delivery.ts";
import ordersGetNumber from "../../../tools/orders/get_number.ts";
import getTimeline from "../../../tools/orders/get_timeline.ts";
import itemOptions from "../../../tools/orders/item_options.ts";
import ordersDeliveryOptions from "../../../tools/orders/delivery_options.ts";
import { orderRef } from "../../../tools/shared/order-numbers.ts";
import refundOrder from "../../../tools/orders/refund.ts";
import resendConfirmation from "../../../tools/orders/resend_confirmation.ts";
import recordPayment from "../../../tools/orders/record_payment.ts";
import setTracking from "../../../tools/orders/set_tracking.ts";
import updateStatus from "../../../tools/orders/update_status.ts";
import listReturns from "../../../tools/returns/list.ts";
import { isOrderStatus, nextActions, ORDER_TRANSITIONS } from "../../../tools/orders/transitions.ts";
import { breadcrumbs, field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { View } from "../../page.ts";
import { actionButton, checkbox, facts, formOpen, money, ORDER_STATUS_LABELS, pageHead, refundFields, statusTag, submit, table, textarea, unit } from "../components.ts";
import { toLocalDateTime, when } from "../forms.ts";
import type { AdminRequest } from "../site.ts";
import { timelineList } from "../timeline.ts";
import { deliveryEditor, itemsEditor } from "./order-items.ts";
import { returnRows, RETURN_STATUS_TEXT, type Return } from "./returns.ts";

export const ORDER_ID = /^[\w-]{1,200}$/;

/** Statuses with their own form (refund needs an amount, cancel a reason) are not plain buttons. */
const OWN_FORM = new Set(["refunded", "partial_refund", "cancelled"]);

function nextStatuses(web: AdminRequest, id: string, status: string): Html {
  const next = isOrderStatus(status) ? ORDER_TRANSITIONS[status].filter((to) => !OWN_FORM.has(to)) : [];
  if (!next.length) return html`<p class="hint">Ingen statusskift mulige herfra.</p>`;
  return html`<div class="button-row">${next.map((to) =>
    actionButton(web, updateStatus, { action: `/admin/orders/${id}/status`, label: `→ ${ORDER_STATUS_LABELS[to] ?? to}`, fields: { status: to }, look: to === "processing" || to === "shipped" || to === "paid" ? "primary" : "secondary" }),
  )}</div>`;
}

function address(lines: Array<string | null>): Html {
  return html`${lines.filter(Boolean).map((line, index) => html`${index ? html`<br>` : ""}${line}`)}`;
}

/** The order's returns, with their status and refund deadline; nothing for staff who may not read returns. */
function returnsSection(returns: Return[] | null): Html {
  if (!returns?.length) return html``;
  const rows = returnRows(returns).map(([reference, , kind, items, , due], index) => {
    const ret = returns[index]!;
    return [reference, ret.status === "approved" ? html`${RETURN_STATUS_TEXT[ret.status]}<br><span class="hint">senest</span> ${due}` : RETURN_STATUS_TEXT[ret.status], kind, items];
  });
  return html`<section class="card" id="returns"><h2>Returneringer</h2>
${table("Ordrens returneringer", ["Retur", "Status", "Type", "Varer"], rows)}
</section>`;
}

/** Consent per purpose in Danish: granted or not, who said so, and each segment beneath it. */
function consentList(consent: NonNullable<Agreement["consent"]>): Html {
  const said = (granted: boolean, source: string) => `${granted ? "Ja" : "Nej"} (${source === "business" ? "butikkens standard" : "købers valg"})`;
  return html`<ul>${Object.entries(consent).map(
    ([purpose, entry]) =>
      html`<li><code>${purpose}</code>: ${said(entry.granted, entry.source)}${entry.segments ? html`<ul>${Object.entries(entry.segments).map(([name, part]) => html`<li><code>${name}</code>: ${said(part.granted, part.source)}</li>`)}</ul>` : ""}</li>`,
  )}</ul>`;
}

/** What the buyer of an agent's checkout agreed to: consent as given and the policy texts the order was placed under. */
function agreementSection(agreed: Agreement | null): Html {
  if (!agreed || (!agreed.consent && !agreed.policies)) return html``;
  const text = (value: string) => html`<details><summary>Vis tekst</summary><p class="pre-wrap">${value}</p></details>`;
  return html`<section class="card" id="agreement"><h2>Samtykke og betingelser</h2>
${facts([
  ["Samtykke", agreed.consent ? consentList(agreed.consent) : "Ikke oplyst"],
  ["Betingelser fra", agreed.policies ? when(agreed.policies.capturedAt) : null],
  ["Returret", agreed.policies ? text(agreed.policies.returns) : null],
  ["Privatliv", agreed.policies ? text(agreed.policies.privacy) : null],
  ["Handelsbetingelser", agreed.policies ? text(agreed.policies.terms) : null],
])}
</section>`;
}

/** How the order is (to be) paid, in Danish: a bank-transfer order marked paid by staff has no method recorded. */
const METHOD_TEXT: Record<string, string> = { card: "Kort", mobilepay: "MobilePay", bank_transfer: "Bankoverførsel", gift_card: "Gavekort", manual: "Manuel betaling" };

function paymentMethodText(method: string | null, provider: "manual" | "stripe", paid: boolean): string {
  if (method) return METHOD_TEXT[method] ?? method;
  if (provider === "manual") return paid ? "Bankoverførsel" : "Bankoverførsel (afventer betaling)";
  return paid ? "Kort (Stripe)" : "Kort (Stripe, afventer betaling)";
}

export async function orderPage(web: AdminRequest, id: string): Promise<View> {
  if (!ORDER_ID.test(id)) throw new NotFound(`No order "${id}".`);
  const [order, { number }, timeline, returns, { delivery, shippingCountry, shippingRegion }, payment] = await Promise.all([
    web.call(ordersGet, { orderId: id }),
    web.call(ordersGetNumber, { orderId: id }),
    web.call(getTimeline, { orderId: id, limit: 100 }),
    web.may(listReturns) ? web.call(listReturns, { orderId: id, limit: 100 }) : null,
    web.call(ordersGetDelivery, { orderId: id }),
    web.call(ordersGetPayment, { orderId: id }),
  ]);
  const agreed = web.may(checkoutAgreement) ? await web.call(checkoutAgreement, { orderId: id }) : null;
  const ref = orderRef(number);
  const currency = order.currency;
  const actions = nextActions(order.status);
  const [options, deliveries] = actions.has("change_items")
    ? await Promise.all([web.call(itemOptions, { orderId: order.id }), web.call(ordersDeliveryOptions, { orderId: order.id })])
    : [null, null];
  const base = `/admin/orders/${order.id}`;
  const canRefund = actions.has("refund");
  const canCancel = actions.has("cancel");
  const lines = order.items.map((item) => [
    html`${item.productName}${item.variantSku ? html`<br><span class="hint">${item.variantSku}</span>` : ""}`,
    item.quantity,
    money(item.unitPriceDkk, currency),
    money(item.unitPriceDkk * item.quantity, currency),
  ]);
  const history = await timelineList(web, timeline);
  return {
    title: `Ordre ${ref}`,
    main: html`${breadcrumbs([{ label: "Ordrer", href: "/admin/orders" }, { label: ref }])}
${pageHead(`Ordre ${ref}`, { lead: html`${statusTag(order.status)} · ${when(order.createdAt)} · ${order.channel}${order.isAiGenerated ? html` · <span class="tag tag-info">AI: ${order.aiAgentSource ?? "agent"}</span>` : ""}` })}
<section class="card" aria-labelledby="next-status"><h2 id="next-status">Næste skridt</h2>${nextStatuses(web, order.id, order.status)}</section>
<div class="split">
<div>
<section class="card"><h2>Varer</h2>
${table("Ordrelinjer", ["Vare", "Antal", "Stykpris", "I alt"], lines, [1, 2, 3])}
${facts([
  ["Subtotal", money(order.subtotalDkk, currency)],
  ["Rabat", order.discountDkk ? html`−${money(order.discountDkk, currency)}${order.discountCode ? html` <code>${order.discountCode}</code>` : ""}` : "—"],
  ["Fragt", money(order.shippingDkk, currency)],
  ["Total", html`<strong>${money(order.totalDkk, currency)}</strong>`],
  ...(order.vatOere === null ? [] : [["Heraf moms", money(order.vatOere, currency)] as [string, string]]),
])}
</section>
${options ? itemsEditor(web, order.id, options, order.paidAt !== null, currency) : ""}
${deliveries ? deliveryEditor(web, order.id, deliveries, delivery, order.paidAt !== null, currency) : ""}
<section class="card" id="shipping"><h2>Forsendelse</h2>
${formOpen(web, `${base}/tracking`)}
<div class="form-pair">
${input({ name: "carrier", label: "Fragtfirma", value: order.carrier ?? "", placeholder: "PostNord, GLS, DAO …", maxlength: 100 })}
${input({ name: "trackingNumber", label: "Trackingnummer", value: order.trackingNumber ?? "", maxlength: 100 })}
</div>
${input({ name: "trackingUrl", label: "Tracking-link", type: "url", value: order.trackingUrl ?? "", placeholder: "https://…" })}
<div class="form-pair">
${input({ name: "estDeliveryFrom", label: "Forventet levering fra", type: "datetime-local", value: toLocalDateTime(order.estDeliveryFrom) })}
${input({ name: "estDeliveryTo", label: "til", type: "datetime-local", value: toLocalDateTime(order.estDeliveryTo) })}
</div>
${isOrderStatus(order.status) && ORDER_TRANSITIONS[order.status].includes("shipped") ? checkbox({ name: "markShipped", label: "Markér ordren som afsendt", checked: true }) : ""}
${submit(web, setTracking, "Gem forsendelse")}
</form>
</section>
${returnsSection(returns)}
${canRefund ? html`<section class="card"><h2>Refundér</h2>
${formOpen(web, `${base}/refund`, html` data-confirm="Refundér beløbet til kunden?"`)}
<div class="form-pair">
${input({ name: "amount", label: `Beløb i ${unit(currency)}`, inputmode: "decimal", hint: "Tom for hele det resterende beløb." })}
${input({ name: "reason", label: "Årsag", maxlength: 500 })}
</div>
${submit(web, refundOrder, "Refundér")}
</form></section>` : ""}
${canCancel ? html`<section class="card"><h2>Annullér</h2>
${formOpen(web, `${base}/cancel`, html` data-confirm="Annullér ordren og læg varerne tilbage på lager?"`)}
${input({ name: "reason", label: "Årsag", required: true, maxlength: 500 })}
${refundFields()}
${input({ name: "refundAccount", label: "Reg.nr. og kontonr.", maxlength: 100, hint: "Kun ved bankoverførsel, hvis kunden har oplyst dem." })}
${submit(web, cancelOrder, "Annullér ordren", "secondary")}
</form></section>` : ""}
</div>
<div>
<section class="card"><h2>Kunde</h2>
${facts([
  ["E-mail", html`<a href="mailto:${order.email}">${order.email}</a>`],
  ["Telefon", order.phoneNumber],
  ["Fragt", delivery ? html`${delivery.name} (${delivery.carrier})${delivery.pickupPoint ? html`<br><strong>Pakkeshop:</strong> ${address([delivery.pickupPoint.name, delivery.pickupPoint.address, `${delivery.pickupPoint.zip} ${delivery.pickupPoint.city}`])}` : ""}` : "Ikke valgt (fast fragt)"],
  ["Levering", address([order.shippingName, order.shippingAddress, `${order.shippingZip} ${order.shippingCity}`, shippingRegion, shippingCountry === "DK" ? null : shippingCountry])],
  ["Faktura", order.billingAddress ? address([order.billingName, order.billingAddress, `${order.billingZip ?? ""} ${order.billingCity ?? ""}`, order.billingCountry]) : "Som levering"],
])}
</section>
<section class="card"><h2>Betaling</h2>
${facts([
  ["Metode", paymentMethodText(order.paymentMethod, payment.paymentProvider, payment.paid)],
  ["Betalt", when(order.paidAt)],
  ["Betalings-id", order.paymentProviderPaymentIntentId],
  ["Udestående", payment.paid && payment.outstandingDkk > 0 ? html`<strong class="outstanding">${money(payment.outstandingDkk, currency)}</strong> – ordren sendes først, når beløbet er betalt` : null],
  ["Refunderet", when(order.refundedAt)],
  ["Bekræftelse sendt", when(order.confirmationEmailSentAt)],
])}
${payment.paid && payment.outstandingDkk > 0 ? actionButton(web, recordPayment, { action: `${base}/record-payment`, label: "Registrér bankoverførsel af restbeløbet", small: true, confirm: "Er restbeløbet modtaget på shoppens konto?" }) : ""}
${actionButton(web, resendConfirmation, { action: `${base}/resend-confirmation`, label: "Send ordrebekræftelse igen", look: "secondary", small: true })}
</section>
${agreementSection(agreed)}
<section class="card"><h2>Noter og historik</h2>
${formOpen(web, `${base}/notes`)}
${textarea({ name: "body", label: "Ny intern note", rows: 2, required: true, maxlength: 2000, hint: "Kun synlig for medarbejdere." })}
${submit(web, addNote, "Tilføj note", "secondary")}
</form>
${history}
</section>
</div>
</div>`,
  };
}
