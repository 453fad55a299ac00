// GET /orders/<id>/pay?token=…: the payment page of an order, in the storefront layout. It is opened by the signed
// payment link (not by a session): once the token checks out, the page reads the order (orders.get_payment) and its
// number (orders.get_number) as the payment-link reader. For manual payment it shows the bank-transfer instructions,
// the order number as reference; after Stripe Checkout it is the landing page (result=success|cancelled).
import { NotFound, ToolError } from "../../../core/errors.ts";
import type { Caller } from "../../../tools/context.ts";
import ordersGetDelivery from "../../../tools/orders/get_delivery.ts";
import ordersGetNumber from "../../../tools/orders/get_number.ts";
import ordersGetPayment from "../../../tools/orders/get_payment.ts";
import ordersReopenPayment from "../../../tools/orders/reopen_payment.ts";
import { orderRef } from "../../../tools/shared/order-numbers.ts";
import { verifyPaymentToken } from "../../../tools/money/payments/provider.ts";
import settingsGet from "../../../tools/settings/get.ts";
import getSaleTerms from "../../../tools/settings/get_sale_terms.ts";
import { notice } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
import type { Redirect, View } from "../../page.ts";
import type { StorefrontRequest } from "../site.ts";

/** Who reads an order for its payment page: only after the page has verified the link's token, and only that order. */
const PAYMENT_LINK_READER: Caller = { kind: "system", actor: "system:payment-link", scopes: new Set(["orders:read"]) };

/** Who opens a new card payment session from the payment page: only after the link's token checks out, that order only. */
const PAYMENT_LINK_PAYER: Caller = { kind: "system", actor: "system:payment-link", scopes: new Set(["orders:write"]) };

/** Order ids and link tokens (base64url) as the links carry them; anything else is no link of ours. */
const LINK_PART = /^[\w-]{1,200}$/;

/** The link's token, once it checks out for this order; 404 for anything else (no hint whether the order exists). */
function linkToken(web: StorefrontRequest, orderId: string): string {
  const token = web.query("token");
  if (!LINK_PART.test(orderId) || !LINK_PART.test(token) || !verifyPaymentToken(web.deps.secret, orderId, token)) {
    throw linkGone();
  }
  return token;
}

/** The answer to a link that is not (or no longer) one of ours, and to one whose order is gone. */
const linkGone = () => new NotFound("The payment link is invalid or has expired.");

/** POST /orders/<id>/pay?token=…: "Betal med kort": a new card payment session (orders.reopen_payment), then to the provider. */
export async function payAgain(web: StorefrontRequest, orderId: string): Promise<Redirect> {
  const token = linkToken(web, orderId);
  const page = `/orders/${orderId}/pay?token=${token}`;
  try {
    const { paymentUrl } = await web.callAs(PAYMENT_LINK_PAYER, ordersReopenPayment, { orderId });
    return { redirect: paymentUrl, external: true };
  } catch (error) {
    // Paid meanwhile, cancelled, or the old session was just paid: the page says how the order stands now.
    if (error instanceof ToolError && error.status === 422) return { redirect: page };
    throw error;
  }
}

export async function paymentPage(web: StorefrontRequest, orderId: string): Promise<View> {
  const token = linkToken(web, orderId);
  const [order, { number }, { delivery }] = await Promise.all([
    web.callAs(PAYMENT_LINK_READER, ordersGetPayment, { orderId }),
    web.callAs(PAYMENT_LINK_READER, ordersGetNumber, { orderId }),
    web.callAs(PAYMENT_LINK_READER, ordersGetDelivery, { orderId }),
  ]).catch((error: unknown) => {
    throw error instanceof ToolError && error.status === 404 ? linkGone() : error;
  });
  const ref = orderRef(number);
  // Read fresh, not from the chrome (kept for two seconds): a bank account just changed must never show stale.
  const [{ contact }, { bankAccount: bank }, { currency, pricesIncludeVat }] = await Promise.all([web.read(settingsGet, {}), web.read(getSaleTerms, {}), web.chrome()]);
  const total = formatMoney(order.totalDkk, currency);
  const due = formatMoney(order.outstandingDkk, currency);
  // A paid order with money outstanding (an item edit raised it, or it is paid another way): the rest is paid here.
  const rest = order.paid && order.outstandingDkk > 0;
  const open = (!order.paid || rest) && order.status !== "cancelled";
  // Paid before besides gift cards: what an exchange moved here from the order whose goods came back.
  const earlier = order.totalDkk - order.giftCardDkk - order.outstandingDkk;
  let status: Html;
  if (order.paid && !rest) status = notice("success", html`<strong>Tak! Din betaling er modtaget.</strong> Vi sender en ordrebekræftelse til ${order.email}.`);
  else if (order.status === "cancelled") status = notice("error", "Ordren er annulleret.");
  else if (order.paymentProvider === "stripe") {
    const result = web.query("result");
    // Back from Stripe after paying: the webhook confirms it. Otherwise (left the provider's page, came by the order's
    // link or an agent's hand-off): a new payment session on a button, the old one closed first.
    const payNow = html`<form method="post" action="/orders/${orderId}/pay?token=${token}" class="pay-now">${web.csrfField()}<button class="button button-accent button-block" type="submit">Betal med kort eller MobilePay · ${due}</button></form>`;
    status = result === "success"
      ? notice("info", "Tak! Vi afventer bekræftelsen fra betalingsudbyderen; du får en ordrebekræftelse på e-mail.")
      : html`${result === "cancelled" ? notice("error", "Betalingen blev afbrudt. Ordren afventer stadig betaling.") : notice("info", html`Ordren afventer betaling: <strong>${due}</strong>.`)}${payNow}`;
  } else {
    const account = bank
      ? html`<table class="bank-account"><tbody>
<tr><th scope="row">Bank</th><td>${bank.bankName}</td></tr>
<tr><th scope="row">Reg.nr.</th><td>${bank.regNo}</td></tr>
<tr><th scope="row">Kontonr.</th><td>${bank.accountNo}</td></tr>
<tr><th scope="row">IBAN</th><td>${bank.iban}</td></tr>
${bank.bic ? html`<tr><th scope="row">BIC (SWIFT)</th><td>${bank.bic}</td></tr>` : ""}
</tbody></table>`
      : html`<p>Skriv eller ring til os, så får du vores bankoplysninger.</p>`;
    // Promise the e-mail only once it has gone out (it is sent right after the order is placed).
    status = html`${rest ? notice("info", html`Der mangler <strong>${due}</strong> i betaling på din ordre.`) : notice("success", html`<strong>Tak for din bestilling!</strong> Ordren er modtaget og afventer betaling.`)}
<section class="card pay-instructions" aria-labelledby="pay-how">
<h2 id="pay-how">Betal med bankoverførsel</h2>
<p>Overfør <strong>${due}</strong> og skriv ordrenummeret <strong class="order-ref">${number}</strong> som reference.</p>
${account}
<p>${order.instructionsEmailed ? html`Vi har sendt betalingsoplysningerne til ${order.email}. ` : ""}Vi sender varerne, når beløbet er modtaget.</p>
<p class="hint">Spørgsmål? Skriv til <a href="mailto:${contact.email}">${contact.email}</a> eller ring på ${contact.phone}.</p>
</section>`;
  }
  const rows = order.items.map((item) => html`<tr><td>${item.productName}${item.variantSku ? html` <span class="hint">(${item.variantSku})</span>` : ""}</td><td class="num">${item.quantity}</td><td class="num">${formatMoney(item.lineTotalDkk, currency)}</td></tr>`);
  return {
    title: `Betaling – ordre ${ref}`,
    noindex: true,
    // The address holds the payment token: never send it on, not even as a same-origin referrer.
    headers: { "Referrer-Policy": "no-referrer" },
    main: html`<div class="narrow">
<h1>${rest ? "Betal resten" : order.paid ? "Tak for din betaling" : order.status === "cancelled" ? "Ordren er annulleret" : "Betaling"}</h1>
<p class="order-number">Ordrenummer <strong class="order-ref">${ref}</strong></p>
${status}
${delivery ? html`<section class="card pay-delivery" aria-labelledby="pay-delivery">
<h2 id="pay-delivery">Levering</h2>
<p><strong>${delivery.name}</strong>${delivery.pickupPoint ? html`<br>Afhentes i pakkeshop: ${delivery.pickupPoint.name}, ${delivery.pickupPoint.address}, ${delivery.pickupPoint.zip} ${delivery.pickupPoint.city}` : ""}</p>
</section>` : ""}
<section aria-labelledby="pay-summary">
<h2 id="pay-summary">Din ordre</h2>
<div class="table-wrap"><table class="order-lines">
<thead><tr><th>Vare</th><th class="num">Antal</th><th class="num">Beløb</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Fragt</th><td class="num">${formatMoney(order.shippingDkk, currency)}</td></tr>
${order.discountDkk > 0 ? html`<tr><th scope="row" colspan="2">Rabat${order.discountCode ? html` (${order.discountCode})` : ""}</th><td class="num">−${formatMoney(order.discountDkk, currency)}</td></tr>` : ""}
<tr class="total"><th scope="row" colspan="2">I alt</th><td class="num price">${total}</td></tr>
${pricesIncludeVat ? html`<tr><th scope="row" colspan="2" class="hint">Heraf moms</th><td class="num hint">${formatMoney(order.vatOere, currency)}</td></tr>` : ""}
${order.giftCardDkk > 0 ? html`<tr class="gift-card-paid"><th scope="row" colspan="2">Betalt med gavekort</th><td class="num">−${formatMoney(order.giftCardDkk, currency)}</td></tr>` : ""}
${open && earlier > 0 ? html`<tr class="paid-before"><th scope="row" colspan="2">Allerede betalt</th><td class="num">−${formatMoney(earlier, currency)}</td></tr>` : ""}
${open && (order.giftCardDkk > 0 || earlier > 0) ? html`<tr class="total"><th scope="row" colspan="2">Tilbage at betale</th><td class="num price">${due}</td></tr>` : ""}
</tfoot>
</table></div>
</section>
<p><a href="/orders/number/${number}">Se din ordre</a> · <a href="/">Fortsæt med at handle</a></p>
</div>`,
  };
}
