// checkout.complete through real HTTP: the order (channel, agent, stock, codes), payment outcomes, readiness, races, bad input.
import { describe, expect, it } from "vitest";
import type { SessionView } from "../../../src/tools/checkout/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { plainProducts } from "../../support/session.ts";
import { BUYER, openSession } from "./helpers.ts";

const { server, keys: { key, staff } } = useServer({ config: { ucpTestMode: true }, keys: { key: ["checkout:agent"], staff: ["orders:read"] } });

const prisma = () => server.prisma;
const pay = (token: string) => ({ handlerId: "mock_payment_handler", instrumentType: "card", token });

describe("checkout.complete", () => {
  it("places a paid order with the session's prices, takes the stock and links the order", async () => {
    const { view, product } = await openSession(server, key, { quantity: 2 });
    const stock = (await prisma().product.findUniqueOrThrow({ where: { id: product.id } })).stock;
    const done = expectOk<SessionView>(server, "checkout.complete", await server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key }));
    expect(done).toMatchObject({ id: view.id, status: "completed", orderId: expect.any(String), messages: [], payment: { selected: { handlerId: "mock_payment_handler", instrumentType: "card" } } });
    expect(done.totals).toEqual(view.totals);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: done.orderId! }, include: { items: true } });
    expect(order).toMatchObject({ status: "paid", email: "agent.buyer@example.dk", shippingName: "Mette Hansen", shippingZip: "1160", shippingCountry: "DK", channel: "web", paymentMethod: "card" });
    expect(Number(order.totalDkk)).toBe(view.totals.find((t) => t.type === "total")!.amount);
    expect(order.items.map((i) => [i.productId, i.quantity])).toEqual([[product.id, 2]]);
    expect((await prisma().product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(stock - 2n);
    const row = await prisma().checkoutSession.findUniqueOrThrow({ where: { id: view.id } });
    expect(row).toMatchObject({ orderId: order.id, status: "completed" });
    expect(JSON.stringify(await prisma().auditEntry.findMany({ where: { tool: "checkout.complete" } }))).not.toContain("success_token");
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key }), 422, "checkout_not_modifiable");
    expectProblem(await server.call("checkout.update", { id: view.id, discountCodes: [] }, { key }), 422, "checkout_not_modifiable");
  });

  it("keeps the destination's region on the order, which orders.get_delivery shows with the country", async () => {
    const products = await plainProducts(server, 1);
    const destination = { street: "Marienplatz 1", postalCode: "80331", city: "München", region: "Bayern", country: "DE" };
    const view = expectOk<SessionView>(server, "checkout.create", await server.call("checkout.create", { lines: [{ itemId: products[0]!.id, quantity: 1 }], buyer: BUYER, destination }, { key }));
    const done = expectOk<SessionView>(server, "checkout.complete", await server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key }));
    expect(await prisma().order.findUniqueOrThrow({ where: { id: done.orderId! } })).toMatchObject({ shippingCountry: "DE", shippingRegion: "Bayern", shippingCity: "München" });
    const delivery = expectOk<{ shippingCountry: string; shippingRegion: string | null }>(server, "orders.get_delivery", await server.call("orders.get_delivery", { orderId: done.orderId! }, { key: staff }));
    expect(delivery).toMatchObject({ shippingCountry: "DE", shippingRegion: "Bayern" });
  });

  it("places an unpaid order with the payment link handler", async () => {
    const { view } = await openSession(server, key);
    const done = expectOk<SessionView>(server, "checkout.complete", await server.call("checkout.complete", { id: view.id, payment: { handlerId: "payment_link" } }, { key }));
    expect((await prisma().order.findUniqueOrThrow({ where: { id: done.orderId! } })).status).toBe("pending_payment");
  });

  it("declines fail_token, refuses fraud_token and unknown handlers, and orders nothing", async () => {
    const { view } = await openSession(server, key);
    const orders = await prisma().order.count();
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: pay("fail_token") }, { key }), 422, "payment_declined");
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: pay("fraud_token") }, { key }), 422, "payment_refused");
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: { handlerId: "stolen_cards" } }, { key }), 422, "payment_handler_unknown");
    expect(await prisma().order.count()).toBe(orders);
    expect((await prisma().checkoutSession.findUniqueOrThrow({ where: { id: view.id } })).status).toBe("ready_for_complete");
  });

  it("pays with a Luhn-valid test card on google_pay, keeps only its brand and last digits, and declines an invalid number", async () => {
    const { view } = await openSession(server, key);
    const card = (cardNumber: string) => ({ handlerId: "google_pay", instrumentType: "card", cardNumber, brand: "Visa" });
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: card("4242424242424241") }, { key }), 422, "payment_declined");
    const done = expectOk<SessionView>(server, "checkout.complete", await server.call("checkout.complete", { id: view.id, payment: card("4242424242424242") }, { key }));
    expect(done.payment.selected).toEqual({ handlerId: "google_pay", instrumentType: "card", brand: "Visa", lastDigits: "4242" });
    expect((await prisma().order.findUniqueOrThrow({ where: { id: done.orderId! } })).status).toBe("paid");
    const stored = JSON.stringify([await prisma().checkoutSession.findUniqueOrThrow({ where: { id: view.id } }), await prisma().auditEntry.findMany({ where: { tool: "checkout.complete" } })]);
    expect(stored).not.toContain("4242424242424242");
  });

  it("completes only with the expected terms when given (422 checkout_changed otherwise, nothing ordered)", async () => {
    const { view } = await openSession(server, key, { quantity: 2 });
    const total = view.totals.find((t) => t.type === "total")!.amount;
    const lines = view.lines.map((line) => ({ itemId: line.itemId, quantity: line.quantity, unitPrice: line.unitPrice }));
    const orders = await prisma().order.count();
    for (const expected of [{ total: total + 1, lines }, { total, lines: [{ ...lines[0]!, quantity: 1 }] }, { total, lines: [] }]) {
      expectProblem(await server.call("checkout.complete", { id: view.id, payment: pay("success_token"), expect: expected }, { key }), 422, "checkout_changed");
    }
    expect(await prisma().order.count()).toBe(orders);
    const done = expectOk<SessionView>(server, "checkout.complete", await server.call("checkout.complete", { id: view.id, payment: pay("success_token"), expect: { total, lines } }, { key }));
    expect(done.status).toBe("completed");
  });

  it("refunds an order paid with the test card to the card, whether staff cancel it or record a refund", async () => {
    const staff = await server.key("orders:write", "orders:read");
    const refunds = [
      (orderId: string) => server.call("orders.cancel", { orderId, reason: "Fortrudt" }, { key: staff }),
      (orderId: string) => server.call("orders.refund", { orderId }, { key: staff }),
    ];
    const ledgers: Array<Array<[string, string]>> = [];
    for (const refund of refunds) {
      const { view } = await openSession(server, key);
      const done = expectOk<SessionView>(server, "checkout.complete", await server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key }));
      expect((await refund(done.orderId!)).status).toBe(200);
      const entries = expectOk<Array<{ kind: string; method: string }>>(server, "orders.payments", await server.call("orders.payments", { orderId: done.orderId! }, { key: staff }));
      ledgers.push(entries.map((entry) => [entry.kind, entry.method]));
    }
    expect(ledgers).toEqual([[["payment", "card"], ["refund", "card"]], [["payment", "card"], ["refund", "card"]]]);
  });

  it("refuses agent checkouts on the tool doors too while the shop's agentAccess is off (403 agent_checkout_off)", async () => {
    const { view, product } = await openSession(server, key);
    const settings = await server.key("settings:write");
    const access = (agentAccess: string) => server.call("settings.update_commerce", { agentAccess }, { key: settings });
    expect((await access("off")).status).toBe(200);
    try {
      const orders = await prisma().order.count();
      expectProblem(await server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key }), 403, "agent_checkout_off");
      expectProblem(await server.call("checkout.create", { lines: [{ itemId: product.id, quantity: 1 }] }), 403, "agent_checkout_off");
      expect(await prisma().order.count()).toBe(orders);
      // Reading a session is not buying.
      expect((await server.call("checkout.get", { id: view.id }, { key })).status).toBe(200);
    } finally {
      expect((await access("open")).status).toBe(200);
    }
    expect((await server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key })).status).toBe(200);
  });

  it("refuses an incomplete session (422 checkout_not_ready)", async () => {
    const { view } = await openSession(server, key, { ready: false });
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key }), 422, "checkout_not_ready");
  });

  it("never oversells: 12 sessions racing for 5 units give exactly 5 orders", async () => {
    const { product } = await openSession(server, key, { ready: false, productIndex: 3 });
    await prisma().product.update({ where: { id: product.id }, data: { stock: 5 } });
    const sessions = await Promise.all(Array.from({ length: 12 }, () => openSession(server, key, { productIndex: 3 })));
    const answers = await Promise.all(sessions.map(({ view }) => server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 200)) expectProblem(refused, 422, "insufficient_stock");
    expect((await prisma().product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(0n);
  });

  it("hides others' sessions and takes any caller short of 401/403", async () => {
    const { view } = await openSession(server, key);
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: pay("success_token") }, { key: await server.key("checkout:agent") }), 404, "not_found");
    await expectScopeMatrix(server, "checkout.complete", { id: view.id, payment: { handlerId: "payment_link" } });
  });

  it("rejects bad input with 400", async () => {
    const { view } = await openSession(server, key);
    await expectRejected(server, "checkout.complete", key, [{ id: view.id }, { id: view.id, payment: {} }, { id: view.id, payment: { handlerId: "x", card: "4111111111111111" } }, { id: view.id, payment: { handlerId: "x", token: "" } }]);
  });
});
