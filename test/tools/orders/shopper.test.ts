// Shopper self-service through real HTTP: a signed-in storefront session may cancel, re-address and read the ledger of
// its own customer's orders (never another's, never without signing in); staff keep their scopes.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { newSession } from "../../support/session.ts";
import { createCustomer, createOrder, orderState, sessionFor } from "./fixtures.ts";

const { server } = useServer();
const prisma = () => server.runtime.database.prisma;
let n = 0;

async function shopperWithOrder(status: string) {
  const customer = await createCustomer(server, { email: `selvbetjening-${++n}@example.dk`, name: "Mette Hansen" });
  const order = await createOrder(server, { status, email: customer.email, userId: customer.id });
  return { customer, order, cookie: await sessionFor(server, customer.id) };
}

describe("shopper self-service on own orders", () => {
  it("cancels their own paid order, restocked and refunded, with the session as the audited actor", async () => {
    const { order, cookie } = await shopperWithOrder("paid");
    const result = expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Fortrudt", refundTo: "store_credit" }, { cookie }));
    expect(result).toEqual({ id: order.id, status: "cancelled" });
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).refundedDkk).toBe(order.totalDkk);
    expect(await lastAudit(server)).toMatchObject({ tool: "orders.cancel", subjectId: order.id, actor: expect.stringMatching(/^session:/) });
    const ledger = expectOk<Array<{ kind: string }>>(server, "orders.payments", await server.call("orders.payments", { orderId: order.id }, { cookie }));
    expect(ledger.map((entry) => entry.kind)).toEqual(["payment", "store_credit"]);
  });

  it("changes the address of their own unshipped order", async () => {
    const { order, cookie } = await shopperWithOrder("processing");
    const input = { orderId: order.id, name: "Mette Hansen", address: "Vestergade 10", zip: "5000", city: "Odense C" };
    expect(expectOk(server, "orders.change_address", await server.call("orders.change_address", input, { cookie }))).toMatchObject({ id: order.id, shippingAddress: "Vestergade 10" });
  });

  it("answers 404 for another customer's order and for a guest order, writing nothing", async () => {
    const { cookie } = await shopperWithOrder("paid");
    const other = await shopperWithOrder("paid");
    const guest = await createOrder(server, { status: "paid" });
    for (const order of [other.order, guest]) {
      const before = await orderState(server, order.id);
      expectProblem(await server.call("orders.cancel", { orderId: order.id, reason: "x" }, { cookie }), 404, "not_found");
      expectProblem(await server.call("orders.payments", { orderId: order.id }, { cookie }), 404, "not_found");
      expect(await orderState(server, order.id)).toEqual(before);
    }
    expectProblem(await server.call("orders.cancel", { orderId: "no-such-order", reason: "x" }, { cookie }), 404, "not_found");
  });

  it("asks a session that is not signed in to sign in (422 no_customer), and keeps the shop's rules for shoppers", async () => {
    const { order, cookie } = await shopperWithOrder("shipped");
    expectProblem(await server.call("orders.cancel", { orderId: order.id, reason: "x" }, { cookie: await newSession(server) }), 422, "no_customer");
    expectProblem(await server.call("orders.cancel", { orderId: order.id, reason: "x" }, { cookie }), 422, "illegal_transition");
    expectProblem(await server.call("orders.cancel", { orderId: order.id }, { cookie }), 400);
  });

  it("never opens staff tools on the same orders to a session", async () => {
    const { order, cookie } = await shopperWithOrder("paid");
    expectProblem(await server.call("orders.get_timeline", { orderId: order.id }, { cookie }), 403, "forbidden");
    expectProblem(await server.call("orders.update_status", { orderId: order.id, status: "cancelled" }, { cookie }), 403, "forbidden");
    expectProblem(await server.call("orders.refund", { orderId: order.id, amountDkk: 100 }, { cookie }), 403, "forbidden");
  });
});
