// orders.change_items collectWith through real HTTP: a paid order's rise is paid by a gift card in the edit's
// transaction, charged again to the Stripe card (the Stripe fake), or left outstanding behind an e-mailed payment link
// (Stripe Checkout, paid by the signed webhook; or the bank-transfer page, booked by orders.record_payment). The order
// does not ship while money is outstanding, cancelling it refunds only what was paid, and two edits racing never
// collect twice; after each flow the ledger holds exactly what the order costs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { sendStripeEvent, sessionCompleted, startFakeStripe, type FakeStripe } from "../../support/fake-stripe.ts";
import { useServer } from "../../support/server.ts";
import { newSession, sessionIdOf } from "../../support/session.ts";
import { captureMail, createOrder, orderState, paidAtStripe as paidAtStripeFake, usePaymentProviders } from "./fixtures.ts";

const SECRET = "whsec_collect";
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const { server, keys: { key } } = useServer({
  keys: { key: ["orders:write", "orders:read", "giftcards:write"] },
  config: () => ({ stripeSecretKey: "sk_test_collect", stripeWebhookSecret: SECRET, stripeApiUrl: stripe.url }),
});

const prisma = () => server.prisma;
type View = { id: string; status: string; totalDkk: number; returnedDkk: number; outstandingDkk: number; paymentUrl: string | null };
type Entry = { kind: string; method: string; amountDkk: number; reference: string | null };

const edit = (orderId: string, items: object[], extra: object = {}) => server.call("orders.change_items", { orderId, items, ...extra }, { key });
const edited = async (orderId: string, items: object[], extra: object = {}) => expectOk<View>(server, "orders.change_items", await edit(orderId, items, extra));
const payments = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key }));
const issue = async (amountDkk: number) => expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk }, { key })).code;
const balance = async (code: string) => (await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk;

/** The ledger holds what the order costs: payments less refunds equal its total less what was refunded of it. */
async function expectLedgerHolds(orderId: string, outstanding = 0n) {
  const order = await prisma().order.findUniqueOrThrow({ where: { id: orderId } });
  const entries = await payments(orderId);
  const sum = (kind: string[]) => BigInt(entries.filter((e) => kind.includes(e.kind)).reduce((total, e) => total + e.amountDkk, 0));
  expect(sum(["payment"]) - sum(["refund", "store_credit"])).toBe(order.totalDkk - order.refundedDkk - outstanding);
  expect(order.outstandingDkk).toBe(outstanding);
}

/** A paid order (bank transfer in its ledger) of one plain line, and a raise of that line by one unit. */
async function paidOrder(status = "paid") {
  const order = await createOrder(server, { status, quantities: [1] });
  const line = order.items[0]!;
  await prisma().product.update({ where: { id: line.productId }, data: { stock: 20n } });
  return { order, line, raise: [{ orderItemId: line.id, quantity: 2 }], rise: line.unitPriceDkk };
}

/** Makes an order paid at Stripe by a PaymentIntent the fake knows, with the card `paymentMethod`. */
const paidAtStripe = (orderId: string, paymentMethod?: string) => paidAtStripeFake(server, stripe.url, orderId, paymentMethod);

const { useManualPayments } = usePaymentProviders(server);

describe("orders.change_items collectWith", () => {
  it("without collectWith still refuses a paid order's rise (422 payment_required), writing nothing", async () => {
    const { order, raise } = await paidOrder();
    const before = await orderState(server, order.id);
    expectProblem(await edit(order.id, raise), 422, "payment_required");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("charges a gift card for the rise in the edit's transaction", async () => {
    const { order, raise, rise } = await paidOrder();
    const code = await issue(Number(rise) + 1000);
    const result = await edited(order.id, raise, { collectWith: { giftCardCode: code.toLowerCase() } });
    expect(result).toMatchObject({ status: "paid", totalDkk: Number(order.totalDkk + rise), returnedDkk: 0, outstandingDkk: 0, paymentUrl: null });
    expect(await balance(code)).toBe(1000n);
    expect((await payments(order.id)).map((e) => [e.kind, e.method, e.amountDkk, e.reference])).toEqual([
      ["payment", "bank_transfer", Number(order.totalDkk), null],
      ["payment", "gift_card", Number(rise), `…${code.slice(-4)}`],
    ]);
    await expectLedgerHolds(order.id);
  });

  it("refuses a gift card that cannot cover the rise (422 insufficient_balance), an expired one and an unknown code, writing nothing", async () => {
    const { order, raise, rise } = await paidOrder();
    const code = await issue(Number(rise) - 1);
    const expired = await issue(Number(rise) + 1);
    await prisma().giftCard.update({ where: { code: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = await orderState(server, order.id);
    expectProblem(await edit(order.id, raise, { collectWith: { giftCardCode: code } }), 422, "insufficient_balance");
    expectProblem(await edit(order.id, raise, { collectWith: { giftCardCode: expired } }), 422, "giftcard_expired");
    expectProblem(await edit(order.id, raise, { collectWith: { giftCardCode: "AAAA-BBBB-CCCC-DDDD" } }), 404);
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("charges the original Stripe card again off-session and books the new PaymentIntent", async () => {
    const { order, raise, rise } = await paidOrder();
    const first = await paidAtStripe(order.id);
    const result = await edited(order.id, raise, { collectWith: "original_card" });
    expect(result).toMatchObject({ outstandingDkk: 0, paymentUrl: null });
    const charge = stripe.requests.filter((r) => r.path === "/v1/payment_intents" && r.method === "POST").at(-1)!;
    expect(charge.form.get("amount")).toBe(String(rise));
    expect(charge.form.get("payment_method")).toBe("pm_card_visa");
    expect(charge.form.get("off_session")).toBe("true");
    expect(charge.form.get("metadata[orderId]")).toBe(order.id);
    const entries = await payments(order.id);
    expect(entries.map((e) => [e.kind, e.method, e.amountDkk])).toEqual([["payment", "card", Number(order.totalDkk)], ["payment", "card", Number(rise)]]);
    expect(entries[1]!.reference).toMatch(/^pi_test_/);
    expect(entries[1]!.reference).not.toBe(first);
    await expectLedgerHolds(order.id);

    // Cancelling refunds both card payments at Stripe, each through its own PaymentIntent.
    const refundsBefore = stripe.requests.filter((r) => r.path === "/v1/refunds").length;
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Fortrudt" }, { key }));
    const refunds = stripe.requests.filter((r) => r.path === "/v1/refunds").slice(refundsBefore);
    expect(refunds.map((r) => [r.form.get("payment_intent"), r.form.get("amount")])).toEqual([[first, String(order.totalDkk)], [entries[1]!.reference, String(rise)]]);
  });

  it("refuses the original card when Stripe cannot charge it again (card_not_reusable) or the bank wants the customer (payment_declined)", async () => {
    const manual = await paidOrder();
    const before = await orderState(server, manual.order.id);
    expectProblem(await edit(manual.order.id, manual.raise, { collectWith: "original_card" }), 422, "card_not_reusable");
    expect(await orderState(server, manual.order.id)).toEqual(before);

    const unknown = await paidOrder();
    await prisma().order.update({ where: { id: unknown.order.id }, data: { paymentProvider: "stripe", paymentProviderPaymentIntentId: `pi_unsaved_${unknown.order.id}` } });
    expectProblem(await edit(unknown.order.id, unknown.raise, { collectWith: "original_card" }), 422, "card_not_reusable");

    const secure = await paidOrder();
    await paidAtStripe(secure.order.id, "pm_card_threeDSecureRequired");
    const state = await orderState(server, secure.order.id);
    expectProblem(await edit(secure.order.id, secure.raise, { collectWith: "original_card" }), 422, "payment_declined");
    expect(await orderState(server, secure.order.id)).toEqual(state);
  });

  it("leaves the rise outstanding behind an e-mailed Stripe link; the order does not ship until the webhook books it", async () => {
    const mail = captureMail(server);
    const { order, raise, rise } = await paidOrder("processing");
    const result = await edited(order.id, raise, { collectWith: "payment_link" });
    expect(result).toMatchObject({ status: "processing", outstandingDkk: Number(rise) });
    expect(result.paymentUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
    const session = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(session.form.get("line_items[0][price_data][unit_amount]")).toBe(String(rise));
    expect(session.form.get("line_items[1][price_data][unit_amount]")).toBeNull();
    await expectLedgerHolds(order.id, rise);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const message = mail.sent.find((m) => m.to === order.email)!;
    expect(message.text).toContain("Beløb at betale nu");
    expect(message.text).toContain(result.paymentUrl!);

    const ship = await server.call("orders.set_tracking", { orderId: order.id, carrier: "PostNord", trackingNumber: "00370712345678901234", markShipped: true }, { key });
    expectProblem(ship, 422, "payment_outstanding");
    expectProblem(await server.call("orders.update_status", { orderId: order.id, status: "shipped" }, { key }), 422, "payment_outstanding");

    const sessionId = result.paymentUrl!.split("/").at(-1)!;
    const event = sessionCompleted(`evt_collect_${order.id}`, order.id, sessionId, `pi_collect_${order.id}`);
    expect((await sendStripeEvent(server.url, event, SECRET)).status).toBe(200);
    // The same event again books nothing more.
    expect((await sendStripeEvent(server.url, event, SECRET)).status).toBe(200);
    expect((await payments(order.id)).map((e) => [e.kind, e.method, e.amountDkk, e.reference])).toEqual([
      ["payment", "bank_transfer", Number(order.totalDkk), null],
      ["payment", "card", Number(rise), `pi_collect_${order.id}`],
    ]);
    await expectLedgerHolds(order.id);
    expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status: "shipped" }, { key }));
  });

  it("on a shop without Stripe links the bank-transfer page; staff book the transfer with orders.record_payment", async () => {
    useManualPayments();
    const { order, raise, rise } = await paidOrder();
    const result = await edited(order.id, raise, { collectWith: "payment_link" });
    expect(result.paymentUrl).toMatch(new RegExp(`/orders/${order.id}/pay\\?token=`));
    expect(result.outstandingDkk).toBe(Number(rise));
    // The payment page shows the rest to transfer, the shopper's order page "Betal resten" with the link.
    const link = new URL(result.paymentUrl!);
    const page = await (await fetch(`${server.url}${link.pathname}${link.search}`)).text();
    expect(page).toContain("Betal resten");
    expect(page).toContain("Betal med bankoverførsel");
    const cookie = await newSession(server);
    await prisma().order.update({ where: { id: order.id }, data: { sessionId: sessionIdOf(cookie) } });
    const mine = await (await fetch(`${server.url}/orders/${order.id}`, { headers: { cookie } })).text();
    expect(mine).toContain("Betal resten");
    expect(mine).toContain(`${link.pathname}?token=`);
    const booked = expectOk<{ paidDkk: number; returnedDkk: number }>(server, "orders.record_payment", await server.call("orders.record_payment", { orderId: order.id }, { key }));
    expect(booked).toEqual({ orderId: order.id, paidDkk: Number(rise), returnedDkk: 0 });
    expect(await (await fetch(`${server.url}/orders/${order.id}`, { headers: { cookie } })).text()).not.toContain("Betal resten");
    await expectLedgerHolds(order.id);
    expectProblem(await server.call("orders.record_payment", { orderId: order.id }, { key }), 422, "nothing_outstanding");
  });

  it("lowers what is outstanding before refunding when a later edit lowers the total, and closes the link when nothing is left", async () => {
    const { order, line, raise, rise } = await paidOrder();
    const first = await edited(order.id, raise, { collectWith: "payment_link" });
    const firstSession = first.paymentUrl!.split("/").at(-1)!;
    const back = await edited(order.id, [{ orderItemId: line.id, quantity: 1 }]);
    expect(back).toMatchObject({ returnedDkk: 0, outstandingDkk: 0, totalDkk: Number(order.totalDkk) });
    expect(stripe.requests.some((r) => r.path === `/v1/checkout/sessions/${firstSession}/expire`)).toBe(true);
    await expectLedgerHolds(order.id);
    expect((await payments(order.id)).length).toBe(1);
    void rise;
  });

  it("cancelling an order with money outstanding refunds only what was paid and closes its link", async () => {
    const { order, raise } = await paidOrder();
    const result = await edited(order.id, raise, { collectWith: "payment_link" });
    const sessionId = result.paymentUrl!.split("/").at(-1)!;
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Fortrudt" }, { key }));
    const entries = await payments(order.id);
    expect(entries.map((e) => [e.kind, e.amountDkk])).toEqual([["payment", Number(order.totalDkk)], ["refund", Number(order.totalDkk)]]);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).outstandingDkk).toBe(0n);
    expect(stripe.requests.some((r) => r.path === `/v1/checkout/sessions/${sessionId}/expire`)).toBe(true);
    // A late payment of the closed link is not booked on the cancelled order.
    await sendStripeEvent(server.url, sessionCompleted(`evt_late_${order.id}`, order.id, sessionId), SECRET);
    expect((await payments(order.id)).length).toBe(2);
  });

  it("collects once when two edits with a gift card race for one paid order", async () => {
    const { order, raise, rise } = await paidOrder();
    const code = await issue(Number(rise) * 3);
    const both = await Promise.all([edit(order.id, raise, { collectWith: { giftCardCode: code } }), edit(order.id, raise, { collectWith: { giftCardCode: code } })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(await balance(code)).toBe(rise * 2n);
    expect((await payments(order.id)).filter((e) => e.method === "gift_card").map((e) => e.amountDkk)).toEqual([Number(rise)]);
    await expectLedgerHolds(order.id);
  });

  it("needs orders:write", async () => {
    const { order, line } = await paidOrder();
    await expectScopeMatrix(server, "orders.change_items", { orderId: order.id, items: [{ orderItemId: line.id, quantity: 1 }], collectWith: "payment_link" });
    await expectScopeMatrix(server, "orders.record_payment", { orderId: order.id });
  });

  it("rejects a bad collectWith with a 400 problem and writes nothing", async () => {
    const { order, raise } = await paidOrder();
    await expectRejected(server, "orders.change_items", key, [
      { orderId: order.id, items: raise, collectWith: "cash" },
      { orderId: order.id, items: raise, collectWith: { giftCardCode: "short" } },
      { orderId: order.id, items: raise, collectWith: { giftCardCode: "AAAA-BBBB-CCCC-DDDD", extra: 1 } },
    ]);
    await expectRejected(server, "orders.record_payment", key, [{}, { orderId: "" }, { orderId: order.id, amountDkk: 5 }]);
  });
});
