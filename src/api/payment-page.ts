// GET /orders/<id>/pay?token=…: the payment page of an order (HTML, every value escaped). For manual payment it
// shows the bank-transfer instructions; after Stripe Checkout it is the landing page (result=success|cancelled).
import express, { type Request, type Response, type Router } from "express";
import { verifyPaymentToken } from "../tools/orders/payments/provider.ts";
import type { Runtime } from "../runtime.ts";
import { documentHtml, escapeHtml, formatKr } from "../web/html.ts";
import { SECURITY_HEADERS } from "../web/public-pages.ts";

const PAID = new Set(["paid", "processing", "shipped", "delivered", "completed"]);

async function section(runtime: Runtime, name: string): Promise<Record<string, unknown>> {
  const row = await runtime.database.prisma.setting.findUnique({ where: { section: name } });
  const value = row?.value;
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

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
    const contact = await section(runtime, "contact");
    const shop = String((await section(runtime, "branding")).shopName ?? "Webshoppen");
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
      status = `<h2>Betal med bankoverførsel</h2>
<p>Overfør <strong>${escapeHtml(total)}</strong> og skriv ordrenummeret <strong>${escapeHtml(order.id)}</strong> som reference.
Du modtager en faktura med bankoplysninger på ${escapeHtml(order.email)}. Vi sender varerne, når beløbet er modtaget.</p>
<p>Spørgsmål? Skriv til ${escapeHtml(String(contact.email ?? ""))} eller ring på ${escapeHtml(String(contact.phone ?? ""))}.</p>`;
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
