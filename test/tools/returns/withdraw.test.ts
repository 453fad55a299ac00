// returns.withdraw through real HTTP, without credentials: the same answer for a match and a miss; on a match within the
// period a withdrawal return staff see and a receipt to the order's address; outside it a receipt that says so.
import { beforeEach, describe, expect, it } from "vitest";
import { WITHDRAWAL_REASON } from "../../../src/tools/returns/withdrawal.ts";
import { WITHDRAWALS_PER_ORDER_PER_HOUR } from "../../../src/tools/returns/withdraw.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createOrder } from "../orders/fixtures.ts";
import { returnState, shippedOrder } from "./fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["returns:read"] } });
const prisma = () => server.prisma;
type Order = Awaited<ReturnType<typeof shippedOrder>>;
type Answer = { received: true; receivedAt: string };

const withdraw = (order: Pick<Order, "number" | "email">, input: object = {}) =>
  server.call("returns.withdraw", { orderNumber: order.number, email: order.email.toUpperCase(), name: " mette  HANSEN ", ...input });
const settle = () => server.runtime.background.idle();

// Each test starts with fresh hourly budgets (they are per client address, and every call here comes from one).
beforeEach(async () => {
  await prisma().loginThrottle.deleteMany();
});

describe("returns.withdraw", () => {
  it("on a match within the period opens a withdrawal return of the whole order and e-mails a receipt", async () => {
    const box = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [2, 1] });
    const answer = expectOk<Answer>(server, "returns.withdraw", await withdraw(order));
    expect(answer).toEqual({ received: true, receivedAt: expect.stringMatching(/Z$/) });
    await settle();
    const returns = await prisma().returnRequest.findMany({ where: { orderId: order.id }, include: { items: true } });
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({ kind: "withdrawal", status: "requested", reason: WITHDRAWAL_REASON, requestedBy: "anonymous" });
    expect(returns[0]!.items.map((i) => i.quantity).sort()).toEqual([1, 2]);
    // Staff see it through the returns tools, and the audit log names the tool.
    const listed = await server.call("returns.list", { orderId: order.id }, { key: staff });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(returns[0]!.id);
    expect(await prisma().auditEntry.findFirst({ where: { subjectId: returns[0]!.id } })).toMatchObject({ tool: "returns.withdraw", subjectType: "return" });
    const receipt = box.sent.find((mail) => mail.to === order.email)!;
    expect(receipt.subject).toContain(`#${order.number}`);
    expect(receipt.text).toContain("Hele ordren:");
    expect(receipt.text).toMatch(/Modtaget: \d{1,2}\. \p{L}+ \d{4} kl\. \d{2}\.\d{2}/u);
    expect(receipt.text).toContain("refunderer vi, når varerne er kommet retur");
    expect(await prisma().emailMessage.count({ where: { orderId: order.id, kind: "withdrawal_receipt" } })).toBe(1);
    // Nothing is refunded yet.
    expect(await prisma().paymentEntry.count({ where: { orderId: order.id, kind: { not: "payment" } } })).toBe(0);
  });

  it("answers the same, and writes and sends nothing, when the order, e-mail or name does not match", async () => {
    const box = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 3 });
    const before = await returnState(server, order.id);
    const misses = [
      await withdraw({ number: 999_999, email: order.email }),
      await withdraw(order, { email: "en.anden@example.dk" }),
      await withdraw(order, { name: "Hans Jensen" }),
    ];
    for (const miss of misses) {
      const body = expectOk<Answer>(server, "returns.withdraw", miss);
      expect(Object.keys(body).sort()).toEqual(["received", "receivedAt"]);
    }
    await settle();
    expect(await returnState(server, order.id)).toEqual(before);
    expect(box.sent).toHaveLength(0);
  });

  it("withdraws only the named lines, with their quantities", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [3, 1] });
    const line = order.items.find((i) => i.quantity === 3)!;
    expectOk(server, "returns.withdraw", await withdraw(order, { lines: [{ orderItemId: line.id, quantity: 2 }] }));
    await settle();
    const ret = await prisma().returnRequest.findFirstOrThrow({ where: { orderId: order.id }, include: { items: true } });
    expect(ret.items).toEqual([expect.objectContaining({ orderItemId: line.id, quantity: 2 })]);
  });

  it("opens no return for lines not on the order (or made to order), and the receipt says why", async () => {
    const box = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 1 });
    expectOk(server, "returns.withdraw", await withdraw(order, { lines: [{ orderItemId: "not-a-line" }] }));
    await settle();
    expect(await prisma().returnRequest.count({ where: { orderId: order.id } })).toBe(0);
    expect(box.sent[0]?.text).toContain("står ikke på ordren");
    const fixed = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [1] });
    await prisma().product.update({ where: { id: fixed.items[0]!.productId }, data: { returnable: false } });
    expectOk(server, "returns.withdraw", await withdraw(fixed));
    await settle();
    expect(await prisma().returnRequest.count({ where: { orderId: fixed.id } })).toBe(0);
    expect(box.sent.find((mail) => mail.subject.includes(`#${fixed.number}`))?.text).toContain("fremstillet efter dine mål");
    await prisma().product.update({ where: { id: fixed.items[0]!.productId }, data: { returnable: true } });
  });

  it("outside the 14 days opens no return, and the receipt says the period ended", async () => {
    const box = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 30 });
    expectOk(server, "returns.withdraw", await withdraw(order));
    await settle();
    expect(await prisma().returnRequest.count({ where: { orderId: order.id } })).toBe(0);
    expect(box.sent[0]?.text).toMatch(/Fortrydelsesfristen på 14 dage fra levering udløb/);
  });

  it("before shipping opens a ticket for staff to stop the order", async () => {
    const order = await createOrder(server, { status: "paid" });
    expectOk(server, "returns.withdraw", await withdraw(order));
    await settle();
    expect(await prisma().supportTicket.count({ where: { orderId: order.id } })).toBe(1);
    expect(await prisma().emailMessage.count({ where: { orderId: order.id, kind: "withdrawal_receipt" } })).toBe(1);
  });

  it(`refuses past ${WITHDRAWALS_PER_ORDER_PER_HOUR} declarations an hour for one order number (429)`, async () => {
    const number = 888_888;
    for (let i = 0; i < WITHDRAWALS_PER_ORDER_PER_HOUR; i++) expect((await withdraw({ number, email: "x@example.dk" })).status).toBe(200);
    expectProblem(await withdraw({ number, email: "x@example.dk" }), 429);
  });

  it("needs no credentials; any key may call it", async () => {
    await expectScopeMatrix(server, "returns.withdraw", { orderNumber: 777_777, email: "x@example.dk", name: "X" });
  });

  it("rejects bad input with 400", async () => {
    const ok = { orderNumber: 1001, email: "x@example.dk", name: "X" };
    await expectRejected(server, "returns.withdraw", undefined, [
      {},
      { ...ok, orderNumber: 0 },
      { ...ok, orderNumber: "1001" },
      { ...ok, email: "ikke-en-mail" },
      { ...ok, name: "   " },
      { ...ok, lines: [] },
      { ...ok, lines: [{ orderItemId: "a", quantity: 0 }] },
      { ...ok, lines: [{ orderItemId: "a" }, { orderItemId: "a" }] },
      { ...ok, extra: true },
    ], () => prisma().returnRequest.count());
  });
});
