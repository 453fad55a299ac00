// GET /orders/<id>/pay?token=…: the payment page of an order (HTML, every value escaped). For manual payment it
// shows the bank-transfer instructions; after Stripe Checkout it is the landing page (result=success|cancelled).
import express, { type Request, type Response, type Router } from "express";
import { verifyPaymentToken } from "../tools/orders/payments/provider.ts";
import type { Runtime } from "../runtime.ts";
import { documentHtml, escapeHtml, formatKr } from "../web/html.ts";
import { SECURITY_HEADERS } from "../web/public-pages.ts";
import { getSection } from "../tools/settings/service.ts";

const PAID = new Set(["paid", "processing", "shipped", "delivered", "completed"]);

export function paymentPageRouter(runtime: Runtime): Router {
  const router = express.Router();
  router.get("/orders/:id/pay", async (req: Request, res: Response) => {
    const orderId = String(req.params.id);
    const token = typeof req.query.token === "string" ? req.query.token : "";
    res.set(SECURITY_HEADERS);
    const notFound = () => res.status(404).type("html").send(documentHtml("Ordren findes ikke", "<h1>Ordren findes ikke</h1><p>Linket er ugyldigt eller udløbet.</p>"));
    if (!verifyPaymentToken(runtime.secret, orderId, token)) return notFound();
    const order = await runtime.database.prisma.order.findUnique({ where: { id: orderId }, include: { items: { orderBy: { id: "asc" } } } });
    if (!order) return notFound();
    const contact = await getSection(runtime.database.prisma, "contact");
    const shop = (await getSection(runtime.database.prisma, "branding")).shopName;
    const total = formatKr(Number(order.totalDkk));
    const rows = order.items
      .map((item) => `<tr><td>${escapeHtml(item.productName)}${item.variantSku ? ` (${escapeHtml(item.variantSku)})` : ""}</td><td>${item.quantity}</td><td>${escapeHtml(formatKr(Number(item.unitPriceDkk) * item.quantity))}</td></tr>`)
      .join("\n");
    let status: string;
    if (PAID.has(order.status)) status = "<p><strong>Tak! Din betaling er modtaget.</strong></p>";
    else if (order.status === "cancelled") status = "<p>Ordren er annulleret.</p>";
    else if (order.paymentProvider === "stripe") {
      status = req.query.result === "cancelled"
        ? "<p>Betalingen blev afbrudt. Ordren afventer stadig betaling.</p>"
        : "<p>Tak! Vi afventer bekræftelsen fra betalingsudbyderen; du får en ordrebekræftelse på e-mail.</p>";
    } else {
      const bank = contact.bankAccount;
      const account = bank
        ? `<table><tbody>
<tr><th>Bank</th><td>${escapeHtml(bank.bankName)}</td></tr>
<tr><th>Reg.nr.</th><td>${escapeHtml(bank.regNo)}</td></tr>
<tr><th>Kontonr.</th><td>${escapeHtml(bank.accountNo)}</td></tr>
<tr><th>IBAN</th><td>${escapeHtml(bank.iban)}</td></tr>
</tbody></table>`
        : "<p>Skriv eller ring til os, så får du vores bankoplysninger.</p>";
      // Promise the e-mail only once it has gone out (it is sent right after the order is placed).
      const mailed = await runtime.database.prisma.emailMessage.count({ where: { orderId: order.id, kind: "payment_instructions" } });
      status = `<h2>Betal med bankoverførsel</h2>
<p>Overfør <strong>${escapeHtml(total)}</strong> og skriv ordrenummeret <strong>${escapeHtml(order.id)}</strong> som reference.</p>
${account}
<p>${mailed ? `Vi har sendt betalingsoplysningerne til ${escapeHtml(order.email)}. ` : ""}Vi sender varerne, når beløbet er modtaget.</p>
<p>Spørgsmål? Skriv til ${escapeHtml(contact.email)} eller ring på ${escapeHtml(contact.phone)}.</p>`;
    }
    const main = `<h1>Ordre ${escapeHtml(order.id)} hos ${escapeHtml(shop)}</h1>
${status}
<table><thead><tr><th>Vare</th><th>Antal</th><th>Beløb</th></tr></thead><tbody>
${rows}
</tbody></table>
<p>Fragt: ${escapeHtml(formatKr(Number(order.shippingDkk)))}${order.discountDkk > 0n ? ` · Rabat: -${escapeHtml(formatKr(Number(order.discountDkk)))}` : ""}</p>
<p class="price">I alt: ${escapeHtml(total)} (heraf moms ${escapeHtml(formatKr(Number(order.vatOere ?? 0n)))})</p>`;
    res.set("Cache-Control", "no-store").type("html").send(documentHtml(`Betaling – ordre ${order.id}`, main));
  });
  return router;
}
