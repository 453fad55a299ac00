// returns.receive through real HTTP: the parcel is back, so its units are restocked and what they cost is refunded in the
// same transaction (bank transfer as a refund task, card at the Stripe fake, store credit), shipping too once the whole
// order is withdrawn; an exchange makes a replacement order instead. Races never refund twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml, formatMoney } from "../../../src/core/format.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { startFakeStripe, type FakeStripe } from "../../support/fake-stripe.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { deliveredVariantOrder, openReturn, returnState, shippedOrder, type ReturnView, type ShippedSeed } from "./fixtures.ts";

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const { server, keys: { key } } = useServer({ keys: { key: ["returns:write", "returns:read", "orders:read", "orders:write", "payments:write"] }, config: () => ({ stripeSecretKey: "sk_test_returns", stripeApiUrl: stripe.url }) });
const prisma = () => server.prisma;
const receive = (returnId: string, input: object = {}) => server.call("returns.receive", { returnId, ...input }, { key });
type Entry = { kind: string; method: string; amountDkk: number; reference: string | null };
const ledger = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key }));
const stockOf = async (productId: string) => (await prisma().product.findUniqueOrThrow({ where: { id: productId } })).stock;
const variantStock = async (id: string) => (await prisma().productVariant.findUniqueOrThrow({ where: { id } })).stock;

const variantOrder = (size: "s" | "m" | "l", seed: ShippedSeed = {}) => deliveredVariantOrder(server, size, seed);

describe("returns.receive", () => {
  it("restocks a withdrawn unit and refunds what it cost as a bank-transfer refund task, in one go, mailing the shopper", async () => {
    const mail = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [2, 1] });
    const line = order.items.find((item) => item.quantity === 2)!;
    const approved = await openReturn(server, key, order, { quantities: order.items.map((item) => (item.id === line.id ? 1 : 0)), approve: true });
    const stock = await stockOf(line.productId);
    const result = expectOk<ReturnView>(server, "returns.receive", await receive(approved.returnId, { refundAccount: "1234 0012345678" }));
    expect(result).toMatchObject({ returnId: approved.returnId, status: "refunded", refundDkk: Number(line.unitPriceDkk), replacementOrderId: null });
    expect(await stockOf(line.productId)).toBe(stock + 1n);
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ status: "partial_refund", refundedDkk: line.unitPriceDkk });
    expect((await ledger(order.id)).at(-1)).toMatchObject({ kind: "refund", method: "bank_transfer", amountDkk: Number(line.unitPriceDkk) });
    expect(await prisma().refundTask.findMany({ where: { orderId: order.id } })).toMatchObject([{ amountDkk: line.unitPriceDkk, account: "1234 0012345678", status: "open" }]);
    const reference = `R-${approved.returnId.slice(-8).toUpperCase()}`;
    expect(await prisma().orderStatusChange.findFirst({ where: { orderId: order.id, toStatus: "partial_refund" } })).toMatchObject({ fromStatus: "delivered", reason: `Retur ${reference}` });
    expect(await lastAudit(server)).toMatchObject({ tool: "returns.receive", subjectType: "return", subjectId: approved.returnId, before: { status: "approved" }, after: { status: "refunded", refundTo: "original" } });
    await expect.poll(() => mail.sent.find((m) => m.to === order.email && m.subject.includes("refunderet"))?.text ?? "").toContain("til din bankkonto");
    const message = mail.sent.find((m) => m.to === order.email && m.subject.includes("refunderet"))!;
    expect(message.subject).toContain(reference);
    expect(message.text).toContain(`Vi har refunderet ${(Number(line.unitPriceDkk) / 100).toFixed(2).replace(".", ",").replace(/\B(?=(\d{3})+(?!\d))/, ".")} kr.`);
    expect(await prisma().emailMessage.count({ where: { orderId: order.id, kind: "refund_issued" } })).toBe(1);
  });

  it("refunds the standard shipping with the return that completes a whole order's withdrawal, and the order becomes refunded", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1, 2], shippingDkk: 4900 });
    const [a, b] = order.items;
    const first = await openReturn(server, key, order, { quantities: order.items.map((item) => (item.id === a!.id ? 1 : 0)), approve: true });
    const second = await openReturn(server, key, order, { quantities: order.items.map((item) => (item.id === b!.id ? 2 : 0)), approve: true });
    expect(expectOk<ReturnView>(server, "returns.receive", await receive(first.returnId)).refundDkk).toBe(Number(a!.unitPriceDkk));
    expect(expectOk<ReturnView>(server, "returns.receive", await receive(second.returnId)).refundDkk).toBe(Number(b!.unitPriceDkk) * 2 + 4900);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "refunded", refundedDkk: order.totalDkk });
  });

  it("does not refund shipping when part of the order was a complaint, and restocks a complaint only when told", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1, 1] });
    const [a, b] = order.items;
    const complaint = await openReturn(server, key, order, { kind: "complaint", quantities: order.items.map((item) => (item.id === a!.id ? 1 : 0)), approve: true });
    const withdrawal = await openReturn(server, key, order, { quantities: order.items.map((item) => (item.id === b!.id ? 1 : 0)), approve: true });
    const stock = await stockOf(a!.productId);
    expectOk(server, "returns.receive", await receive(complaint.returnId));
    expect(await stockOf(a!.productId)).toBe(stock);
    expect(expectOk<ReturnView>(server, "returns.receive", await receive(withdrawal.returnId)).refundDkk).toBe(Number(b!.unitPriceDkk));
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).refundedDkk).toBe(order.totalDkk - order.shippingDkk);

    const again = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1] });
    const restocked = await openReturn(server, key, again, { kind: "complaint", approve: true });
    const before = await stockOf(again.items[0]!.productId);
    expectOk(server, "returns.receive", await receive(restocked.returnId, { restock: true }));
    expect(await stockOf(again.items[0]!.productId)).toBe(before + 1n);
  });

  it("shares the order's discount out over the returned units so that all of them come to what was paid", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1, 3], discountDkk: 10001, shippingDkk: 0 });
    let refunded = 0;
    for (const [i, item] of order.items.entries()) {
      for (let n = 0; n < item.quantity; n++) {
        const ret = await openReturn(server, key, order, { quantities: order.items.map((_, j) => (j === i ? 1 : 0)), approve: true });
        const result = expectOk<ReturnView>(server, "returns.receive", await receive(ret.returnId));
        expect(result.refundDkk!).toBeLessThanOrEqual(Number(item.unitPriceDkk));
        refunded += result.refundDkk!;
      }
    }
    expect(refunded).toBe(Number(order.subtotalDkk) - 10001);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "refunded", refundedDkk: order.totalDkk });
  });

  it("refunds a card payment at Stripe through the SDK with Stripe's refund id in the ledger", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1, 1] });
    await prisma().order.update({ where: { id: order.id }, data: { paymentProvider: "stripe", paymentMethod: "card", paymentProviderPaymentIntentId: `pi_ok_${order.id}` } });
    await prisma().paymentEntry.updateMany({ where: { orderId: order.id }, data: { method: "card", reference: `pi_ok_${order.id}` } });
    const approved = await openReturn(server, key, order, { quantities: [1, 0], approve: true });
    const before = stripe.requests.length;
    expectOk(server, "returns.receive", await receive(approved.returnId));
    const sent = stripe.requests.slice(before).filter((r) => r.path === "/v1/refunds");
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(sent[0]!.form)).toMatchObject({ payment_intent: `pi_ok_${order.id}`, amount: String(order.items[0]!.unitPriceDkk) });
    expect((await ledger(order.id)).at(-1)).toMatchObject({ kind: "refund", method: "card", amountDkk: Number(order.items[0]!.unitPriceDkk), reference: expect.stringMatching(/^re_test_/) });
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("leaves everything as it was when Stripe refuses the refund (422 refund_failed)", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1] });
    await prisma().order.update({ where: { id: order.id }, data: { paymentProvider: "stripe", paymentMethod: "card", paymentProviderPaymentIntentId: `pi_fail_${order.id}` } });
    await prisma().paymentEntry.updateMany({ where: { orderId: order.id }, data: { method: "card", reference: `pi_fail_${order.id}` } });
    const approved = await openReturn(server, key, order, { approve: true });
    const before = await returnState(server, order.id);
    expectProblem(await receive(approved.returnId), 422, "refund_failed");
    expect(await returnState(server, order.id)).toEqual(before);
  });

  it("gives store credit when asked: a gift card for the amount, booked as store_credit", async () => {
    const mail = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1, 1] });
    const approved = await openReturn(server, key, order, { quantities: [1, 0], approve: true });
    expectOk(server, "returns.receive", await receive(approved.returnId, { refundTo: "store_credit" }));
    const card = await prisma().giftCard.findFirstOrThrow({ where: { orderId: order.id } });
    expect(card).toMatchObject({ source: "store_credit", balanceDkk: order.items[0]!.unitPriceDkk, customerEmail: order.email });
    expect((await ledger(order.id)).at(-1)).toMatchObject({ kind: "store_credit", method: "gift_card", amountDkk: Number(order.items[0]!.unitPriceDkk) });
    await expect.poll(() => mail.sent.find((m) => m.to === order.email && m.subject.includes("refunderet"))?.text ?? "").toContain("som tilgodebevis");
  });

  it("exchanges for a variant at the same price: a replacement paid by what the returned unit was paid, no refund, the old unit restocked", async () => {
    const mail = captureMail(server);
    const { order, s, m } = await variantOrder("s");
    const approved = await openReturn(server, key, order, { exchangeVariantId: m.id, approve: true });
    expect(await variantStock(m.id)).toBe(4n);
    const result = expectOk<ReturnView>(server, "returns.receive", await receive(approved.returnId));
    expect(result).toMatchObject({ status: "received", refundDkk: 0, exchangeVariantId: m.id, replacementOrderId: expect.any(String) });
    expect(await variantStock(m.id)).toBe(4n);
    expect(await variantStock(s.id)).toBe(6n);
    const replacement = await prisma().order.findUniqueOrThrow({ where: { id: result.replacementOrderId! }, include: { items: true, notes: true } });
    expect(replacement).toMatchObject({ status: "paid", channel: "exchange", email: order.email, shippingAddress: order.shippingAddress, shippingDkk: 0n, totalDkk: replacement.subtotalDkk, discountDkk: 0n });
    expect(replacement.items).toMatchObject([{ variantId: m.id, variantSku: m.sku, quantity: 1 }]);
    expect(replacement.notes[0]!.body).toContain(`#${order.number}`);
    // The money left the original for the replacement: a transfer, no refund to the shopper.
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "partial_refund", refundedDkk: replacement.totalDkk });
    expect((await ledger(order.id)).filter((e) => e.kind !== "payment")).toMatchObject([{ kind: "refund", method: "exchange", amountDkk: Number(replacement.totalDkk), reference: `#${replacement.number}` }]);
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(0);
    await expect.poll(() => mail.sent.find((m) => m.to === order.email && m.subject.startsWith("Din ombytning"))?.text ?? "").toContain(`ordre #${replacement.number} uden fragt`);
    await expect.poll(() => prisma().emailMessage.count({ where: { orderId: replacement.id, kind: "order_confirmation" } })).toBe(1);
  });

  it("leaves a dearer variant's difference to pay on the replacement order, with its payment link in the mail", async () => {
    const mail = captureMail(server);
    const { order, l, unit } = await variantOrder("s");
    const approved = await openReturn(server, key, order, { exchangeVariantId: l.id, approve: true });
    const result = expectOk<ReturnView>(server, "returns.receive", await receive(approved.returnId));
    const replacement = await prisma().order.findUniqueOrThrow({ where: { id: result.replacementOrderId! } });
    expect(replacement).toMatchObject({ status: "pending_payment", subtotalDkk: l.priceDkk!, discountDkk: 0n, totalDkk: l.priceDkk!, paymentProviderSessionId: expect.stringMatching(/^cs_test_/) });
    expect(result.refundDkk).toBe(0);
    // This shop takes cards through Stripe: the link is the replacement's Checkout Session, for the difference only.
    const session = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(session.form.get("client_reference_id")).toBe(replacement.id);
    expect(session.form.get("line_items[0][price_data][unit_amount]")).toBe(String(l.priceDkk! - unit));
    await expect.poll(() => mail.sent.find((m) => m.to === order.email && m.subject.startsWith("Din ombytning"))?.text ?? "").toContain(`Betal forskellen her, så sender vi den: https://checkout.stripe.test/c/pay/${replacement.paymentProviderSessionId}`);
  });

  it("refunds a cheaper variant's difference on the original order", async () => {
    const { order, s, unit } = await variantOrder("l");
    const approved = await openReturn(server, key, order, { exchangeVariantId: s.id, approve: true });
    const result = expectOk<ReturnView>(server, "returns.receive", await receive(approved.returnId));
    const difference = unit - s.product.priceDkk;
    expect(result).toMatchObject({ status: "refunded", refundDkk: Number(difference) });
    expect(await prisma().order.findUniqueOrThrow({ where: { id: result.replacementOrderId! } })).toMatchObject({ status: "paid", totalDkk: s.product.priceDkk });
    // The difference went back to the shopper, the rest on to the replacement.
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "partial_refund", refundedDkk: unit });
    expect((await ledger(order.id)).filter((e) => e.kind !== "payment").map((e) => [e.method, e.amountDkk])).toEqual([["bank_transfer", Number(difference)], ["exchange", Number(s.product.priceDkk)]]);
  });

  it("refunds once when two receipts of the same return race, and exactly the whole when two returns of one order do", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1, 1] });
    const approved = await openReturn(server, key, order, { quantities: [1, 0], approve: true });
    const answers = await Promise.all([receive(approved.returnId), receive(approved.returnId)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expectProblem(answers.find((a) => a.status === 422)!, 422, "illegal_transition");
    expect((await ledger(order.id)).filter((e) => e.kind === "refund").map((e) => e.amountDkk)).toEqual([Number(order.items[0]!.unitPriceDkk)]);
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(1);

    const whole = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1, 1] });
    const both = [await openReturn(server, key, whole, { quantities: [1, 0], approve: true }), await openReturn(server, key, whole, { quantities: [0, 1], approve: true })];
    const results = await Promise.all(both.map((ret) => receive(ret.returnId)));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const refunds = (await ledger(whole.id)).filter((e) => e.kind === "refund").reduce((sum, e) => sum + e.amountDkk, 0);
    expect(refunds).toBe(Number(whole.totalDkk));
    expect(await prisma().order.findUniqueOrThrow({ where: { id: whole.id } })).toMatchObject({ status: "refunded", refundedDkk: whole.totalDkk });
  });

  it("refuses a return that is not approved (422 illegal_transition) and an unknown one (404), writing nothing", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1, 1] });
    const requested = await openReturn(server, key, order, { quantities: [1, 0] });
    const before = await returnState(server, order.id);
    expectProblem(await receive(requested.returnId), 422, "illegal_transition");
    expectProblem(await receive("no-such-return"), 404, "not_found");
    expect(await returnState(server, order.id)).toEqual(before);
  });

  it("needs returns:write", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3 });
    await expectScopeMatrix(server, "returns.receive", { returnId: (await openReturn(server, key, order, { approve: true })).returnId });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 3 });
    const { returnId } = await openReturn(server, key, order, { approve: true });
    await expectRejected(
      server,
      "returns.receive",
      key,
      [{}, { returnId: "" }, { returnId, refundTo: "cash" }, { returnId, refundAccount: "1" }, { returnId, restock: "yes" }, { returnId, amountDkk: 100 }],
      () => returnState(server, order.id),
    );
  });
});

describe("returns.receive: the money follows exchanged goods", () => {
  type Shipped = Parameters<typeof openReturn>[2];
  const call = (name: string, input: object) => server.call(name, input, { key });
  const withItems = (id: string) => prisma().order.findUniqueOrThrow({ where: { id }, include: { items: true } });
  /** Ships and delivers an order through orders.update_status, so it may be returned. */
  async function deliver(orderId: string) {
    for (const status of ["shipped", "delivered"]) expectOk(server, "orders.update_status", await call("orders.update_status", { orderId, status }));
    return withItems(orderId);
  }
  /** Pays what a replacement order still owes, as Stripe's webhook would, with the PaymentIntent `intent`. */
  async function payAtStripe(orderId: string, intent: string) {
    expectOk(server, "orders.apply_payment_event", await call("orders.apply_payment_event", { eventId: `evt_${intent}`, provider: "stripe", type: "checkout.session.completed", orderId, paymentIntentId: intent, paymentMethod: "card", paid: true }));
  }
  /** Exchanges every unit of `order` for `variantId` and returns the replacement order. */
  async function exchange(order: Shipped, variantId: string, quantities?: number[]) {
    const ret = await openReturn(server, key, order, { exchangeVariantId: variantId, approve: true, ...(quantities && { quantities }) });
    const result = expectOk<ReturnView>(server, "returns.receive", await receive(ret.returnId));
    return { result, replacement: await withItems(result.replacementOrderId!) };
  }
  /** Withdraws every unit of a delivered order and returns what the receipt refunded. */
  async function withdraw(order: Shipped) {
    const ret = await openReturn(server, key, order, { approve: true });
    return expectOk<ReturnView>(server, "returns.receive", await receive(ret.returnId, { refundAccount: "1234 0012345678" }));
  }
  /**
   * What the shopper paid across an order and its replacements and what went back to them, read from the ledgers
   * (orders.payments): a move of money to a replacement (method exchange) is a refund on one order and a payment on the
   * other, so it counts on neither side.
   */
  async function chainMoney(...orderIds: string[]) {
    const entries = (await Promise.all(orderIds.map(ledger))).flat();
    const sum = (keep: (e: Entry) => boolean) => entries.filter(keep).reduce((total, e) => total + e.amountDkk, 0);
    const moved = sum((e) => e.kind === "refund" && e.method === "exchange");
    return { paid: sum((e) => e.kind === "payment") - moved, refunded: sum((e) => e.kind !== "payment") - moved };
  }

  it("gives back what was paid for the goods when the replacement of a same-price exchange is withdrawn", async () => {
    const { order, s, unit } = await variantOrder("m");
    const { result, replacement } = await exchange(order, s.id);
    expect(result).toMatchObject({ status: "received", refundDkk: 0 });
    expect(replacement).toMatchObject({ status: "paid", subtotalDkk: unit, discountDkk: 0n, totalDkk: unit, shippingDkk: 0n });
    // The money paid for the returned unit moves to the replacement, under the original's payment method.
    expect(await ledger(replacement.id)).toMatchObject([{ kind: "payment", method: "bank_transfer", amountDkk: Number(unit) }]);
    expect((await ledger(order.id)).at(-1)).toMatchObject({ kind: "refund", method: "exchange", amountDkk: Number(unit), reference: `#${replacement.number}` });
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "partial_refund", refundedDkk: unit });

    const stock = await variantStock(s.id);
    const back = await withdraw(await deliver(replacement.id));
    expect(back).toMatchObject({ status: "refunded", refundDkk: Number(unit) });
    expect(await variantStock(s.id)).toBe(stock + 1n);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: replacement.id } })).toMatchObject({ status: "refunded", refundedDkk: unit });
    // The original was paid by bank transfer: staff pay the refund out by hand, to the account the shopper gave.
    expect(await prisma().refundTask.findMany({ where: { orderId: replacement.id } })).toMatchObject([{ amountDkk: unit, account: "1234 0012345678" }]);
    expect(await chainMoney(order.id, replacement.id)).toEqual({ paid: Number(order.totalDkk), refunded: Number(unit) });
  });

  it("refunds the credit an unshipped replacement carries when it is cancelled, paid or still owing the difference", async () => {
    const same = await variantOrder("m");
    const { replacement: paid } = await exchange(same.order, same.s.id);
    const stock = await variantStock(same.s.id);
    expectOk(server, "orders.cancel", await call("orders.cancel", { orderId: paid.id, reason: "Fortrudt" }));
    expect(await prisma().order.findUniqueOrThrow({ where: { id: paid.id } })).toMatchObject({ status: "cancelled", refundedDkk: same.unit });
    expect((await ledger(paid.id)).at(-1)).toMatchObject({ kind: "refund", method: "bank_transfer", amountDkk: Number(same.unit) });
    expect(await variantStock(same.s.id)).toBe(stock + 1n);
    expect(await chainMoney(same.order.id, paid.id)).toEqual({ paid: Number(same.order.totalDkk), refunded: Number(same.unit) });

    const dearer = await variantOrder("s");
    const { replacement: owing } = await exchange(dearer.order, dearer.l.id);
    expect(owing.status).toBe("pending_payment");
    expectOk(server, "orders.cancel", await call("orders.cancel", { orderId: owing.id, reason: "Fortrudt" }));
    expect(await prisma().order.findUniqueOrThrow({ where: { id: owing.id } })).toMatchObject({ status: "cancelled", refundedDkk: dearer.unit });
    expect(await chainMoney(dearer.order.id, owing.id)).toEqual({ paid: Number(dearer.order.totalDkk), refunded: Number(dearer.unit) });
  });

  it("gives back everything paid, the original's money and the difference, when a dearer replacement is withdrawn", async () => {
    const { order, l, unit } = await variantOrder("s");
    const { replacement } = await exchange(order, l.id);
    expect(replacement).toMatchObject({ status: "pending_payment", subtotalDkk: l.priceDkk!, discountDkk: 0n, totalDkk: l.priceDkk! });
    const payment = expectOk<{ outstandingDkk: number }>(server, "orders.get_payment", await call("orders.get_payment", { orderId: replacement.id }));
    expect(payment.outstandingDkk).toBe(Number(l.priceDkk! - unit));
    // The payment page says what the returned goods already paid and what is left.
    const page = new URL(server.runtime.collaborators.payments.pageUrl(replacement.id));
    const html = await (await fetch(`${server.url}${page.pathname}${page.search}`)).text();
    expect(html).toContain(`Allerede betalt</th><td class="num">−${escapeHtml(formatMoney(unit, "DKK"))}`);
    expect(html).toContain(`Tilbage at betale</th><td class="num price">${escapeHtml(formatMoney(l.priceDkk! - unit, "DKK"))}`);
    await payAtStripe(replacement.id, `pi_ok_${replacement.id}`);
    expect(await ledger(replacement.id)).toMatchObject([
      { kind: "payment", method: "bank_transfer", amountDkk: Number(unit) },
      { kind: "payment", method: "card", amountDkk: Number(l.priceDkk! - unit), reference: `pi_ok_${replacement.id}` },
    ]);
    const before = stripe.requests.length;
    const back = await withdraw(await deliver(replacement.id));
    expect(back).toMatchObject({ status: "refunded", refundDkk: Number(l.priceDkk!) });
    // The difference goes back to the card that paid it, the original's money to where the original came from.
    const refunds = stripe.requests.slice(before).filter((r) => r.path === "/v1/refunds").map((r) => Object.fromEntries(r.form));
    expect(refunds).toMatchObject([{ payment_intent: `pi_ok_${replacement.id}`, amount: String(l.priceDkk! - unit) }]);
    expect(await prisma().refundTask.findMany({ where: { orderId: replacement.id } })).toMatchObject([{ amountDkk: unit }]);
    expect(await chainMoney(order.id, replacement.id)).toEqual({ paid: Number(order.totalDkk + l.priceDkk! - unit), refunded: Number(l.priceDkk!) });
  });

  it("refunds a cheaper variant's difference at once and the rest when its replacement is withdrawn", async () => {
    const { order, s, unit } = await variantOrder("l");
    const { result, replacement } = await exchange(order, s.id);
    const price = s.product.priceDkk;
    expect(result).toMatchObject({ status: "refunded", refundDkk: Number(unit - price) });
    expect(replacement).toMatchObject({ status: "paid", totalDkk: price });
    expect(await ledger(replacement.id)).toMatchObject([{ kind: "payment", amountDkk: Number(price) }]);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "partial_refund", refundedDkk: unit });
    expect((await withdraw(await deliver(replacement.id))).refundDkk).toBe(Number(price));
    expect(await chainMoney(order.id, replacement.id)).toEqual({ paid: Number(order.totalDkk), refunded: Number(unit) });
  });

  it("follows a chain M → L → S: withdrawing S at the end gives back all that was paid for the goods", async () => {
    const { order, l, s, unit } = await variantOrder("m");
    const { replacement: large } = await exchange(order, l.id);
    await payAtStripe(large.id, `pi_ok_${large.id}`);
    const before = stripe.requests.length;
    const { result, replacement: small } = await exchange(await deliver(large.id), s.id);
    // L cost 100 kr. more than S: the difference goes back to the card that paid it, at once.
    expect(result.refundDkk).toBe(Number(l.priceDkk! - unit));
    expect(stripe.requests.slice(before).filter((r) => r.path === "/v1/refunds").map((r) => r.form.get("payment_intent"))).toEqual([`pi_ok_${large.id}`]);
    expect(small).toMatchObject({ status: "paid", totalDkk: unit });
    const back = await withdraw(await deliver(small.id));
    expect(back.refundDkk).toBe(Number(unit));
    const chain = await chainMoney(order.id, large.id, small.id);
    expect(chain).toEqual({ paid: Number(order.totalDkk + l.priceDkk! - unit), refunded: Number(l.priceDkk!) });
    // Everything but the original's shipping went back.
    expect(chain.paid - chain.refunded).toBe(Number(order.shippingDkk));
  });

  it("credits what was paid for the returned unit, its discount included, and carries its discount rate to a dearer or cheaper variant", async () => {
    /** The replacement's price: the new variant's price at the rate the shopper paid for the returned unit. */
    const atRate = (price: bigint, paid: bigint, listed: bigint) => (price * paid * 2n + listed) / (listed * 2n);
    const dearer = await variantOrder("s", { discountDkk: 5000 });
    const { replacement } = await exchange(dearer.order, dearer.l.id);
    const paidForUnit = dearer.unit - 5000n;
    const dearerPrice = atRate(dearer.l.priceDkk!, paidForUnit, dearer.unit);
    expect(replacement).toMatchObject({ subtotalDkk: dearer.l.priceDkk!, discountDkk: dearer.l.priceDkk! - dearerPrice, totalDkk: dearerPrice });
    expect(await ledger(replacement.id)).toMatchObject([{ kind: "payment", amountDkk: Number(paidForUnit) }]);
    const payment = expectOk<{ outstandingDkk: number }>(server, "orders.get_payment", await call("orders.get_payment", { orderId: replacement.id }));
    expect(payment.outstandingDkk).toBe(Number(dearerPrice - paidForUnit));

    const cheaper = await variantOrder("l", { discountDkk: 5000 });
    const paidForL = cheaper.unit - 5000n;
    const price = atRate(cheaper.s.product.priceDkk, paidForL, cheaper.unit);
    const { result, replacement: small } = await exchange(cheaper.order, cheaper.s.id);
    expect(result.refundDkk).toBe(Number(paidForL - price));
    expect(await ledger(small.id)).toMatchObject([{ kind: "payment", amountDkk: Number(price) }]);
    expect(await chainMoney(cheaper.order.id, small.id)).toEqual({ paid: Number(cheaper.order.totalDkk), refunded: Number(paidForL - price) });
  });

  it("swaps a discounted unit for another size at the same price with nothing more to pay", async () => {
    const { order, m } = await variantOrder("s", { discountDkk: 5000 });
    const { replacement } = await exchange(order, m.id);
    expect(replacement).toMatchObject({ status: "paid", totalDkk: order.totalDkk - order.shippingDkk });
  });

  it("never refunds more than was paid when a replacement's cancellation races a return of the original", async () => {
    const { order, s, unit } = await variantOrder("m", { quantities: [2] });
    const intent = `pi_ok_${order.id}`;
    await prisma().order.update({ where: { id: order.id }, data: { paymentProvider: "stripe", paymentMethod: "card", paymentProviderPaymentIntentId: intent } });
    await prisma().paymentEntry.updateMany({ where: { orderId: order.id }, data: { method: "card", reference: intent } });
    const { replacement } = await exchange(order, s.id, [1]);
    expect(await ledger(replacement.id)).toMatchObject([{ kind: "payment", method: "card", amountDkk: Number(unit), reference: intent }]);
    const other = await openReturn(server, key, order, { quantities: [1], approve: true });
    const before = stripe.requests.length;
    const cancel = () => call("orders.cancel", { orderId: replacement.id, reason: "Fortrudt" });
    const answers = await Promise.all([cancel(), receive(other.returnId), cancel()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 422]);
    // Both refunds go back to the one PaymentIntent of the original, each once, under keys of their own.
    const refunds = stripe.requests.slice(before).filter((r) => r.path === "/v1/refunds");
    expect(refunds.map((r) => [r.form.get("payment_intent"), r.form.get("amount")])).toEqual([[intent, String(unit)], [intent, String(unit)]]);
    expect(new Set(refunds.map((r) => r.idempotencyKey)).size).toBe(2);
    const chain = await chainMoney(order.id, replacement.id);
    expect(chain).toEqual({ paid: Number(order.totalDkk), refunded: Number(2n * unit) });
    expect(chain.refunded).toBeLessThanOrEqual(chain.paid);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: replacement.id } })).toMatchObject({ status: "cancelled", refundedDkk: unit });
  });
});
