// A dearer exchange's difference paid from a gift card or store credit named at returns.request, through real HTTP: the
// request is refused when the card cannot cover the difference (422 insufficient_balance), receipt debits the card and
// the replacement is paid; a card spent between request and receipt pays what it still holds and the payment link asks
// for the rest; two receipts racing for one card never take more than it holds, and the chain's refunds never exceed
// its payments.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { deliveredVariantOrder, openReturn, returnState, type ReturnView } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["returns:write", "returns:read", "orders:read", "orders:write", "giftcards:write", "giftcards:read"] } });
const prisma = () => server.prisma;
const call = (name: string, input: object) => server.call(name, input, { key });
type Entry = { kind: string; method: string; amountDkk: number; reference: string | null };
const ledger = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await call("orders.payments", { orderId }));

async function issue(amountDkk: bigint | number): Promise<{ code: string; balanceDkk: number }> {
  return expectOk(server, "giftcards.issue", await call("giftcards.issue", { amountDkk: Number(amountDkk) }));
}
const balance = async (code: string) => (await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk;

/** A delivered order of size S and what exchanging it for L costs more (L is 100 kr. dearer). */
async function dearerExchange() {
  const { order, l, unit } = await deliveredVariantOrder(server, "s");
  return { order, l, difference: l.priceDkk! - unit };
}

describe("returns.request with giftCardCode: a card pays a dearer exchange's difference", () => {
  it("refuses at request a card that cannot cover the difference (422 insufficient_balance), writing nothing", async () => {
    const { order, l, difference } = await dearerExchange();
    const card = await issue(difference - 1n);
    const before = await returnState(server, order.id);
    const answer = await server.call("returns.request", { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "For lille", exchangeVariantId: l.id, giftCardCode: card.code }, { key });
    expectProblem(answer, 422, "insufficient_balance");
    expect(await returnState(server, order.id)).toEqual(before);
    expect(await balance(card.code)).toBe(difference - 1n);
  });

  it("refuses an expired card (422 giftcard_expired) and an unknown one (404)", async () => {
    const { order, l, difference } = await dearerExchange();
    const card = await issue(difference);
    await prisma().giftCard.update({ where: { code: card.code }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const input = { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "For lille", exchangeVariantId: l.id };
    expectProblem(await call("returns.request", { ...input, giftCardCode: card.code }), 422, "giftcard_expired");
    expectProblem(await call("returns.request", { ...input, giftCardCode: "AAAA-BBBB-CCCC-DDDD" }), 404, "not_found");
    expect(await prisma().returnRequest.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("takes a card that covers the difference, keeps it on the return (never the code in the audit), and receipt pays the replacement from it", async () => {
    const { order, l, difference } = await dearerExchange();
    const card = await issue(difference + 5000n);
    const approved = await openReturn(server, key, order, { exchangeVariantId: l.id, giftCardCode: card.code, approve: true });
    const stored = await prisma().giftCard.findUniqueOrThrow({ where: { code: card.code } });
    expect(await prisma().returnRequest.findUniqueOrThrow({ where: { id: approved.returnId } })).toMatchObject({ giftCardId: stored.id });
    const audits = await prisma().auditEntry.findMany({ where: { tool: "returns.request", subjectId: approved.returnId } });
    expect(JSON.stringify(audits)).not.toContain(card.code);
    // The request reserves nothing on the card: receipt debits it.
    expect(await balance(card.code)).toBe(difference + 5000n);

    const result = expectOk<ReturnView>(server, "returns.receive", await call("returns.receive", { returnId: approved.returnId }));
    const replacement = await prisma().order.findUniqueOrThrow({ where: { id: result.replacementOrderId! } });
    expect(replacement).toMatchObject({ status: "paid", totalDkk: l.priceDkk! });
    expect(await balance(card.code)).toBe(5000n);
    expect((await ledger(replacement.id)).filter((e) => e.method === "gift_card")).toEqual([expect.objectContaining({ kind: "payment", amountDkk: Number(difference), reference: `…${card.code.slice(-4)}` })]);
    expect(await lastAudit(server)).toMatchObject({ tool: "returns.receive", subjectId: approved.returnId });
  });

  it("checks the balance again at receipt: a card spent meanwhile pays what it holds and the payment link asks for the rest", async () => {
    const { order, l, difference } = await dearerExchange();
    const card = await issue(difference);
    const approved = await openReturn(server, key, order, { exchangeVariantId: l.id, giftCardCode: card.code, approve: true });
    // Spent elsewhere between request and receipt (another unpaid order paid from it).
    const other = await deliveredVariantOrder(server, "s");
    await prisma().order.update({ where: { id: other.order.id }, data: { status: "pending_payment", paidAt: null } });
    await prisma().paymentEntry.deleteMany({ where: { orderId: other.order.id } });
    expectOk(server, "giftcards.redeem", await call("giftcards.redeem", { code: card.code, amountDkk: 4000, orderId: other.order.id }));

    const result = expectOk<ReturnView>(server, "returns.receive", await call("returns.receive", { returnId: approved.returnId }));
    const replacement = await prisma().order.findUniqueOrThrow({ where: { id: result.replacementOrderId! } });
    expect(replacement.status).toBe("pending_payment");
    expect(await balance(card.code)).toBe(0n);
    const payment = expectOk<{ outstandingDkk: number }>(server, "orders.get_payment", await call("orders.get_payment", { orderId: replacement.id }));
    expect(payment.outstandingDkk).toBe(4000);
  });

  it("never takes more than a card holds when two receipts naming it race, and the chains' refunds stay within their payments", async () => {
    const first = await dearerExchange();
    const second = await dearerExchange();
    // Enough for one difference and half of the other: both requests are accepted (a request reserves nothing).
    const card = await issue(first.difference + second.difference / 2n);
    const returns = [
      await openReturn(server, key, first.order, { exchangeVariantId: first.l.id, giftCardCode: card.code, approve: true }),
      await openReturn(server, key, second.order, { exchangeVariantId: second.l.id, giftCardCode: card.code, approve: true }),
    ];
    const answers = await Promise.all(returns.map((ret) => call("returns.receive", { returnId: ret.returnId })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const replacements = [];
    for (const answer of answers) replacements.push(await prisma().order.findUniqueOrThrow({ where: { id: expectOk<ReturnView>(server, "returns.receive", answer).replacementOrderId! } }));
    expect(await balance(card.code)).toBe(0n);
    const fromCard = [...(await ledger(replacements[0]!.id)), ...(await ledger(replacements[1]!.id))].filter((e) => e.method === "gift_card");
    expect(fromCard.reduce((sum, e) => sum + e.amountDkk, 0)).toBe(Number(first.difference + second.difference / 2n));
    expect(replacements.map((r) => r.status).sort()).toEqual(["paid", "pending_payment"]);
    for (const [original, replacement] of [[first.order, replacements[0]!], [second.order, replacements[1]!]] as const) {
      const entries = [...(await ledger(original.id)), ...(await ledger(replacement.id))];
      const paid = entries.filter((e) => e.kind === "payment" && e.method !== "exchange").reduce((sum, e) => sum + e.amountDkk, 0);
      const moved = entries.filter((e) => e.method === "exchange").reduce((sum, e) => sum + e.amountDkk, 0);
      const refunded = entries.filter((e) => e.kind !== "payment").reduce((sum, e) => sum + e.amountDkk, 0) - moved;
      expect(refunded).toBeLessThanOrEqual(paid - moved);
    }
  });

  it("rejects a giftCardCode without an exchange, or malformed, with a 400 problem and writes nothing", async () => {
    const { order } = await dearerExchange();
    const good = { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "For lille" };
    await expectRejected(server, "returns.request", key, [{ ...good, giftCardCode: "AAAA-BBBB-CCCC-DDDD" }, { ...good, exchangeVariantId: "v", giftCardCode: "short" }], () => returnState(server, order.id));
  });
});
