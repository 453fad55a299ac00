// Shopper self-service through real HTTP: a signed-in storefront session may cancel, re-address and read the ledger of
// its own customer's orders (never another's); a session not signed in only those it placed; staff keep their scopes.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { newSession, sessionIdOf } from "../../support/session.ts";
import { createCustomer, createOrder, orderState, sessionFor } from "./fixtures.ts";

const { server } = useServer();
const prisma = () => server.prisma;
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

  it("swaps a line of their own unshipped order to another variant, and not of anyone else's", async () => {
    const customer = await createCustomer(server, { email: `selvbetjening-${++n}@example.dk`, name: "Mette Hansen" });
    const order = await createOrder(server, { status: "pending", email: customer.email, userId: customer.id, variant: true, quantities: [1] });
    const cookie = await sessionFor(server, customer.id);
    const line = order.items[0]!;
    await prisma().productVariant.updateMany({ where: { productId: line.productId }, data: { stock: 5n } });
    const other = await prisma().productVariant.findFirstOrThrow({ where: { productId: line.productId, id: { not: line.variantId! } } });
    const swapped = expectOk<{ lines: Array<{ variantSku: string }> }>(server, "orders.change_items", await server.call("orders.change_items", { orderId: order.id, items: [{ orderItemId: line.id, variantSku: other.sku }] }, { cookie }));
    expect(swapped.lines[0]!.variantSku).toBe(other.sku);
    expect(await lastAudit(server)).toMatchObject({ tool: "orders.change_items", subjectId: order.id, actor: expect.stringMatching(/^session:/) });
    const stranger = await createOrder(server, { status: "pending", variant: true, quantities: [1] });
    const before = await orderState(server, stranger.id);
    expectProblem(await server.call("orders.change_items", { orderId: stranger.id, items: [{ orderItemId: stranger.items[0]!.id, variantSku: other.sku }] }, { cookie }), 404, "not_found");
    expect(await orderState(server, stranger.id)).toEqual(before);
  });

  it("finds their own order by its number, and its number by id; anyone else's is unknown", async () => {
    const { order, cookie } = await shopperWithOrder("paid");
    const other = await shopperWithOrder("paid");
    const { number } = expectOk<{ orderId: string; number: number }>(server, "orders.get_number", await server.call("orders.get_number", { orderId: order.id }, { cookie }));
    expect(expectOk<{ id: string }>(server, "orders.get_by_number", await server.call("orders.get_by_number", { number }, { cookie })).id).toBe(order.id);
    const otherNumber = (await prisma().order.findUniqueOrThrow({ where: { id: other.order.id } })).number;
    expectProblem(await server.call("orders.get_by_number", { number: otherNumber }, { cookie }), 404, "not_found");
    expectProblem(await server.call("orders.get_number", { orderId: other.order.id }, { cookie }), 404, "not_found");
    expectProblem(await server.call("orders.get_by_number", { number: 999_999 }, { cookie }), 404, "not_found");
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

  it("lets a session that is not signed in act on the order it placed, and on no other order of that customer", async () => {
    const { customer, order: earlier } = await shopperWithOrder("paid");
    const guest = await newSession(server);
    const placed = await createOrder(server, { status: "processing", email: customer.email, userId: customer.id });
    await prisma().order.update({ where: { id: placed.id }, data: { sessionId: sessionIdOf(guest) } });
    expect(expectOk<{ id: string }>(server, "orders.get", await server.call("orders.get", { orderId: placed.id }, { cookie: guest })).id).toBe(placed.id);
    const input = { orderId: placed.id, name: "Mette Hansen", address: "Vestergade 10", zip: "5000", city: "Odense C" };
    expect(expectOk(server, "orders.change_address", await server.call("orders.change_address", input, { cookie: guest }))).toMatchObject({ shippingAddress: "Vestergade 10" });
    const before = await orderState(server, earlier.id);
    expectProblem(await server.call("orders.get", { orderId: earlier.id }, { cookie: guest }), 422, "no_customer");
    expectProblem(await server.call("orders.cancel", { orderId: earlier.id, reason: "x" }, { cookie: guest }), 422, "no_customer");
    expect(await orderState(server, earlier.id)).toEqual(before);
  });

  it("never opens staff tools on the same orders to a session", async () => {
    const { order, cookie } = await shopperWithOrder("paid");
    expectProblem(await server.call("orders.get_timeline", { orderId: order.id }, { cookie }), 403, "forbidden");
    expectProblem(await server.call("orders.update_status", { orderId: order.id, status: "cancelled" }, { cookie }), 403, "forbidden");
    expectProblem(await server.call("orders.refund", { orderId: order.id, amountDkk: 100 }, { cookie }), 403, "forbidden");
  });
});
