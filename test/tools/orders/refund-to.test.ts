// Refunds where the shopper asks, through real HTTP: orders.cancel, orders.change_items and returns (asked at
// returns.request, paid at returns.receive) send the money to the original payment (default), to store credit (a new
// card) or onto a gift card the shopper names (topped up). Every destination is a ledger entry, refunds never exceed
// payments, and races give the money back once.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createOrder, orderState } from "../orders/fixtures.ts";
import { openReturn, returnState, shippedOrder, type ReturnView } from "../returns/fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write", "orders:read", "giftcards:write", "giftcards:read", "returns:write", "returns:read"] } });
const prisma = () => server.prisma;
type Entry = { kind: string; method: string; amountDkk: number; reference: string | null };
const ledger = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key }));
const issue = async (amountDkk = 10000) => expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk }, { key })).code;
const balance = async (code: string) => (await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk;
const hint = (code: string) => `…${code.slice(-4)}`;

/** The ledger invariant: what went back (refunds and credits) never exceeds what came in. */
async function assertInvariant(orderId: string) {
  const entries = await ledger(orderId);
  const sum = (kinds: string[]) => entries.filter((e) => kinds.includes(e.kind)).reduce((total, e) => total + e.amountDkk, 0);
  expect(sum(["refund", "store_credit"])).toBeLessThanOrEqual(sum(["payment"]));
  return entries;
}

describe("orders.cancel refundTo", () => {
  it("tops up a gift card the shopper names: a store_credit entry with the card's last four, mailed in Danish", async () => {
    const mail = captureMail(server);
    const order = await createOrder(server, { status: "paid" });
    const code = await issue(2500);
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Fortrudt", refundTo: code.toLowerCase().replace(/-/g, " ") }, { key }));
    expect(await balance(code)).toBe(2500n + order.totalDkk);
    const entries = await assertInvariant(order.id);
    expect(entries.at(-1)).toMatchObject({ kind: "store_credit", method: "gift_card", amountDkk: Number(order.totalDkk), reference: hint(code) });
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "cancelled", refundedDkk: order.totalDkk });
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(0);
    expect(await prisma().giftCard.count({ where: { orderId: order.id } })).toBe(0);
    await expect.poll(() => mail.sent.find((m) => m.to === order.email)?.text ?? "").toContain(`ind på dit gavekort ${hint(code)}`);
    const message = mail.sent.find((m) => m.to === order.email)!;
    expect(message.text).not.toContain(code);
    expect(await prisma().emailMessage.count({ where: { orderId: order.id, kind: "gift_card_topup" } })).toBe(1);
  });

  it("refuses an unknown card (404) or an expired one (422 giftcard_expired), changing nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    const before = await orderState(server, order.id);
    expectProblem(await server.call("orders.cancel", { orderId: order.id, reason: "x", refundTo: "ABCD-EFGH-JKLM-NPQR" }, { key }), 404, "not_found");
    const code = await issue();
    await prisma().giftCard.update({ where: { code }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const state = await orderState(server, order.id);
    expectProblem(await server.call("orders.cancel", { orderId: order.id, reason: "x", refundTo: code }, { key }), 422, "giftcard_expired");
    expect(await orderState(server, order.id)).toEqual(state);
    expect(before.order).toEqual(state.order);
    expect(await balance(code)).toBe(10000n);
  });

  it("rejects a refundTo that is neither a destination nor a code (400)", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectRejected(server, "orders.cancel", key, [{ orderId: order.id, reason: "x", refundTo: "cash_please" }, { orderId: order.id, reason: "x", refundTo: 5 }, { orderId: order.id, reason: "x", refundTo: "IIII-OOOO-0000-1111" }], () => orderState(server, order.id));
  });

  it("gives the money back once when two cancellations with different destinations race", async () => {
    const order = await createOrder(server, { status: "paid" });
    const code = await issue(100);
    const answers = await Promise.all([
      server.call("orders.cancel", { orderId: order.id, reason: "a", refundTo: "store_credit" }, { key }),
      server.call("orders.cancel", { orderId: order.id, reason: "b", refundTo: code }, { key }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const entries = await assertInvariant(order.id);
    const back = entries.filter((e) => e.kind !== "payment");
    expect(back.map((e) => e.amountDkk)).toEqual([Number(order.totalDkk)]);
    const credit = await prisma().giftCard.aggregate({ where: { orderId: order.id }, _sum: { balanceDkk: true } });
    expect((credit._sum.balanceDkk ?? 0n) + (await balance(code)) - 100n).toBe(order.totalDkk);
  });
});

describe("orders.change_items refundTo", () => {
  it("gives a paid order's decrease as store credit or onto a named card, and says so in the mail", async () => {
    const mail = captureMail(server);
    const credited = await createOrder(server, { status: "paid", quantities: [1, 3] });
    const line = credited.items[1]!;
    const result = expectOk<{ returnedDkk: number }>(server, "orders.change_items", await server.call("orders.change_items", { orderId: credited.id, items: [{ orderItemId: line.id, quantity: 1 }], refundTo: "store_credit" }, { key }));
    expect(result.returnedDkk).toBe(Number(line.unitPriceDkk) * 2);
    const card = await prisma().giftCard.findFirstOrThrow({ where: { orderId: credited.id } });
    expect(card).toMatchObject({ source: "store_credit", balanceDkk: line.unitPriceDkk * 2n });
    expect((await assertInvariant(credited.id)).at(-1)).toMatchObject({ kind: "store_credit", method: "gift_card", amountDkk: result.returnedDkk, reference: hint(card.code) });
    await expect.poll(() => mail.sent.find((m) => m.to === credited.email && m.subject.includes("ændret"))?.text ?? "").toContain("som et tilgodebevis");

    const topped = await createOrder(server, { status: "paid", quantities: [1, 3], email: "kort@example.dk" });
    const code = await issue(500);
    const other = topped.items[1]!;
    expectOk(server, "orders.change_items", await server.call("orders.change_items", { orderId: topped.id, items: [{ orderItemId: other.id, quantity: 2 }], refundTo: code }, { key }));
    expect(await balance(code)).toBe(500n + other.unitPriceDkk);
    expect((await assertInvariant(topped.id)).at(-1)).toMatchObject({ kind: "store_credit", amountDkk: Number(other.unitPriceDkk), reference: hint(code) });
    expect(await prisma().refundTask.count({ where: { orderId: { in: [credited.id, topped.id] } } })).toBe(0);
    await expect.poll(() => mail.sent.find((m) => m.to === "kort@example.dk" && m.subject.includes("ændret"))?.text ?? "").toContain(`ind på dit gavekort ${hint(code)}`);
  });

  it("keeps the original payment as the default, and refuses an expired card changing nothing", async () => {
    const order = await createOrder(server, { status: "paid", quantities: [1, 3] });
    const code = await issue();
    await prisma().giftCard.update({ where: { code }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = await orderState(server, order.id);
    expectProblem(await server.call("orders.change_items", { orderId: order.id, items: [{ orderItemId: order.items[1]!.id, quantity: 1 }], refundTo: code }, { key }), 422, "giftcard_expired");
    expect(await orderState(server, order.id)).toEqual(before);
    expectOk(server, "orders.change_items", await server.call("orders.change_items", { orderId: order.id, items: [{ orderItemId: order.items[1]!.id, quantity: 1 }] }, { key }));
    expect((await assertInvariant(order.id)).at(-1)).toMatchObject({ kind: "refund", method: "bank_transfer" });
  });
});

describe("returns refundTo", () => {
  it("keeps the card asked at request, shows it in returns.get, and tops it up at receipt", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2, quantities: [1, 1] });
    const code = await issue(1000);
    const asked = await openReturn(server, key, order, { quantities: [1, 0], refundTo: code, approve: true });
    expect(asked).toMatchObject({ refundTo: "gift_card", refundGiftCard: hint(code) });
    const got = expectOk<ReturnView>(server, "returns.get", await server.call("returns.get", { returnId: asked.returnId }, { key }));
    expect(got).toMatchObject({ refundTo: "gift_card", refundGiftCard: hint(code), refundDkk: null });
    const received = expectOk<ReturnView>(server, "returns.receive", await server.call("returns.receive", { returnId: asked.returnId }, { key }));
    const unit = Number(order.items[0]!.unitPriceDkk);
    expect(received).toMatchObject({ status: "refunded", refundDkk: unit, refundTo: "gift_card", refundGiftCard: hint(code) });
    expect(await balance(code)).toBe(1000n + BigInt(unit));
    expect((await assertInvariant(order.id)).at(-1)).toMatchObject({ kind: "store_credit", method: "gift_card", amountDkk: unit, reference: hint(code) });
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "partial_refund", refundedDkk: BigInt(unit) });
  });

  it("pays store credit asked at request, and staff may still choose at receipt", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2, quantities: [1, 1] });
    const first = await openReturn(server, key, order, { quantities: [1, 0], refundTo: "store_credit", approve: true });
    expect(first.refundTo).toBe("store_credit");
    expect(expectOk<ReturnView>(server, "returns.receive", await server.call("returns.receive", { returnId: first.returnId }, { key })).refundTo).toBe("store_credit");
    expect(await prisma().giftCard.findFirstOrThrow({ where: { orderId: order.id } })).toMatchObject({ source: "store_credit", balanceDkk: order.items[0]!.unitPriceDkk });

    const second = await openReturn(server, key, order, { quantities: [0, 1], refundTo: "store_credit", approve: true });
    const overridden = expectOk<ReturnView>(server, "returns.receive", await server.call("returns.receive", { returnId: second.returnId, refundTo: "original", refundAccount: "1234 0012345678" }, { key }));
    expect(overridden).toMatchObject({ refundTo: "original", refundGiftCard: null });
    expect((await assertInvariant(order.id)).at(-1)).toMatchObject({ kind: "refund", method: "bank_transfer" });
  });

  it("refuses a request naming an unknown or expired card, writing nothing", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2 });
    const before = await returnState(server, order.id);
    const input = { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "Passede ikke" };
    expectProblem(await server.call("returns.request", { ...input, refundTo: "ABCD-EFGH-JKLM-NPQR" }, { key }), 404, "not_found");
    const code = await issue();
    await prisma().giftCard.update({ where: { code }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const state = await returnState(server, order.id);
    expectProblem(await server.call("returns.request", { ...input, refundTo: code }, { key }), 422, "giftcard_expired");
    expect(await returnState(server, order.id)).toEqual(state);
    expect(before.returns).toEqual([]);
  });

  it("refunds once when two receipts of a return asked to a card race", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2, quantities: [2] });
    const code = await issue(100);
    const ret = await openReturn(server, key, order, { refundTo: code, approve: true });
    const answers = await Promise.all([1, 2].map(() => server.call("returns.receive", { returnId: ret.returnId }, { key })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    // The whole order withdrawn: its shipping goes back too.
    expect(await balance(code)).toBe(100n + order.totalDkk);
    expect((await assertInvariant(order.id)).filter((e) => e.kind !== "payment")).toHaveLength(1);
  });

  it("rejects a bad refundTo on request and receipt (400)", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2 });
    const input = { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "Passede ikke" };
    await expectRejected(server, "returns.request", key, [{ ...input, refundTo: "cash_please" }, { ...input, refundTo: { giftCardCode: "x" } }], () => returnState(server, order.id));
    const ret = await openReturn(server, key, order, { approve: true });
    await expectRejected(server, "returns.receive", key, [{ returnId: ret.returnId, refundTo: "somewhere" }], () => returnState(server, order.id));
  });
});
