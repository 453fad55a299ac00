// orders.cancel through real HTTP: reason kept, unshipped orders only, items restocked and what was paid given back
// (card refund at the Stripe fake, gift cards re-credited, bank transfers as a staff task, or store credit) in one transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { startFakeStripe, type FakeStripe } from "../../support/fake-stripe.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createOrder, orderState } from "./fixtures.ts";

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const { server, keys: { key } } = useServer({ keys: { key: ["orders:write", "orders:read", "giftcards:write"] }, config: () => ({ stripeSecretKey: "sk_test_cancel", stripeApiUrl: stripe.url }) });

const cancel = (orderId: string, reason = "Kunden fortrød") => server.call("orders.cancel", { orderId, reason }, { key });
const prisma = () => server.prisma;
type Entry = { kind: string; method: string; amountDkk: number; reference: string | null; createdAt: string };
const payments = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key }));

describe("orders.cancel", () => {
  it("cancels with a reason and restocks every line", async () => {
    const order = await createOrder(server, { status: "pending_payment", variant: true, quantities: [1, 4] });
    const variantLine = order.items.find((i) => i.variantId)!;
    const plainLine = order.items.find((i) => !i.variantId)!;
    const variantBefore = await prisma().productVariant.findUniqueOrThrow({ where: { id: variantLine.variantId! } });
    const productBefore = await prisma().product.findUniqueOrThrow({ where: { id: plainLine.productId } });
    const result = expectOk(server, "orders.cancel", await cancel(order.id, "  Betaling udeblev  "));
    expect(result).toEqual({ id: order.id, status: "cancelled" });
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ status: "cancelled", cancelReason: "Betaling udeblev" });
    expect(row.cancelledAt).not.toBeNull();
    expect((await prisma().productVariant.findUniqueOrThrow({ where: { id: variantLine.variantId! } })).stock).toBe(variantBefore.stock + 1n);
    const productAfter = await prisma().product.findUniqueOrThrow({ where: { id: plainLine.productId } });
    expect(productAfter.stock).toBe(productBefore.stock + 4n);
    const catalogue = await server.call("products.get", { slug: productAfter.slug });
    expect((catalogue.body.result as { stock: number }).stock).toBe(Number(productAfter.stock));
    const [change] = await prisma().orderStatusChange.findMany({ where: { orderId: order.id } });
    expect(change).toMatchObject({ fromStatus: "pending_payment", toStatus: "cancelled", reason: "Betaling udeblev" });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.cancel", subjectType: "order", subjectId: order.id });
    expect(audit!.before).toMatchObject({ status: "pending_payment", cancelReason: null });
    expect(audit!.after).toMatchObject({ status: "cancelled", cancelReason: "Betaling udeblev" });
  });

  it("still cancels when a product has since been deleted", async () => {
    const order = await createOrder(server, { status: "pending", quantities: [1] });
    await prisma().orderItem.update({ where: { id: order.items[0]!.id }, data: { productId: "gone" } });
    expectOk(server, "orders.cancel", await cancel(order.id));
  });

  it("refuses with 422 illegal_transition where cancelling is not legal, restocking nothing", async () => {
    for (const status of ["shipped", "delivered", "completed", "cancelled", "refunded", "disputed", "partial_refund"]) {
      const order = await createOrder(server, { status });
      const before = await orderState(server, order.id);
      expectProblem(await cancel(order.id), 422, "illegal_transition");
      expect(await orderState(server, order.id)).toEqual(before);
    }
  });

  it("refunds a bank-transferred paid order as a refund task for staff, with the account the shopper gave", async () => {
    const order = await createOrder(server, { status: "paid" });
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Fortrudt", refundAccount: "1234 0012345678" }, { key }));
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ status: "cancelled", refundedDkk: order.totalDkk });
    const ledger = await payments(order.id);
    expect(ledger.map((e) => [e.kind, e.method, e.amountDkk])).toEqual([["payment", "bank_transfer", Number(order.totalDkk)], ["refund", "bank_transfer", Number(order.totalDkk)]]);
    const tasks = await prisma().refundTask.findMany({ where: { orderId: order.id } });
    expect(tasks).toMatchObject([{ amountDkk: order.totalDkk, account: "1234 0012345678", status: "open" }]);
  });

  it("refunds a card payment at Stripe through the SDK, once, and books the refund with Stripe's id", async () => {
    const order = await createOrder(server, { status: "processing" });
    await prisma().order.update({ where: { id: order.id }, data: { paymentProvider: "stripe", paymentMethod: "card", paymentProviderPaymentIntentId: `pi_ok_${order.id}` } });
    await prisma().paymentEntry.updateMany({ where: { orderId: order.id }, data: { method: "card", reference: `pi_ok_${order.id}` } });
    const before = stripe.requests.length;
    expectOk(server, "orders.cancel", await cancel(order.id));
    const sent = stripe.requests.slice(before).filter((r) => r.path === "/v1/refunds");
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(sent[0]!.form)).toMatchObject({ payment_intent: `pi_ok_${order.id}`, amount: String(order.totalDkk) });
    const ledger = await payments(order.id);
    expect(ledger.at(-1)).toMatchObject({ kind: "refund", method: "card", amountDkk: Number(order.totalDkk), reference: expect.stringMatching(/^re_test_/) });
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("leaves the order as it was when Stripe refuses the refund (422 refund_failed)", async () => {
    const order = await createOrder(server, { status: "paid" });
    await prisma().order.update({ where: { id: order.id }, data: { paymentProvider: "stripe", paymentMethod: "card", paymentProviderPaymentIntentId: `pi_fail_${order.id}` } });
    await prisma().paymentEntry.updateMany({ where: { orderId: order.id }, data: { method: "card", reference: `pi_fail_${order.id}` } });
    const before = await orderState(server, order.id);
    expectProblem(await cancel(order.id), 422, "refund_failed");
    expect(await orderState(server, order.id)).toEqual(before);
    expect(await payments(order.id)).toHaveLength(1);
  });

  it("gives store credit instead when asked: a gift card for what was paid, e-mailed to the shopper", async () => {
    const mail = captureMail(server);
    const order = await createOrder(server, { status: "paid" });
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Fortrudt", refundTo: "store_credit" }, { key }));
    const card = await prisma().giftCard.findFirstOrThrow({ where: { orderId: order.id } });
    expect(card).toMatchObject({ source: "store_credit", balanceDkk: order.totalDkk, customerEmail: order.email });
    expect((await payments(order.id)).at(-1)).toMatchObject({ kind: "store_credit", method: "gift_card", amountDkk: Number(order.totalDkk), reference: `…${card.code.slice(-4)}` });
    await expect.poll(() => mail.sent.find((m) => m.to === order.email)?.text ?? "").toContain(card.code);
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("puts gift-card money back on the card it came from", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const issued = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: Number(order.totalDkk) + 5000 }, { key }));
    expectOk(server, "giftcards.redeem", await server.call("giftcards.redeem", { code: issued.code, amountDkk: Number(order.totalDkk), orderId: order.id }, { key }));
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("paid");
    expectOk(server, "orders.cancel", await cancel(order.id));
    const card = await prisma().giftCard.findUniqueOrThrow({ where: { code: issued.code } });
    expect(card.balanceDkk).toBe(order.totalDkk + 5000n);
    expect((await payments(order.id)).map((e) => [e.kind, e.method])).toEqual([["payment", "gift_card"], ["refund", "gift_card"]]);
  });

  it("refunds once when two cancellations race for the same paid order", async () => {
    const order = await createOrder(server, { status: "paid" });
    const answers = await Promise.all([cancel(order.id), cancel(order.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const refunds = (await payments(order.id)).filter((e) => e.kind === "refund");
    expect(refunds.map((e) => e.amountDkk)).toEqual([Number(order.totalDkk)]);
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(1);
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await cancel("nope"), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "pending" });
    await expectScopeMatrix(server, "orders.cancel", { orderId: order.id, reason: "Test" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "pending" });
    await expectRejected(
      server,
      "orders.cancel",
      key,
      [{ orderId: order.id }, { orderId: order.id, reason: "" }, { orderId: order.id, reason: "   " }, { orderId: order.id, reason: "x".repeat(501) }, { reason: "x" }, { orderId: order.id, reason: "x", restock: false }, { orderId: order.id, reason: "x", refundTo: "cash" }, { orderId: order.id, reason: "x", refundAccount: "1" }],
      () => orderState(server, order.id),
    );
  });
});
