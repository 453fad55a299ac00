// orders.change_payment through real HTTP: a paid, unshipped order paid another way. A gift card pays at once and the
// old money goes back in the same transaction (card at the Stripe fake, bank transfer as a refund task, gift cards
// re-credited); a payment link leaves the whole amount outstanding, and the old money goes back once the signed webhook
// (or orders.record_payment for a bank transfer) books the new payment. Two changes, or a change and an edit, racing for
// one order never charge or refund twice: the ledger holds exactly what the order costs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROFILES, STOREFRONT_TOOLS } from "../../../src/assistants/assistant-profiles.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { sendStripeEvent, sessionCompleted, startFakeStripe, type FakeStripe } from "../../support/fake-stripe.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createOrder, orderState, paidAtStripe as paidAtStripeFake, usePaymentProviders } from "./fixtures.ts";

const SECRET = "whsec_change_payment";
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const { server, keys: { key } } = useServer({
  keys: { key: ["orders:write", "orders:read", "giftcards:write"] },
  config: () => ({ stripeSecretKey: "sk_test_change_payment", stripeWebhookSecret: SECRET, stripeApiUrl: stripe.url }),
});

const prisma = () => server.prisma;
type Changed = { orderId: string; status: string; paidDkk: number; returnedDkk: number; outstandingDkk: number; paymentUrl: string | null };
type Entry = { kind: string; method: string; amountDkk: number; reference: string | null };

const change = (orderId: string, payWith: unknown, extra: object = {}) => server.call("orders.change_payment", { orderId, payWith, ...extra }, { key });
const changed = async (orderId: string, payWith: unknown, extra: object = {}) => expectOk<Changed>(server, "orders.change_payment", await change(orderId, payWith, extra));
const payments = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key }));
const issue = async (amountDkk: number) => expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk }, { key })).code;
const balance = async (code: string) => (await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk;
const refundsAtStripe = () => stripe.requests.filter((r) => r.path === "/v1/refunds");

/** The ledger holds what the order costs, and no payment was given back more than it paid. */
async function expectLedgerHolds(orderId: string, outstanding = 0n) {
  const order = await prisma().order.findUniqueOrThrow({ where: { id: orderId } });
  const entries = await payments(orderId);
  const sum = (kind: string[]) => BigInt(entries.filter((e) => kind.includes(e.kind)).reduce((total, e) => total + e.amountDkk, 0));
  expect(sum(["payment"]) - sum(["refund", "store_credit"])).toBe(order.totalDkk - order.refundedDkk - outstanding);
  expect(order.outstandingDkk).toBe(outstanding);
}

const paidAtStripe = (orderId: string, paymentMethod?: string) => paidAtStripeFake(server, stripe.url, orderId, paymentMethod);

const { useManualPayments } = usePaymentProviders(server);

describe("orders.change_payment", () => {
  it("moves a card-paid order to a gift card: the card pays it all and Stripe refunds the old payment, in one transaction", async () => {
    const order = await createOrder(server, { quantities: [1] });
    const intent = await paidAtStripe(order.id);
    const code = await issue(Number(order.totalDkk) + 500);
    const before = refundsAtStripe().length;
    const result = await changed(order.id, { giftCardCode: code });
    expect(result).toEqual({ orderId: order.id, status: "paid", paidDkk: Number(order.totalDkk), returnedDkk: Number(order.totalDkk), outstandingDkk: 0, paymentUrl: null });
    expect(await balance(code)).toBe(500n);
    const refunds = refundsAtStripe().slice(before);
    expect(refunds.map((r) => [r.form.get("payment_intent"), r.form.get("amount")])).toEqual([[intent, String(order.totalDkk)]]);
    expect((await payments(order.id)).map((e) => [e.kind, e.method, e.amountDkk])).toEqual([
      ["payment", "card", Number(order.totalDkk)],
      ["refund", "card", Number(order.totalDkk)],
      ["payment", "gift_card", Number(order.totalDkk)],
    ]);
    await expectLedgerHolds(order.id);
    expect(await lastAudit(server)).toMatchObject({ tool: "orders.change_payment", subjectType: "order", subjectId: order.id });

    // Cancelling afterwards gives the gift card its money back, and nothing more goes to the old card.
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Fortrudt" }, { key }));
    expect(await balance(code)).toBe(order.totalDkk + 500n);
    expect(refundsAtStripe().length - before).toBe(1);
  });

  it("refunds a bank transfer as a staff task with the account given", async () => {
    const order = await createOrder(server, { quantities: [1], status: "processing" });
    const code = await issue(Number(order.totalDkk));
    await changed(order.id, { giftCardCode: code }, { refundAccount: "1234 0012345678" });
    expect(await prisma().refundTask.findMany({ where: { orderId: order.id } })).toMatchObject([{ amountDkk: order.totalDkk, account: "1234 0012345678", status: "open" }]);
    expect(await balance(code)).toBe(0n);
    await expectLedgerHolds(order.id);
  });

  it("pays again with the gift card that paid it before without charging it twice", async () => {
    const order = await createOrder(server, { quantities: [1] });
    const code = await issue(Number(order.totalDkk));
    await changed(order.id, { giftCardCode: code });
    expect(await balance(code)).toBe(0n);
    await changed(order.id, { giftCardCode: code });
    expect(await balance(code)).toBe(0n);
    await expectLedgerHolds(order.id);
  });

  it("sends a Stripe link for the whole amount; the old payment is refunded only when the webhook books the new one", async () => {
    const mail = captureMail(server);
    const order = await createOrder(server, { quantities: [1] });
    const intent = await paidAtStripe(order.id);
    const result = await changed(order.id, "payment_link");
    expect(result).toMatchObject({ paidDkk: 0, returnedDkk: 0, outstandingDkk: Number(order.totalDkk) });
    expect(result.paymentUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const message = mail.sent.find((m) => m.to === order.email)!;
    expect(message.subject).toContain("Ny betaling af din ordre");
    expect(message.text).toContain(result.paymentUrl!);
    expectProblem(await server.call("orders.update_status", { orderId: order.id, status: "shipped" }, { key }), 422, "payment_outstanding");
    const before = refundsAtStripe().length;
    const sessionId = result.paymentUrl!.split("/").at(-1)!;
    expect((await sendStripeEvent(server.url, sessionCompleted(`evt_change_${order.id}`, order.id, sessionId, `pi_new_${order.id}`), SECRET)).status).toBe(200);
    const refunds = refundsAtStripe().slice(before);
    expect(refunds.map((r) => [r.form.get("payment_intent"), r.form.get("amount")])).toEqual([[intent, String(order.totalDkk)]]);
    expect((await payments(order.id)).map((e) => [e.kind, e.amountDkk, e.reference?.slice(0, 3)])).toEqual([
      ["payment", Number(order.totalDkk), "pi_"],
      ["payment", Number(order.totalDkk), "pi_"],
      ["refund", Number(order.totalDkk), "re_"],
    ]);
    await expectLedgerHolds(order.id);
  });

  it("on a shop without Stripe: the bank-transfer page, and orders.record_payment books it and refunds the old money", async () => {
    useManualPayments();
    const order = await createOrder(server, { quantities: [1] });
    const result = await changed(order.id, "payment_link");
    expect(result.paymentUrl).toMatch(new RegExp(`/orders/${order.id}/pay\\?token=`));
    // Until the transfer comes the old money stays, and the whole amount is outstanding.
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).outstandingDkk).toBe(order.totalDkk);
    expect((await payments(order.id)).map((e) => e.kind)).toEqual(["payment"]);
    const booked = expectOk<{ paidDkk: number; returnedDkk: number }>(server, "orders.record_payment", await server.call("orders.record_payment", { orderId: order.id }, { key }));
    expect(booked).toMatchObject({ paidDkk: Number(order.totalDkk), returnedDkk: Number(order.totalDkk) });
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(1);
    await expectLedgerHolds(order.id);
  });

  it("refuses an unpaid, a shipped or an unknown order, and a card that cannot cover it, writing nothing", async () => {
    const unpaid = await createOrder(server, { status: "pending_payment" });
    expectProblem(await change(unpaid.id, "payment_link"), 422, "not_paid");
    const shipped = await createOrder(server, { status: "shipped" });
    expectProblem(await change(shipped.id, "payment_link"), 422, "already_shipped");
    expectProblem(await change("no-such-order", "payment_link"), 404);
    const order = await createOrder(server, { quantities: [1] });
    const code = await issue(Number(order.totalDkk) - 1);
    const expired = await issue(Number(order.totalDkk));
    await prisma().giftCard.update({ where: { code: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = await orderState(server, order.id);
    expectProblem(await change(order.id, { giftCardCode: code }), 422, "insufficient_balance");
    expectProblem(await change(order.id, { giftCardCode: expired }), 422, "giftcard_expired");
    expectProblem(await change(order.id, { giftCardCode: "AAAA-BBBB-CCCC-DDDD" }), 404);
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("never charges or refunds twice when two changes race for one order", async () => {
    const order = await createOrder(server, { quantities: [1] });
    const intent = await paidAtStripe(order.id);
    const [a, b] = [await issue(Number(order.totalDkk)), await issue(Number(order.totalDkk))];
    const before = refundsAtStripe().length;
    const both = await Promise.all([change(order.id, { giftCardCode: a }), change(order.id, { giftCardCode: b })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    // One after the other: the old card refunded once, the first gift card given back when the second paid.
    expect(refundsAtStripe().slice(before).map((r) => r.form.get("payment_intent"))).toEqual([intent]);
    const balances = [await balance(a), await balance(b)].sort();
    expect(balances).toEqual([0n, order.totalDkk]);
    await expectLedgerHolds(order.id);
  });

  it("never collects twice when a change and an item edit race for one order", async () => {
    const order = await createOrder(server, { quantities: [1] });
    const line = order.items[0]!;
    await prisma().product.update({ where: { id: line.productId }, data: { stock: 20n } });
    const code = await issue(Number(order.totalDkk) * 3);
    const raced = await Promise.all([
      change(order.id, { giftCardCode: code }),
      server.call("orders.change_items", { orderId: order.id, items: [{ orderItemId: line.id, quantity: 2 }], collectWith: { giftCardCode: code } }, { key }),
    ]);
    expect(raced.map((r) => r.status)).toEqual([200, 200]);
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    // The card paid exactly what the order costs now, and the bank transfer went back once.
    const spent = order.totalDkk * 3n - (await balance(code));
    expect(spent).toBe(row.totalDkk);
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(1);
    await expectLedgerHolds(order.id);
  });

  it("waits for approval in the admin assistant, and the storefront assistant does not offer it", () => {
    for (const name of ["orders.change_payment", "orders.record_payment"]) {
      expect(PROFILES.admin.needsApproval(server.runtime.registry.get(name)!)).toBe(true);
      expect(STOREFRONT_TOOLS).not.toContain(name);
    }
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { quantities: [1] });
    await expectScopeMatrix(server, "orders.change_payment", { orderId: order.id, payWith: "payment_link" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { quantities: [1] });
    await expectRejected(server, "orders.change_payment", key, [
      { orderId: order.id },
      { payWith: "payment_link" },
      { orderId: order.id, payWith: "original_card" },
      { orderId: order.id, payWith: { giftCardCode: "short" } },
      { orderId: order.id, payWith: "payment_link", extra: true },
    ]);
  });
});
