// giftcards.redeem through real HTTP: part or all of an unpaid order from a card, booked in the ledger; never below zero
// when spent from several places at once; every refusal leaves card and order as they were.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder, orderState } from "../orders/fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["giftcards:write", "orders:read"] } });
const prisma = () => server.prisma;
type Redeemed = { code: string; balanceDkk: number; orderId: string; orderStatus: string; outstandingDkk: number };

async function card(amountDkk: number): Promise<string> {
  return expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk }, { key: staff })).code;
}
const redeem = (code: string, amountDkk: number, orderId: string) => server.call("giftcards.redeem", { code, amountDkk, orderId }, { key: staff });

describe("giftcards.redeem", () => {
  it("pays part of a bank-transfer order, then the rest, and the order becomes paid", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const total = Number(order.totalDkk);
    const code = await card(total);
    const first = expectOk<Redeemed>(server, "giftcards.redeem", await redeem(code, 1000, order.id));
    expect(first).toEqual({ code, balanceDkk: total - 1000, orderId: order.id, orderStatus: "pending_payment", outstandingDkk: total - 1000 });
    const second = expectOk<Redeemed>(server, "giftcards.redeem", await redeem(code.toLowerCase(), total - 1000, order.id));
    expect(second).toEqual({ code, balanceDkk: 0, orderId: order.id, orderStatus: "paid", outstandingDkk: 0 });
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.paidAt).not.toBeNull();
    const ledger = expectOk<Array<{ kind: string; method: string; amountDkk: number; reference: string }>>(server, "orders.payments", await server.call("orders.payments", { orderId: order.id }, { key: staff }));
    expect(ledger.map((e) => [e.kind, e.method, e.amountDkk, e.reference])).toEqual([
      ["payment", "gift_card", 1000, `…${code.slice(-4)}`],
      ["payment", "gift_card", total - 1000, `…${code.slice(-4)}`],
    ]);
    const movements = await prisma().giftCardMovement.findMany({ where: { giftCard: { code } }, orderBy: { createdAt: "asc" } });
    expect(movements.map((m) => [m.amountDkk, m.orderId])).toEqual([[BigInt(total), null], [-1000n, order.id], [BigInt(-(total - 1000)), order.id]]);
  });

  it("never spends a card below zero when ten orders take from it at once", async () => {
    const code = await card(10000);
    const orders = await Promise.all(Array.from({ length: 10 }, () => createOrder(server, { status: "pending", quantities: [1] })));
    const answers = await Promise.all(orders.map((order) => redeem(code, 3000, order.id)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(3);
    for (const refused of answers.filter((a) => a.status !== 200)) expectProblem(refused, 422, "giftcard_insufficient_balance");
    const row = await prisma().giftCard.findUniqueOrThrow({ where: { code } });
    expect(row.balanceDkk).toBe(1000n);
    expect(await prisma().paymentEntry.count({ where: { orderId: { in: orders.map((o) => o.id) } } })).toBe(3);
  });

  it("refuses what the card cannot cover, an expired card, more than is owed and orders that are not unpaid, changing nothing", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const small = await card(500);
    const expired = await card(100000);
    await prisma().giftCard.update({ where: { code: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const big = await card(Number(order.totalDkk) * 2);
    const paid = await createOrder(server, { status: "paid" });
    const cases: Array<[string, number, string, string]> = [
      [small, 501, order.id, "giftcard_insufficient_balance"],
      [expired, 100, order.id, "giftcard_expired"],
      [big, Number(order.totalDkk) + 1, order.id, "amount_exceeds_outstanding"],
      [big, 100, paid.id, "order_not_unpaid"],
    ];
    for (const [code, amount, orderId, problem] of cases) {
      const before = await orderState(server, orderId);
      expectProblem(await redeem(code, amount, orderId), 422, problem);
      expect(await orderState(server, orderId)).toEqual(before);
    }
    expectProblem(await redeem("AAAA-BBBB-CCCC-DDDD", 100, order.id), 404, "not_found");
    expectProblem(await redeem(big, 100, "no-such-order"), 404, "not_found");
  });

  it("pays a card order only in full: Stripe's payment session is for the whole total", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    await prisma().order.update({ where: { id: order.id }, data: { paymentProvider: "stripe" } });
    const code = await card(Number(order.totalDkk));
    expectProblem(await redeem(code, 1000, order.id), 422, "partial_payment_unsupported");
    expect(expectOk<Redeemed>(server, "giftcards.redeem", await redeem(code, Number(order.totalDkk), order.id)).orderStatus).toBe("paid");
  });

  it("needs giftcards:write", async () => {
    const order = await createOrder(server, { status: "pending" });
    await expectScopeMatrix(server, "giftcards.redeem", { code: await card(100000), amountDkk: 100, orderId: order.id });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "pending" });
    const code = await card(1000);
    await expectRejected(server, "giftcards.redeem", staff, [{}, { code, orderId: order.id }, { code, amountDkk: 0, orderId: order.id }, { code, amountDkk: -5, orderId: order.id }, { code, amountDkk: 10, orderId: "" }, { code, amountDkk: 10, orderId: order.id, x: 1 }], () => orderState(server, order.id));
  });
});
