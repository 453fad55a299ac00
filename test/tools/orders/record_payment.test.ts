// orders.record_payment through real HTTP: staff book the bank transfer of what is outstanding on a paid order (an item
// edit's rise, or a change of payment method by link); an open Stripe link for it is closed, and after a change of
// method the old money goes back. Refusals write nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { startFakeStripe, type FakeStripe } from "../../support/fake-stripe.ts";
import { useServer } from "../../support/server.ts";
import { createOrder, orderState } from "./fixtures.ts";

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const { server, keys: { key } } = useServer({
  keys: { key: ["orders:write", "orders:read"] },
  config: () => ({ stripeSecretKey: "sk_test_record_payment", stripeApiUrl: stripe.url }),
});

const prisma = () => server.prisma;
const record = (orderId: string) => server.call("orders.record_payment", { orderId }, { key });

/** A paid order whose one line was raised by a unit, the rise left outstanding behind a Stripe link. */
async function outstandingOrder() {
  const order = await createOrder(server, { quantities: [1] });
  const line = order.items[0]!;
  await prisma().product.update({ where: { id: line.productId }, data: { stock: 20n } });
  const edit = await server.call("orders.change_items", { orderId: order.id, items: [{ orderItemId: line.id, quantity: 2 }], collectWith: "payment_link" }, { key });
  const view = expectOk<{ paymentUrl: string; outstandingDkk: number }>(server, "orders.change_items", edit);
  return { order, rise: line.unitPriceDkk, session: view.paymentUrl.split("/").at(-1)! };
}

describe("orders.record_payment", () => {
  it("books the outstanding amount as a bank transfer, closes the open link and lets the order ship", async () => {
    const { order, rise, session } = await outstandingOrder();
    const result = expectOk(server, "orders.record_payment", await record(order.id));
    expect(result).toEqual({ orderId: order.id, paidDkk: Number(rise), returnedDkk: 0 });
    const entries = await prisma().paymentEntry.findMany({ where: { orderId: order.id }, orderBy: { createdAt: "asc" } });
    expect(entries.map((e) => [e.kind, e.method, e.amountDkk])).toEqual([["payment", "bank_transfer", order.totalDkk], ["payment", "bank_transfer", rise]]);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).outstandingDkk).toBe(0n);
    expect(stripe.requests.some((r) => r.path === `/v1/checkout/sessions/${session}/expire`)).toBe(true);
    expect(await lastAudit(server)).toMatchObject({ tool: "orders.record_payment", subjectType: "order", subjectId: order.id });
    expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status: "shipped" }, { key }));
  });

  it("refuses an order with nothing outstanding (422 nothing_outstanding) and answers 404 for an unknown one, writing nothing", async () => {
    const order = await createOrder(server, { quantities: [1] });
    const before = await orderState(server, order.id);
    expectProblem(await record(order.id), 422, "nothing_outstanding");
    expect(await orderState(server, order.id)).toEqual(before);
    expectProblem(await record("no-such-order"), 404);
  });

  it("refuses while the customer has just paid the open link (422 payment_in_progress)", async () => {
    const { order, session } = await outstandingOrder();
    stripe.completed.add(session);
    const before = await orderState(server, order.id);
    expectProblem(await record(order.id), 422, "payment_in_progress");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { quantities: [1] });
    await expectScopeMatrix(server, "orders.record_payment", { orderId: order.id });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    await expectRejected(server, "orders.record_payment", key, [{}, { orderId: "" }, { orderId: 5 }, { orderId: "x", amountDkk: 5 }]);
  });
});
