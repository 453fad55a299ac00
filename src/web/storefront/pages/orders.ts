// GET /orders/<id>: status, tracking, lines, address and payments of one of the session's own orders (placed in this
// browser, or the signed-in customer's), named by its number, with what the shopper may still do with it. The tools
// enforce ownership: another order is 404 when signed in; a session without a customer is asked to sign in for it.
import { NotFound, ToolError } from "../../../core/errors.ts";
import userGetOrderStatus from "../../../tools/user/get_order_status.ts";
import ordersGet from "../../../tools/orders/get.ts";
import ordersGetByNumber from "../../../tools/orders/get_by_number.ts";
import ordersItemOptions from "../../../tools/orders/item_options.ts";
import ordersDeliveryOptions from "../../../tools/orders/delivery_options.ts";
import getSaleTerms from "../../../tools/settings/get_sale_terms.ts";
import returnsList from "../../../tools/returns/list.ts";
import ordersGetBalance from "../../../tools/orders/get_balance.ts";
import ordersPendingRefund from "../../../tools/orders/pending_refund.ts";
import ordersPayments from "../../../tools/orders/payments.ts";
import ordersGetOutstanding from "../../../tools/orders/get_outstanding.ts";
import { paymentToken } from "../../../tools/money/payments/provider.ts";
import { nextActions } from "../../../tools/orders/transitions.ts";
import { breadcrumbs, notice } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
import { orderRefs } from "../../order-numbers.ts";
import type { Outcome, View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { NOTICES, ORDER_STATUS } from "../texts.ts";
import { ledgerSection, orderActions, returnSection, type ActionState } from "./order-actions.ts";

const STEPS = ["pending_payment", "paid", "processing", "shipped", "delivered"] as const;
const STEP_LABELS = ["Bestilt", "Betalt", "Pakkes", "Afsendt", "Leveret"];
const REACHED: Record<string, number> = { pending_payment: 0, pending: 0, flagged_review: 1, paid: 1, processing: 2, shipped: 3, delivered: 4, completed: 4 };

const dateFormat = new Intl.DateTimeFormat("da-DK", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Copenhagen" });

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

function signInPrompt(title: string, next: string, status?: number): View {
  return {
    title,
    noindex: true,
    status,
    main: html`<div class="narrow"><h1>${title}</h1>
${notice("info", "Log ind med din e-mail for at se dine ordrer. Vi sender dig en engangskode.")}
<p><a class="button" href="/account?next=${encodeURIComponent(next)}">Log ind</a></p></div>`,
  };
}

export async function orderPage(web: StorefrontRequest, orderId: string, state: ActionState = {}, status?: number): Promise<View> {
  if (!/^[\w-]{1,100}$/.test(orderId)) throw new NotFound(`No order "${orderId}".`);
  const caller = await web.caller();
  if (!caller.session) return signInPrompt("Se din ordre", `/orders/${orderId}`);
  let tracking;
  try {
    tracking = await web.call(userGetOrderStatus, { orderId });
  } catch (error) {
    // Not an order of this session and no customer signed in: a refused form post keeps its 422.
    if (error instanceof ToolError && error.status === 422) return signInPrompt("Se din ordre", `/orders/${orderId}`, status);
    throw error;
  }
  const [order, ledger, balance, refs, returns, options, { returnDays }, { pendingDkk }, deliveryOptions] = await Promise.all([
    web.call(ordersGet, { orderId }),
    web.call(ordersPayments, { orderId }),
    web.call(ordersGetBalance, { orderId }),
    orderRefs(web, [orderId]),
    web.call(returnsList, { orderId }),
    web.call(ordersItemOptions, { orderId }),
    web.read(getSaleTerms, {}),
    web.call(ordersPendingRefund, { orderId }),
    nextActions(tracking.status).has("change_address") ? web.call(ordersDeliveryOptions, { orderId }) : Promise.resolve([]),
  ]);
  const rest = await web.call(ordersGetOutstanding, { orderId });
  const ref = refs.get(orderId) ?? orderId;
  const method = tracking.delivery;
  const delivery = tracking.estDeliveryFrom && tracking.estDeliveryTo ? `${formatDate(tracking.estDeliveryFrom)} – ${formatDate(tracking.estDeliveryTo)}` : null;
  const flash = NOTICES[web.query("notice")];
  return {
    title: `Ordre ${ref}`,
    noindex: true,
    status,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Mine ordrer", href: "/account" }, { label: `Ordre ${ref}` }])}
<div class="narrow">
<h1>Din ordre</h1>
${flash ? notice(flash.kind, flash.text) : ""}
<p class="order-number">Ordrenummer <strong class="order-ref">${ref}</strong></p>
<p>Status: <strong class="order-status">${statusLabel(tracking.status, pendingDkk)}</strong> · opdateret ${formatDate(tracking.updatedAt)}</p>
${progress(tracking.status, pendingDkk)}
${rest.paymentUrl ? html`<section class="card pay-rest" aria-labelledby="pay-rest-title"><h2 id="pay-rest-title">Betal resten</h2>
<p>Der mangler <strong>${formatMoney(rest.outstandingDkk, order.currency)}</strong> i betaling. Vi sender ordren, når beløbet er betalt.</p>
<p><a class="button button-accent" href="${rest.paymentUrl}" rel="noreferrer">Betal resten</a></p></section>` : ""}
${nextActions(tracking.status).has("pay") ? html`<p class="pay-now"><a class="button button-accent" href="/orders/${orderId}/pay?token=${paymentToken(web.deps.secret, orderId)}">Betal nu</a></p>` : ""}
${tracking.trackingNumber || tracking.carrier ? html`<section class="card tracking" aria-labelledby="tracking-title">
<h2 id="tracking-title">Forsendelse</h2>
<p>${tracking.carrier ?? "Fragtfirma"}${tracking.trackingNumber ? html` · sporingsnummer <strong>${tracking.trackingNumber}</strong>` : ""}</p>
${delivery ? html`<p>Forventet levering: ${delivery}</p>` : ""}
${tracking.trackingUrl && /^https?:\/\//.test(tracking.trackingUrl) ? html`<p><a class="button button-secondary" href="${tracking.trackingUrl}" rel="noopener noreferrer">Følg pakken</a></p>` : ""}
</section>` : ""}
<section aria-labelledby="lines-title"><h2 id="lines-title">Varer</h2>
<div class="table-wrap"><table class="order-lines"><thead><tr><th>Vare</th><th class="num">Antal</th><th class="num">Beløb</th></tr></thead>
<tbody>${order.items.map((item) => html`<tr><td>${item.productName}${item.variantSku ? html` <span class="hint">(${item.variantSku})</span>` : ""}</td><td class="num">${item.quantity}</td><td class="num">${formatMoney(item.unitPriceDkk * item.quantity, order.currency)}</td></tr>`)}</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Fragt</th><td class="num">${formatMoney(order.shippingDkk, order.currency)}</td></tr>
${order.discountDkk > 0 ? html`<tr><th scope="row" colspan="2">Rabat</th><td class="num">−${formatMoney(order.discountDkk, order.currency)}</td></tr>` : ""}
<tr class="total"><th scope="row" colspan="2">I alt</th><td class="num price">${formatMoney(order.totalDkk, order.currency)}</td></tr>
</tfoot></table></div></section>
<section class="card delivery-address" aria-labelledby="delivery-title"><h2 id="delivery-title">Leveres til</h2>
${method ? html`<p class="delivery-method">Levering: <strong>${method.name}</strong></p>` : ""}
${method?.pickupPoint ? html`<p class="pickup-point">Hentes i pakkeshop: ${method.pickupPoint.name}<br>${method.pickupPoint.address}<br>${method.pickupPoint.zip} ${method.pickupPoint.city}</p>
<p class="hint">Modtager: ${order.shippingName}</p>` : html`<p>${order.shippingName}<br>${order.shippingAddress}<br>${order.shippingZip} ${order.shippingCity}</p>`}
${order.billingName && order.billingAddress ? html`<p class="billing-address">Faktureres til: ${order.billingName}, ${order.billingAddress}, ${order.billingZip ?? ""} ${order.billingCity ?? ""}</p>` : ""}</section>
${ledgerSection(ledger, order.currency, pendingDkk)}
${orderActions(web, order, ledger, balance.netPaidDkk, state, { options: deliveryOptions, current: method }, options)}
${returnSection(web, order, returns, options, state, returnDays, pendingDkk)}
<p class="withdrawal-link"><a href="/fortryd?ordre=${orderId}">Fortryd købet her</a></p>
<p><a href="/account">← Alle dine ordrer</a></p>
</div>`,
  };
}

/** The order's status as the shopper reads it: a refund staff still have to transfer "refunderes", it is not refunded yet. */
export function statusLabel(status: string, pendingDkk: number): string {
  if (pendingDkk > 0 && status === "refunded") return "Refunderes";
  if (pendingDkk > 0 && status === "partial_refund") return "Delvist refunderes";
  return ORDER_STATUS[status] ?? status;
}

/** GET /orders/number/<n>: the session's own order by the number they know it by (404 for anyone else's when signed in). */
export async function orderByNumber(web: StorefrontRequest, number: string): Promise<Outcome> {
  if (!/^\d{1,10}$/.test(number) || Number(number) < 1 || Number(number) > 2_147_483_647) throw new NotFound(`No order #${number}.`);
  const caller = await web.caller();
  const prompt = signInPrompt("Se din ordre", `/orders/number/${number}`);
  if (!caller.session) return prompt;
  try {
    const order = await web.call(ordersGetByNumber, { number: Number(number) });
    return { redirect: `/orders/${order.id}` };
  } catch (error) {
    if (error instanceof ToolError && error.status === 422) return prompt;
    throw error;
  }
}

/** The order's way from placed to delivered; final states outside that way are said in words instead. */
function progress(status: string, pendingDkk: number): Html {
  const reached = REACHED[status];
  if (reached === undefined && pendingDkk > 0 && (status === "refunded" || status === "partial_refund")) return notice("info", "Beløbet refunderes til din bankkonto, så snart vi har overført det.");
  if (reached === undefined) return notice("info", `Ordren er ${ (ORDER_STATUS[status] ?? status).toLowerCase() }.`);
  return html`<ol class="progress" aria-label="Ordrens forløb">${STEPS.map((step, index) => html`<li class="${index <= reached ? "done" : ""}"${index === reached ? html` aria-current="step"` : ""}>${STEP_LABELS[index]}</li>`)}</ol>`;
}
