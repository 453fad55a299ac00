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
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";

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
const prisma = () => server.prisma;

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
    // Card and MobilePay by default (STRIPE_PAYMENT_METHODS), as a filter on what the Dashboard has on.
    expect([form.get("allowed_payment_method_types[0]"), form.get("allowed_payment_method_types[1]"), form.get("allowed_payment_method_types[2]")]).toEqual(["card", "mobilepay", null]);
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

  it("records how the shopper actually paid: MobilePay, asked of Stripe, though the session offered card first", async () => {
    const { result } = await checkout();
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    const event = sessionCompleted("evt_mobilepay_3", order.id, order.paymentProviderSessionId!, "pi_mobilepay_3");
    expect((await sendStripeEvent(server.url, event, SECRET)).body).toMatchObject({ result: { markedPaid: true } });
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "paid", paymentMethod: "mobilepay" });
    const asked = stripe.requests.filter((request) => request.method === "GET" && request.path.startsWith("/v1/payment_intents/pi_mobilepay_3"));
    expect(asked).toHaveLength(1);
    expect(decodeURIComponent(asked[0]!.path)).toContain("expand[0]=latest_charge");
    const [entry] = await prisma().paymentEntry.findMany({ where: { orderId: order.id, kind: "payment" } });
    expect(entry).toMatchObject({ method: "mobilepay" });
  });

  it("marks the order paid on payment_intent.succeeded too", async () => {
    const { result } = await checkout();
    const intent = { id: "evt_pi_2", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_mobilepay_2", object: "payment_intent", metadata: { orderId: result.orderId }, payment_method_types: ["card", "mobilepay"] } } };
    expect((await sendStripeEvent(server.url, intent, SECRET)).body).toMatchObject({ result: { markedPaid: true } });
    expect(await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } })).toMatchObject({ status: "paid", paymentMethod: "mobilepay", paymentProviderPaymentIntentId: "pi_mobilepay_2" });
  });

  it("asks Stripe only for what a gift card leaves, and the webhook books the rest as the card payment", async () => {
    const key = await server.key("giftcards:write", "orders:read");
    const card = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 3000 }, { key })).code;
    const cookie = await newSession(server);
    const product = (await plainProducts(server, 5)).find((p) => p.priceDkk > 3000 && p.priceDkk * 2 < 49900)!;
    await server.call("cart.add", { productSlug: product.slug, quantity: 2 }, { cookie });
    const summary = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const before = stripe.requests.length;
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { giftCardCode: card }, { cookie }));
    const [request] = stripe.requests.slice(before);
    expect(request!.path).toBe("/v1/checkout/sessions");
    expect(request!.form.get("line_items[0][price_data][unit_amount]")).toBe(String(summary.totalDkk - 3000));
    expect(request!.form.get("line_items[0][quantity]")).toBe("1");
    expect(request!.form.get("line_items[1][quantity]")).toBeNull();
    expect(result).toMatchObject({ status: "pending_payment", totalDkk: summary.totalDkk });
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    expect((await sendStripeEvent(server.url, sessionCompleted("evt_rest_1", order.id, order.paymentProviderSessionId!), SECRET)).body).toMatchObject({ result: { markedPaid: true } });
    const ledger = expectOk<Array<{ kind: string; method: string; amountDkk: number; reference: string | null }>>(server, "orders.payments", await server.call("orders.payments", { orderId: order.id }, { key }));
    expect(ledger.map((e) => [e.kind, e.method, e.amountDkk, e.reference])).toEqual([
      ["payment", "gift_card", 3000, `…${card.slice(-4)}`],
      ["payment", "card", summary.totalDkk - 3000, "pi_evt_rest_1"],
    ]);
  });

  it("makes no Checkout Session when a gift card pays everything", async () => {
    const key = await server.key("giftcards:write");
    const card = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 100000 }, { key })).code;
    const cookie = await newSession(server);
    const [product] = await plainProducts(server, 5);
    await server.call("cart.add", { productSlug: product!.slug }, { cookie });
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const before = stripe.requests.length;
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { giftCardCode: card }, { cookie }));
    expect(stripe.requests.length).toBe(before);
    expect(result.status).toBe("paid");
    expect(result.paymentUrl).toContain(`/orders/${result.orderId}/pay?token=`);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } })).toMatchObject({ status: "paid", paymentMethod: "gift_card", paymentProviderSessionId: null });
  });

  it("issues a bought gift card per unit once paid, mailed once, however often the payment is reported", async () => {
    const cookie = await newSession(server);
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: "gavekort-500-kr", quantity: 2 }, { cookie }));
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", { ...ADDRESS, email: "gave.koeber@example.dk" }, { cookie }));
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    expect(await prisma().giftCard.count({ where: { orderId: result.orderId } })).toBe(0);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { items: true } });
    const event = sessionCompleted("evt_gift_1", order.id, order.paymentProviderSessionId!);
    expect((await sendStripeEvent(server.url, event, SECRET)).body).toMatchObject({ result: { markedPaid: true } });
    expect((await sendStripeEvent(server.url, event, SECRET)).body).toMatchObject({ result: { duplicate: true } });
    const intent = { id: "evt_gift_2", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_evt_gift_1", object: "payment_intent", metadata: { orderId: order.id }, payment_method_types: ["card"] } } };
    expect((await sendStripeEvent(server.url, intent, SECRET)).body).toMatchObject({ result: { duplicate: false, markedPaid: false } });
    // Paid again after a dispute is settled: the cards exist already.
    const key = await server.key("orders:write");
    for (const status of ["disputed", "paid"]) expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status }, { key }));

    const cards = await prisma().giftCard.findMany({ where: { orderId: order.id }, orderBy: { purchaseKey: "asc" } });
    const line = order.items[0]!;
    expect(cards.map((c) => [c.source, c.balanceDkk, c.initialDkk, c.customerEmail, c.purchaseKey])).toEqual([
      ["purchase", 50000n, 50000n, "gave.koeber@example.dk", `${line.id}/1`],
      ["purchase", 50000n, 50000n, "gave.koeber@example.dk", `${line.id}/2`],
    ]);
    const mailed = () => prisma().emailMessage.count({ where: { orderId: order.id, kind: "gift_card" } });
    await expect.poll(mailed).toBe(2);
    for (const card of cards) await smtp.waitFor((m) => m.to.includes("gave.koeber@example.dk") && m.raw.includes(card.code));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await mailed()).toBe(2);
  });

  it("lets a shopper who left Stripe pay from the payment page: a new session on a button, the old one closed", async () => {
    const { result } = await checkout();
    const first = result.paymentUrl.split("/").at(-1)!;
    const page = new URL(`${server.url}/orders/${result.orderId}/pay`);
    const token = stripe.requests.find((r) => r.form.get("metadata[orderId]") === result.orderId)!.form.get("success_url")!.split("token=")[1]!.split("&")[0]!;
    const path = `${page.pathname}?token=${token}`;
    const client = new WebClient(server);
    const cancelled = await client.get(`${path}&result=cancelled`);
    expectHtmlPage(cancelled);
    expect(cancelled.html).toContain("Betalingen blev afbrudt");
    expect(cancelled.html).toContain("Betal med kort eller MobilePay");
    // Back from Stripe having paid: no second button while the webhook is on its way.
    expect((await client.get(`${path}&result=success`)).html).not.toContain("Betal med kort eller MobilePay");

    await client.get(path);
    const moved = await client.post(path, {});
    const second = expectRedirect(moved, /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/).split("/").at(-1)!;
    expect(second).not.toBe(first);
    expect(stripe.requests.some((r) => r.method === "POST" && r.path === `/v1/checkout/sessions/${first}/expire`)).toBe(true);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    expect(order).toMatchObject({ status: "pending_payment", paymentProviderSessionId: second });
    expect(await prisma().auditEntry.count({ where: { subjectId: order.id, tool: "orders.reopen_payment", actor: "system:payment-link" } })).toBe(1);

    // Only the open session books the payment; once paid, the page has no button and a post changes nothing.
    const paid = await sendStripeEvent(server.url, sessionCompleted("evt_reopened", order.id, second), SECRET);
    expect(paid.body).toMatchObject({ result: { markedPaid: true } });
    expect((await client.get(path)).html).not.toContain("Betal med kort eller MobilePay");
    expectRedirect(await client.post(path, {}), path);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).paymentProviderSessionId).toBe(second);
    // A forged token opens nothing.
    expect((await client.post(`${page.pathname}?token=${"A".repeat(43)}`, {})).status).toBe(404);
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
