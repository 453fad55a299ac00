// The whole commerce flow over real HTTP, SMTP and a local Stripe stand-in: a shopper searches, fills a cart, applies
// a code, checks out and pays; the confirmation mail arrives; staff ships; the shopper sees the status and tracking.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CartSummary } from "../../src/tools/cart/schemas.ts";
import { expectOk } from "../support/expect.ts";
import { sendStripeEvent, sessionCompleted, startFakeStripe, type FakeStripe } from "../support/fake-stripe.ts";
import { useServer } from "../support/server.ts";
import { newSession, plainProducts } from "../support/session.ts";
import { startSmtp, type SmtpCapture } from "../support/smtp-capture.ts";

const SECRET = "whsec_e2e";
let stripe: FakeStripe;
let smtp: SmtpCapture;
beforeAll(async () => {
  stripe = await startFakeStripe();
  smtp = await startSmtp();
});
const { server } = useServer({ config: () => ({ smtpUrl: smtp.url, stripeSecretKey: "sk_test_e2e", stripeWebhookSecret: SECRET, stripeApiUrl: stripe.url }) });
afterAll(async () => {
  await stripe.close();
  await smtp.close();
});

describe("commerce end to end", () => {
  it("search → cart → code → address → checkout → Stripe webhook → confirmation mail → shipped → shopper sees it", async () => {
    const cookie = await newSession(server);
    const shopper = { cookie };
    const candidates = await plainProducts(server, 2);
    const picked = [candidates.at(-1)!, candidates.at(-2)!];
    for (const product of picked) {
      const hits = expectOk<Array<{ slug: string }>>(server, "products.search", await server.call("products.search", { q: product.name, limit: 100 }, shopper));
      expect(hits.map((hit) => hit.slug)).toContain(product.slug);
      expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product.slug }, shopper));
    }
    const applied = expectOk<{ applied: boolean; summary: CartSummary }>(server, "discounts.try_apply", await server.call("discounts.try_apply", { code: "velkommen10" }, shopper));
    expect(applied.applied).toBe(true);
    const subtotal = picked[0]!.priceDkk + picked[1]!.priceDkk;
    expect(applied.summary).toMatchObject({ itemCount: 2, subtotalDkk: subtotal, discountCode: "VELKOMMEN10", discountDkk: Math.round(subtotal / 10) });
    const summary = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", {
      name: "Sofie Nielsen", address: "Nørregade 7", zip: "5000", city: "odense c", email: "sofie@example.dk", phone: "+45 20 30 40 50",
    }, shopper));
    const placed = expectOk<{ orderId: string; status: string; totalDkk: number; paymentUrl: string }>(server, "cart.checkout", await server.call("cart.checkout", {}, shopper));
    expect(placed).toMatchObject({ status: "pending_payment", totalDkk: summary.totalDkk });
    expect(placed.paymentUrl).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const request = stripe.requests.find((r) => r.form.get("metadata[orderId]") === placed.orderId)!;
    expect(request.form.get("line_items[0][price_data][unit_amount]")).toBe(String(summary.totalDkk));
    expect(request.form.get("line_items[0][price_data][currency]")).toBe("dkk");
    expect(expectOk<CartSummary>(server, "cart.get_summary", await server.call("cart.get_summary", {}, shopper)).lines).toEqual([]);

    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: placed.orderId } });
    // With a discount, Checkout shows one line for the whole order, named by its number.
    expect(request.form.get("line_items[0][price_data][product_data][name]")).toBe(`Ordre #${order.number}`);
    const webhook = await sendStripeEvent(server.url, sessionCompleted("evt_e2e", order.id, order.paymentProviderSessionId!), SECRET);
    expect(webhook.body).toMatchObject({ result: { markedPaid: true } });
    const mail = await smtp.waitFor((m) => m.to.includes("sofie@example.dk") && m.raw.includes(`#${order.number}`));
    expect(mail.raw).toMatch(/Subject: .*/);
    expect((await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).confirmationEmailSentAt).toBeInstanceOf(Date);

    const staff = await server.key("orders:write", "orders:read");
    const shipped = expectOk<{ status: string }>(server, "orders.set_tracking", await server.call("orders.set_tracking", {
      orderId: order.id, carrier: "PostNord", trackingNumber: "00370712345678901234", trackingUrl: "https://tracking.postnord.com/00370712345678901234", markShipped: true,
    }, { key: staff }));
    expect(shipped.status).toBe("shipped");

    const status = expectOk<{ orderId: string; status: string; carrier: string; trackingNumber: string }>(server, "user.get_order_status", await server.call("user.get_order_status", { orderId: order.id }, shopper));
    expect(status).toMatchObject({ orderId: order.id, status: "shipped", carrier: "PostNord", trackingNumber: "00370712345678901234" });
    const detail = expectOk<{ status: string; paidAt: string; discountCode: string; channel: string }>(server, "orders.get", await server.call("orders.get", { orderId: order.id }, { key: staff }));
    expect(detail).toMatchObject({ status: "shipped", discountCode: "VELKOMMEN10", channel: "web", paidAt: expect.any(String) });
  });
});
