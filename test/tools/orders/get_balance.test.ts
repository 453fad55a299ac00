// orders.get_balance through real HTTP: the ledger added up as payments and refunds are booked, the figure a
// cancellation gives back, and a shopper's own orders only.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "./fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["orders:read", "orders:write", "giftcards:write"] } });

type Balance = { orderId: string; paidDkk: number; returnedDkk: number; netPaidDkk: number };
type Entry = { kind: string; amountDkk: number };
const balance = async (orderId: string, auth: { key?: string; cookie?: string } = { key: staff }) =>
  expectOk<Balance>(server, "orders.get_balance", await server.call("orders.get_balance", { orderId }, auth));
const ledger = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key: staff }));

describe("orders.get_balance", () => {
  it("adds up the ledger: nothing unpaid, a gift card's part, the whole once paid, less each refund", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const total = Number(order.totalDkk);
    expect(await balance(order.id)).toEqual({ orderId: order.id, paidDkk: 0, returnedDkk: 0, netPaidDkk: 0 });

    const { code } = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 1000 }, { key: staff }));
    expectOk(server, "giftcards.redeem", await server.call("giftcards.redeem", { code, amountDkk: 1000, orderId: order.id }, { key: staff }));
    expect(await balance(order.id)).toEqual({ orderId: order.id, paidDkk: 1000, returnedDkk: 0, netPaidDkk: 1000 });

    expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status: "paid" }, { key: staff }));
    expectOk(server, "orders.refund", await server.call("orders.refund", { orderId: order.id, amountDkk: 2500 }, { key: staff }));
    expect(await balance(order.id)).toEqual({ orderId: order.id, paidDkk: total, returnedDkk: 2500, netPaidDkk: total - 2500 });
    const entries = await ledger(order.id);
    const sum = (kinds: string[]) => entries.filter((entry) => kinds.includes(entry.kind)).reduce((total, entry) => total + entry.amountDkk, 0);
    expect(sum(["payment"]) - sum(["refund", "store_credit"])).toBe(total - 2500);
  });

  it("says what cancelling gives back, and nothing once it has", async () => {
    const order = await createOrder(server, { status: "paid" });
    const before = await balance(order.id);
    expect(before.netPaidDkk).toBe(Number(order.totalDkk));
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Fortrudt", refundTo: "store_credit" }, { key: staff }));
    const credited = (await ledger(order.id)).filter((entry) => entry.kind === "store_credit").reduce((total, entry) => total + entry.amountDkk, 0);
    expect(credited).toBe(before.netPaidDkk);
    expect(await balance(order.id)).toMatchObject({ paidDkk: before.paidDkk, returnedDkk: before.netPaidDkk, netPaidDkk: 0 });
  });

  it("answers a shopper for their own order, and 404 for anyone else's", async () => {
    const customer = await createCustomer(server, { email: "saldo@example.dk", name: "Mette Hansen" });
    const own = await createOrder(server, { status: "paid", email: customer.email, userId: customer.id });
    const other = await createOrder(server, { status: "paid" });
    const cookie = await sessionFor(server, customer.id);
    expect((await balance(own.id, { cookie })).netPaidDkk).toBe(Number(own.totalDkk));
    expectProblem(await server.call("orders.get_balance", { orderId: other.id }, { cookie }), 404, "not_found");
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await server.call("orders.get_balance", { orderId: "nope" }, { key: staff }), 404, "not_found");
  });

  it("needs orders:read", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectScopeMatrix(server, "orders.get_balance", { orderId: order.id });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.get_balance", staff, [{}, { orderId: "" }, { orderId: 5 }, { orderId: "x", extra: 1 }]);
  });
});
