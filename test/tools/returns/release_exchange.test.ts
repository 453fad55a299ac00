// returns.release_exchange through real HTTP: an approved exchange whose parcel has not come by its deadline gives its
// reserved units back to stock, is closed (rejected, with the reason mailed) and audited; before the deadline, for a
// return that is no approved exchange, twice, or racing a receipt, nothing moves.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { deliveredVariantOrder, openReturn, returnState, shippedOrder, type ReturnView } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["returns:write", "returns:read", "orders:read"] } });
const prisma = () => server.prisma;
const release = (returnId: string) => server.call("returns.release_exchange", { returnId }, { key });
const stockOf = async (id: string) => (await prisma().productVariant.findUniqueOrThrow({ where: { id } })).stock;

/** An approved exchange of one S unit for an M, its reservation taken; `overdue` moves its deadline into the past. */
async function approvedExchange(overdue = true) {
  const { order, m } = await deliveredVariantOrder(server, "s");
  const ret = await openReturn(server, key, order, { exchangeVariantId: m.id, approve: true });
  if (overdue) await prisma().returnRequest.update({ where: { id: ret.returnId }, data: { refundDueBy: new Date(Date.now() - 60_000) } });
  return { order, m, ret };
}

describe("returns.release_exchange", () => {
  it("gives the reserved units back after the deadline, closes the return with the reason, mails the shopper, audited", async () => {
    const mail = captureMail(server);
    const { order, m, ret } = await approvedExchange();
    const reserved = await stockOf(m.id);
    const result = expectOk<ReturnView>(server, "returns.release_exchange", await release(ret.returnId));
    expect(result).toMatchObject({ returnId: ret.returnId, status: "rejected", rejectReason: expect.stringContaining("ikke modtaget"), replacementOrderId: null });
    expect(await stockOf(m.id)).toBe(reserved + 1n);
    expect(await lastAudit(server)).toMatchObject({ tool: "returns.release_exchange", subjectType: "return", subjectId: ret.returnId, before: { status: "approved" }, after: { status: "rejected" } });
    await expect.poll(() => mail.sent.find((message) => message.to === order.email && message.text.includes("ikke modtaget"))?.subject ?? "").toContain(`R-${ret.returnId.slice(-8).toUpperCase()}`);
    // The units are free again: the shopper may ask once more.
    expectOk(server, "returns.request", await server.call("returns.request", { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "Igen" }, { key }));
  });

  it("refuses before the deadline (422 deadline_not_passed), a plain return or one not approved (422 illegal_transition), and an unknown one (404), moving nothing", async () => {
    const early = await approvedExchange(false);
    const before = await returnState(server, early.order.id);
    expectProblem(await release(early.ret.returnId), 422, "deadline_not_passed");
    expect(await returnState(server, early.order.id)).toEqual(before);

    const plain = await shippedOrder(server, { deliveredDaysAgo: 3 });
    const withdrawal = await openReturn(server, key, plain, { approve: true });
    await prisma().returnRequest.update({ where: { id: withdrawal.returnId }, data: { refundDueBy: new Date(Date.now() - 60_000) } });
    expectProblem(await release(withdrawal.returnId), 422, "illegal_transition");
    const { order, m } = await deliveredVariantOrder(server, "s");
    const requested = await openReturn(server, key, order, { exchangeVariantId: m.id });
    expectProblem(await release(requested.returnId), 422, "illegal_transition");
    expectProblem(await release("no-such-return"), 404, "not_found");
  });

  it("releases once when it races a second release or the parcel's receipt", async () => {
    const { m, ret } = await approvedExchange();
    const reserved = await stockOf(m.id);
    const twice = await Promise.all([release(ret.returnId), release(ret.returnId)]);
    expect(twice.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect(await stockOf(m.id)).toBe(reserved + 1n);

    const racing = await approvedExchange();
    const stock = await stockOf(racing.m.id);
    const answers = await Promise.all([release(racing.ret.returnId), server.call("returns.receive", { returnId: racing.ret.returnId }, { key })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    // Either the units went back to stock, or they went out on the replacement: never both.
    const replacement = await prisma().order.count({ where: { channel: "exchange", notes: { some: { body: { contains: `R-${racing.ret.returnId.slice(-8).toUpperCase()}` } } } } });
    expect(await stockOf(racing.m.id)).toBe(replacement ? stock : stock + 1n);
  });

  it("needs returns:write", async () => {
    const { ret } = await approvedExchange();
    await expectScopeMatrix(server, "returns.release_exchange", { returnId: ret.returnId });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const { order, ret } = await approvedExchange();
    await expectRejected(server, "returns.release_exchange", key, [{}, { returnId: "" }, { returnId: ret.returnId, reason: " " }, { returnId: ret.returnId, units: 1 }], () => returnState(server, order.id));
  });
});
