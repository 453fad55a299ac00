// user.get_order_status through real HTTP: status and tracking of the session's own order (placed in it, or its signed-in
// customer's); others are 404 when signed in, 422 no_customer when not.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { sessionIdOf } from "../../support/session.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

const { server } = useServer();
let cookie: string;
let mine: { id: string };
let theirs: { id: string };
beforeAll(async () => {
  const customer = await createCustomer(server, { email: "anna@example.dk" });
  const other = await createCustomer(server, { email: "bo@example.dk" });
  mine = await createOrder(server, { userId: customer.id, status: "processing" });
  theirs = await createOrder(server, { userId: other.id });
  cookie = await sessionFor(server, customer.id);
});

const status = (orderId: string, auth: { key?: string; cookie?: string } = { cookie }) => server.call("user.get_order_status", { orderId }, auth);

describe("user.get_order_status", () => {
  it("returns status and tracking of the customer's own order", async () => {
    const writer = await server.key("orders:write");
    const tracking = { carrier: "PostNord", trackingNumber: "123", trackingUrl: "https://postnord.dk/t/123", estDeliveryFrom: "2026-03-02T08:00:00.000Z", estDeliveryTo: "2026-03-03T16:00:00.000Z" };
    await server.call("orders.set_tracking", { orderId: mine.id, ...tracking, markShipped: true }, { key: writer });
    const result = expectOk(server, "user.get_order_status", await status(mine.id));
    expect(result).toEqual({ orderId: mine.id, status: "shipped", delivery: null, ...tracking, updatedAt: expect.stringMatching(/Z$/) });
  });

  it("answers 404 for another customer's order exactly as for a missing one", async () => {
    const other = await status(theirs.id);
    const missing = await status("nope");
    expectProblem(other, 404, "not_found");
    expectProblem(missing, 404, "not_found");
    expect(String(other.body.detail).replace(theirs.id, "X")).toBe(String(missing.body.detail).replace("nope", "X"));
  });

  it("refuses with 422 no_customer without a bound customer", async () => {
    expectProblem(await status(mine.id, { cookie: await sessionFor(server, null) }), 422, "no_customer");
    expectProblem(await status(mine.id, { key: await server.key("customer:read") }), 422, "no_customer");
  });

  it("answers a guest session for the order it placed, and for no other order of that customer", async () => {
    const guest = await sessionFor(server, null);
    const customer = await createCustomer(server, { email: "cecilie@example.dk" });
    const placed = await createOrder(server, { userId: customer.id, status: "pending_payment" });
    const later = await createOrder(server, { userId: customer.id });
    await server.prisma.order.update({ where: { id: placed.id }, data: { sessionId: sessionIdOf(guest) } });
    expect(expectOk(server, "user.get_order_status", await status(placed.id, { cookie: guest }))).toMatchObject({ orderId: placed.id, status: "pending_payment" });
    for (const orderId of [later.id, "nope"]) expectProblem(await status(orderId, { cookie: guest }), 422, "no_customer");
  });

  it("needs customer:read", async () => {
    await expectScopeMatrix(server, "user.get_order_status", { orderId: mine.id });
  });

  it("rejects bad input with a 400 problem", async () => {
    for (const input of [{}, { orderId: "" }, { orderId: 3 }]) expectProblem(await server.call("user.get_order_status", input, { cookie }), 400);
    await expectRejected(server, "user.get_order_status", await server.key("customer:read"), [{}, { orderId: "" }, { orderId: mine.id, x: 1 }]);
  });
});
