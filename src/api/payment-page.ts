// GET /orders/<id>/pay?token=…: the payment page of an order, in the storefront layout. It is opened by the signed
// payment link (not by a session), so it reads the order by id once the token checks out. For manual payment it
// shows the bank-transfer instructions; after Stripe Checkout it is the landing page (result=success|cancelled).
import express, { type Router } from "express";
import { NotFound } from "../core/errors.ts";
import { verifyPaymentToken } from "../tools/orders/payments/provider.ts";
import { notice } from "../web/components.ts";
import { formatKr, html, type Html } from "../web/html.ts";
import { webRoute } from "../web/page.ts";
import type { StorefrontRequest, StorefrontSite } from "../web/storefront/site.ts";

const PAID = new Set(["paid", "processing", "shipped", "delivered", "completed"]);

export function paymentPageRouter(site: StorefrontSite): Router {
  const router = express.Router();
  router.get("/orders/:id/pay", webRoute(site, async (web: StorefrontRequest) => {
    const orderId = String(web.req.params.id);
    const token = web.query("token");
    const gone = new NotFound("The payment link is invalid or has expired.");
    if (!verifyPaymentToken(web.runtime.secret, orderId, token)) throw gone;
    const order = await web.runtime.database.prisma.order.findUnique({ where: { id: orderId }, include: { items: { orderBy: { id: "asc" } } } });
    if (!order) throw gone;
    const { contact } = await web.chrome();
    const total = formatKr(Number(order.totalDkk));
    let status: Html;
    if (PAID.has(order.status)) status = notice("success", html`<strong>Tak! Din betaling er modtaget.</strong> Vi sender en ordrebekræftelse til ${order.email}.`);
    else if (order.status === "cancelled") status = notice("error", "Ordren er annulleret.");
    else if (order.paymentProvider === "stripe") {
      status = web.query("result") === "cancelled"
        ? notice("error", "Betalingen blev afbrudt. Ordren afventer stadig betaling.")
        : notice("info", "Tak! Vi afventer bekræftelsen fra betalingsudbyderen; du får en ordrebekræftelse på e-mail.");
    } else {
      status = html`${notice("success", html`<strong>Tak for din bestilling!</strong> Ordren er modtaget og afventer betaling.`)}
<section class="card pay-instructions" aria-labelledby="pay-how">
<h2 id="pay-how">Betal med bankoverførsel</h2>
<p>Overfør <strong>${total}</strong> og skriv ordrenummeret <strong class="order-ref">${order.id}</strong> som reference.
Du modtager en faktura med bankoplysninger på ${order.email}. Vi sender varerne, når beløbet er modtaget.</p>
<p class="hint">Spørgsmål? Skriv til <a href="mailto:${contact.email}">${contact.email}</a> eller ring på ${contact.phone}.</p>
</section>`;
    }
    const rows = order.items.map((item) => html`<tr><td>${item.productName}${item.variantSku ? html` <span class="hint">(${item.variantSku})</span>` : ""}</td><td class="num">${item.quantity}</td><td class="num">${formatKr(Number(item.unitPriceDkk) * item.quantity)}</td></tr>`);
    return {
      title: `Betaling – ordre ${order.id}`,
      noindex: true,
      // The address holds the payment token: never send it on, not even as a same-origin referrer.
      headers: { "Referrer-Policy": "no-referrer" },
      main: html`<div class="narrow">
<h1>${PAID.has(order.status) ? "Tak for din betaling" : order.status === "cancelled" ? "Ordren er annulleret" : "Betaling"}</h1>
<p class="order-number">Ordrenummer <strong class="order-ref">${order.id}</strong></p>
${status}
<section aria-labelledby="pay-summary">
<h2 id="pay-summary">Din ordre</h2>
<div class="table-wrap"><table class="order-lines">
<thead><tr><th>Vare</th><th class="num">Antal</th><th class="num">Beløb</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Fragt</th><td class="num">${formatKr(Number(order.shippingDkk))}</td></tr>
${order.discountDkk > 0n ? html`<tr><th scope="row" colspan="2">Rabat${order.discountCode ? html` (${order.discountCode})` : ""}</th><td class="num">−${formatKr(Number(order.discountDkk))}</td></tr>` : ""}
<tr class="total"><th scope="row" colspan="2">I alt</th><td class="num price">${total}</td></tr>
<tr><th scope="row" colspan="2" class="hint">Heraf moms</th><td class="num hint">${formatKr(Number(order.vatOere ?? 0n))}</td></tr>
</tfoot>
</table></div>
</section>
<p><a href="/">← Fortsæt med at handle</a></p>
</div>`,
    };
  }));
  return router;
}
