// returns.receive through real HTTP: the parcel is back, so its units are restocked and what they cost is refunded in the
// same transaction (bank transfer as a refund task, card at the Stripe fake, store credit), shipping too once the whole
// order is withdrawn; an exchange makes a replacement order instead. Races never refund twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { startFakeStripe, type FakeStripe } from "../../support/fake-stripe.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { openReturn, returnState, shippedOrder, type ReturnView, type ShippedSeed } from "./fixtures.ts";

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const { server, keys: { key } } = useServer({ keys: { key: ["returns:write", "returns:read", "orders:read"] }, config: () => ({ stripeSecretKey: "sk_test_returns", stripeApiUrl: stripe.url }) });
const prisma = () => server.runtime.database.prisma;
const receive = (returnId: string, input: object = {}) => server.call("returns.receive", { returnId, ...input }, { key });
type Entry = { kind: string; method: string; amountDkk: number; reference: string | null };
const ledger = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key }));
const stockOf = async (productId: string) => (await prisma().product.findUniqueOrThrow({ where: { id: productId } })).stock;
const variantStock = async (id: string) => (await prisma().productVariant.findUniqueOrThrow({ where: { id } })).stock;

/** A delivered order of one unit of the variant whose SKU ends in `size` (-s, -m: the product's price; -l: 100 kr. more). */
async function variantOrder(size: "s" | "m" | "l", seed: ShippedSeed = {}) {
  const order = await shippedOrder(server, { deliveredDaysAgo: 2, variant: true, quantities: [1], ...seed });
  const line = order.items[0]!;
  const variants = await prisma().productVariant.findMany({ where: { productId: line.productId }, include: { product: true } });
  const pick = (s: string) => variants.find((v) => v.sku.endsWith(`-${s}`))!;
  const chosen = pick(size);
  const unit = chosen.priceDkk ?? chosen.product.priceDkk;
  const total = unit + order.shippingDkk - order.discountDkk;
  await prisma().orderItem.update({ where: { id: line.id }, data: { variantId: chosen.id, variantSku: chosen.sku, unitPriceDkk: unit } });
  await prisma().order.update({ where: { id: order.id }, data: { subtotalDkk: unit, totalDkk: total } });
  await prisma().paymentEntry.updateMany({ where: { orderId: order.id, kind: "payment" }, data: { amountDkk: total } });
  const fresh = await prisma().order.findUniqueOrThrow({ where: { id: order.id }, include: { items: true } });
  for (const v of variants) await prisma().productVariant.update({ where: { id: v.id }, data: { stock: 5n } });
  return { order: fresh, s: pick("s"), m: pick("m"), l: pick("l"), unit };
}

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

  it("exchanges for a variant at the same price: a paid replacement order of nothing to pay, no refund, the old unit restocked", async () => {
    const mail = captureMail(server);
    const { order, s, m } = await variantOrder("s");
    const approved = await openReturn(server, key, order, { exchangeVariantId: m.id, approve: true });
    expect(await variantStock(m.id)).toBe(4n);
    const result = expectOk<ReturnView>(server, "returns.receive", await receive(approved.returnId));
    expect(result).toMatchObject({ status: "received", refundDkk: 0, exchangeVariantId: m.id, replacementOrderId: expect.any(String) });
    expect(await variantStock(m.id)).toBe(4n);
    expect(await variantStock(s.id)).toBe(6n);
    const replacement = await prisma().order.findUniqueOrThrow({ where: { id: result.replacementOrderId! }, include: { items: true, notes: true } });
    expect(replacement).toMatchObject({ status: "paid", channel: "exchange", email: order.email, shippingAddress: order.shippingAddress, shippingDkk: 0n, totalDkk: 0n, discountDkk: replacement.subtotalDkk });
    expect(replacement.items).toMatchObject([{ variantId: m.id, variantSku: m.sku, quantity: 1 }]);
    expect(replacement.notes[0]!.body).toContain(`#${order.number}`);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "delivered", refundedDkk: 0n });
    expect((await ledger(order.id)).filter((e) => e.kind !== "payment")).toEqual([]);
    await expect.poll(() => mail.sent.find((m) => m.to === order.email && m.subject.startsWith("Din ombytning"))?.text ?? "").toContain(`ordre #${replacement.number} uden fragt`);
    await expect.poll(() => prisma().emailMessage.count({ where: { orderId: replacement.id, kind: "order_confirmation" } })).toBe(1);
  });

  it("leaves a dearer variant's difference to pay on the replacement order, with its payment link in the mail", async () => {
    const mail = captureMail(server);
    const { order, l, unit } = await variantOrder("s");
    const approved = await openReturn(server, key, order, { exchangeVariantId: l.id, approve: true });
    const result = expectOk<ReturnView>(server, "returns.receive", await receive(approved.returnId));
    const replacement = await prisma().order.findUniqueOrThrow({ where: { id: result.replacementOrderId! } });
    expect(replacement).toMatchObject({ status: "pending_payment", subtotalDkk: l.priceDkk!, discountDkk: unit, totalDkk: l.priceDkk! - unit, paymentProviderSessionId: expect.stringMatching(/^cs_test_/) });
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
    expect(await prisma().order.findUniqueOrThrow({ where: { id: result.replacementOrderId! } })).toMatchObject({ status: "paid", totalDkk: 0n });
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "partial_refund", refundedDkk: difference });
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
