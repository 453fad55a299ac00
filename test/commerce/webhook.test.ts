// Stripe payments end to end on a local fake API: the Checkout Session request, and the signed webhook that marks
// the order paid exactly once through orders.apply_payment_event (duplicates ignored, bad signatures refused) and sends
// the confirmation mail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CartSummary } from "../../src/tools/cart/schemas.ts";
import { expectOk } from "../support/expect.ts";
import { startFakeStripe, sendStripeEvent, sessionCompleted, type FakeStripe } from "../support/fake-stripe.ts";
import { useServer } from "../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../support/session.ts";
import { startSmtp, type SmtpCapture } from "../support/smtp-capture.ts";

const SECRET = "whsec_test_secret";
let stripe: FakeStripe;
let smtp: SmtpCapture;
beforeAll(async () => {
  stripe = await startFakeStripe();
  smtp = await startSmtp();
});
const { server } = useServer({ config: () => ({ stripeSecretKey: "sk_test_shop", stripeWebhookSecret: SECRET, stripeApiUrl: stripe.url, smtpUrl: smtp.url }) });
afterAll(async () => {
  await stripe.close();
  await smtp.close();
});

type Checkout = { orderId: string; status: string; totalDkk: number; paymentUrl: string };
const prisma = () => server.runtime.database.prisma;

async function checkout(code?: string, quantity = 2) {
  const cookie = await newSession(server);
  const product = (await plainProducts(server, 5)).find((p) => p.priceDkk * quantity < 49900)!;
  await server.call("cart.add", { productSlug: product.slug, quantity }, { cookie });
  if (code) await server.call("discounts.try_apply", { code }, { cookie });
  const summary = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
  const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
  return { cookie, product, summary, result, request: stripe.requests.at(-1)! };
}

describe("Stripe payments", () => {
  it("creates a Checkout Session in DKK øre with the order id and returns its URL", async () => {
    const { product, summary, result, request } = await checkout();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/checkout/sessions");
    const form = request.form;
    expect(form.get("mode")).toBe("payment");
    expect(form.get("metadata[orderId]")).toBe(result.orderId);
    expect(form.get("payment_intent_data[metadata][orderId]")).toBe(result.orderId);
    expect(form.get("customer_email")).toBe("mette@example.dk");
    expect(form.get("line_items[0][price_data][currency]")).toBe("dkk");
    expect(form.get("line_items[0][price_data][unit_amount]")).toBe(String(product.priceDkk));
    expect(form.get("line_items[0][quantity]")).toBe("2");
    expect(form.get("line_items[1][price_data][unit_amount]")).toBe(String(summary.shippingDkk));
    expect(form.get("success_url")).toContain(`/orders/${result.orderId}/pay?token=`);
    expect(result.paymentUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    expect(order).toMatchObject({ paymentProvider: "stripe", paymentProviderSessionId: result.paymentUrl.split("/").at(-1), status: "pending_payment" });
  });

  it("sends one line for the total when a discount applies", async () => {
    const { result, request } = await checkout("VELKOMMEN10");
    expect(request.form.get("line_items[0][price_data][unit_amount]")).toBe(String(result.totalDkk));
    expect(request.form.get("line_items[1][quantity]")).toBeNull();
  });

  it("marks the order paid once on checkout.session.completed and mails the confirmation", async () => {
    const { result } = await checkout();
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    const event = sessionCompleted("evt_paid_1", order.id, order.paymentProviderSessionId!);
    const first = await sendStripeEvent(server.url, event, SECRET);
    expect(first).toEqual({ status: 200, body: { ok: true, result: { received: true, duplicate: false, orderId: order.id, markedPaid: true } } });
    const paid = await prisma().order.findUniqueOrThrow({ where: { id: order.id }, include: { statusHistory: { orderBy: { createdAt: "asc" } } } });
    expect(paid).toMatchObject({ status: "paid", paymentProviderPaymentIntentId: "pi_evt_paid_1", paymentMethod: "card" });
    expect(paid.paidAt).toBeInstanceOf(Date);
    expect(paid.statusHistory.map((c) => [c.fromStatus, c.toStatus, c.actor])).toEqual([[null, "pending_payment", expect.any(String)], ["pending_payment", "paid", "system:stripe"]]);
    const audit = await prisma().auditEntry.findFirstOrThrow({ where: { subjectId: order.id, door: "webhook" } });
    expect(audit).toMatchObject({ tool: "orders.apply_payment_event", actor: "system:stripe", subjectType: "order" });
    expect(audit.before).toMatchObject({ status: "pending_payment" });
    expect(audit.after).toMatchObject({ status: "paid" });
    const mail = await smtp.waitFor((m) => m.to.includes("mette@example.dk") && m.raw.includes(`#${order.number}`));
    expect(mail.raw).toContain(`Ordrenummer: #${order.number}`);

    const again = await sendStripeEvent(server.url, event, SECRET);
    expect(again.body).toEqual({ ok: true, result: { received: true, duplicate: true, orderId: order.id, markedPaid: false } });
    expect(await prisma().auditEntry.count({ where: { subjectId: order.id, door: "webhook" } })).toBe(1);
    const intent = { id: "evt_pi_1", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_evt_paid_1", object: "payment_intent", metadata: { orderId: order.id }, payment_method_types: ["card"] } } };
    expect((await sendStripeEvent(server.url, intent, SECRET)).body).toMatchObject({ result: { duplicate: false, markedPaid: false } });
    expect(await prisma().orderStatusChange.count({ where: { orderId: order.id } })).toBe(2);
    expect(await prisma().paymentEvent.count({ where: { orderId: order.id } })).toBe(2);
  });

  it("marks the order paid on payment_intent.succeeded too", async () => {
    const { result } = await checkout();
    const intent = { id: "evt_pi_2", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_2", object: "payment_intent", metadata: { orderId: result.orderId }, payment_method_types: ["mobilepay"] } } };
    expect((await sendStripeEvent(server.url, intent, SECRET)).body).toMatchObject({ result: { markedPaid: true } });
    expect(await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } })).toMatchObject({ status: "paid", paymentMethod: "mobilepay", paymentProviderPaymentIntentId: "pi_2" });
  });

  it("refuses bad signatures with 400 and records nothing", async () => {
    const { result } = await checkout();
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    const event = sessionCompleted("evt_forged", order.id, order.paymentProviderSessionId!);
    const wrongSecret = await sendStripeEvent(server.url, event, "whsec_other");
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body).toMatchObject({ ok: false, code: "invalid_signature" });
    expect((await sendStripeEvent(server.url, event, SECRET, "t=1,v1=deadbeef")).status).toBe(400);
    expect(await prisma().paymentEvent.count({ where: { id: "evt_forged" } })).toBe(0);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("pending_payment");
  });

  it("records other events without touching orders", async () => {
    const event = { id: "evt_other", object: "event", type: "customer.created", data: { object: { id: "cus_1", object: "customer" } } };
    expect((await sendStripeEvent(server.url, event, SECRET)).body).toEqual({ ok: true, result: { received: true, duplicate: false, orderId: null, markedPaid: false } });
    expect(await prisma().paymentEvent.findUniqueOrThrow({ where: { id: "evt_other" } })).toMatchObject({ provider: "stripe", type: "customer.created" });
  });
});
