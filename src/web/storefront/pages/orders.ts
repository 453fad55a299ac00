// GET /orders/<id>: status, tracking and lines of one of the signed-in customer's own orders (the tools enforce
// ownership: another customer's order is 404), named by its number; a session without a customer is asked to sign in.
import { NotFound, ToolError } from "../../../core/errors.ts";
import userGetOrderStatus from "../../../tools/user/get_order_status.ts";
import userListOrders from "../../../tools/user/list_orders.ts";
import { breadcrumbs, notice } from "../../components.ts";
import { formatKr, html, type Html } from "../../html.ts";
import { OWN_ORDER_NUMBERS, orderRefs } from "../../order-numbers.ts";
import type { View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";
import { ORDER_STATUS } from "../texts.ts";

const STEPS = ["pending_payment", "paid", "processing", "shipped", "delivered"] as const;
const STEP_LABELS = ["Bestilt", "Betalt", "Pakkes", "Afsendt", "Leveret"];
const REACHED: Record<string, number> = { pending_payment: 0, pending: 0, flagged_review: 1, paid: 1, processing: 2, shipped: 3, delivered: 4, completed: 4 };

const dateFormat = new Intl.DateTimeFormat("da-DK", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Copenhagen" });

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

export function signInPrompt(title: string, next: string): View {
  return {
    title,
    noindex: true,
    main: html`<div class="narrow"><h1>${title}</h1>
${notice("info", "Log ind med din e-mail for at se dine ordrer. Vi sender dig en engangskode.")}
<p><a class="button" href="/account?next=${encodeURIComponent(next)}">Log ind</a></p></div>`,
  };
}

export async function orderPage(web: StorefrontRequest, orderId: string): Promise<View> {
  if (!/^[\w-]{1,100}$/.test(orderId)) throw new NotFound(`No order "${orderId}".`);
  const caller = await web.caller();
  if (!caller.session?.customerId) return signInPrompt("Se din ordre", `/orders/${orderId}`);
  let status;
  try {
    status = await web.call(userGetOrderStatus, { orderId });
  } catch (error) {
    if (error instanceof ToolError && error.status === 422) return signInPrompt("Se din ordre", `/orders/${orderId}`);
    throw error;
  }
  // user.get_order_status has just shown the order to be the shopper's own: its number may be read for them.
  const [orders, refs] = await Promise.all([web.call(userListOrders, { limit: 100 }), orderRefs(web, [orderId], OWN_ORDER_NUMBERS)]);
  const summary = orders.find((order) => order.id === orderId);
  const ref = refs.get(orderId) ?? orderId;
  const delivery = status.estDeliveryFrom && status.estDeliveryTo ? `${formatDate(status.estDeliveryFrom)} – ${formatDate(status.estDeliveryTo)}` : null;
  return {
    title: `Ordre ${ref}`,
    noindex: true,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Konto", href: "/account" }, { label: `Ordre ${ref}` }])}
<div class="narrow">
<h1>Din ordre</h1>
<p class="order-number">Ordrenummer <strong class="order-ref">${ref}</strong></p>
<p>Status: <strong class="order-status">${ORDER_STATUS[status.status] ?? status.status}</strong> · opdateret ${formatDate(status.updatedAt)}</p>
${progress(status.status)}
${status.trackingNumber || status.carrier ? html`<section class="card tracking" aria-labelledby="tracking-title">
<h2 id="tracking-title">Forsendelse</h2>
<p>${status.carrier ?? "Fragtfirma"}${status.trackingNumber ? html` · sporingsnummer <strong>${status.trackingNumber}</strong>` : ""}</p>
${delivery ? html`<p>Forventet levering: ${delivery}</p>` : ""}
${status.trackingUrl && /^https?:\/\//.test(status.trackingUrl) ? html`<p><a class="button button-secondary" href="${status.trackingUrl}" rel="noopener noreferrer">Følg pakken</a></p>` : ""}
</section>` : ""}
${summary ? html`<section aria-labelledby="lines-title"><h2 id="lines-title">Varer</h2>
<div class="table-wrap"><table class="order-lines"><thead><tr><th>Vare</th><th class="num">Antal</th><th class="num">Beløb</th></tr></thead>
<tbody>${summary.items.map((item) => html`<tr><td>${item.productName}</td><td class="num">${item.quantity}</td><td class="num">${formatKr(item.unitPriceDkk * item.quantity)}</td></tr>`)}</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Fragt</th><td class="num">${formatKr(summary.shippingDkk)}</td></tr>
${summary.discountDkk > 0 ? html`<tr><th scope="row" colspan="2">Rabat</th><td class="num">−${formatKr(summary.discountDkk)}</td></tr>` : ""}
<tr class="total"><th scope="row" colspan="2">I alt</th><td class="num price">${formatKr(summary.totalDkk)}</td></tr>
</tfoot></table></div></section>` : ""}
<p><a href="/account">← Alle dine ordrer</a></p>
</div>`,
  };
}

/** The order's way from placed to delivered; final states outside that way are said in words instead. */
function progress(status: string): Html {
  const reached = REACHED[status];
  if (reached === undefined) return notice("info", `Ordren er ${ (ORDER_STATUS[status] ?? status).toLowerCase() }.`);
  return html`<ol class="progress" aria-label="Ordrens forløb">${STEPS.map((step, index) => html`<li class="${index <= reached ? "done" : ""}"${index === reached ? html` aria-current="step"` : ""}>${STEP_LABELS[index]}</li>`)}</ol>`;
}
