// orders.apply_payment_event through real HTTP (a `*` key; the Stripe webhook door is test/commerce/webhook.test.ts):
// once per event id, paid only along a legal transition, audit and history in one transaction, e-mail after commit.
import { beforeAll, describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { newSession } from "../../support/session.ts";
import { captureMail, createOrder, orderState } from "./fixtures.ts";

type Outcome = { duplicate: boolean; orderId: string | null; markedPaid: boolean };

const { server, keys: { star } } = useServer({ keys: { star: ["*"] } });
let mail: ReturnType<typeof captureMail>;
beforeAll(async () => {
  mail = captureMail(server);
});

const prisma = () => server.prisma;
let events = 0;
const eventId = () => `evt_test_${++events}`;
const apply = (input: Record<string, unknown>, key = star) => server.call("orders.apply_payment_event", input, { key });
const paidEvent = (orderId: string, extra: Record<string, unknown> = {}) => {
  const id = eventId();
  return { eventId: id, provider: "stripe", type: "checkout.session.completed", orderId, paymentIntentId: `pi_${id}`, paymentMethod: "card", paid: true, ...extra };
};

describe("orders.apply_payment_event", () => {
  it("moves a pending_payment order to paid with intent and method, history, audit, and the confirmation after commit", async () => {
    const order = await createOrder(server, { status: "pending_payment", email: "betaler@example.dk" });
    mail.sent.length = 0;
    const event = paidEvent(order.id);
    expect(expectOk<Outcome>(server, "orders.apply_payment_event", await apply(event))).toEqual({ duplicate: false, orderId: order.id, markedPaid: true });
    const paid = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(paid).toMatchObject({ status: "paid", paymentProviderPaymentIntentId: event.paymentIntentId, paymentMethod: "card" });
    expect(paid.paidAt).toBeInstanceOf(Date);
    expect(paid.confirmationEmailSentAt).toBeInstanceOf(Date);
    const keyRow = await prisma().apiKey.findFirstOrThrow({ where: { scopes: { has: "*" } } });
    const [change] = await prisma().orderStatusChange.findMany({ where: { orderId: order.id } });
    expect(change).toMatchObject({ fromStatus: "pending_payment", toStatus: "paid", actor: `key:${keyRow.id}`, reason: `stripe checkout.session.completed ${event.eventId}` });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.apply_payment_event", subjectType: "order", subjectId: order.id, door: "rest" });
    expect(audit!.before).toMatchObject({ status: "pending_payment" });
    expect(audit!.after).toMatchObject({ status: "paid" });
    expect(mail.sent.map((message) => message.to)).toEqual(["betaler@example.dk"]);
    expect(await prisma().paymentEvent.findUniqueOrThrow({ where: { id: event.eventId } })).toMatchObject({ provider: "stripe", type: "checkout.session.completed", orderId: order.id });
  });

  it("applies an event id once: a repeat is a duplicate and writes nothing", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const event = paidEvent(order.id);
    expectOk(server, "orders.apply_payment_event", await apply(event));
    const before = await orderState(server, order.id);
    const sent = mail.sent.length;
    expect(expectOk<Outcome>(server, "orders.apply_payment_event", await apply(event))).toEqual({ duplicate: true, orderId: order.id, markedPaid: false });
    expect(await orderState(server, order.id)).toEqual(before);
    expect(mail.sent.length).toBe(sent);
  });

  it("finds the order by the provider's session id when the event names no order", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    await prisma().order.update({ where: { id: order.id }, data: { paymentProvider: "stripe", paymentProviderSessionId: "cs_test_lookup" } });
    const { orderId: _none, ...event } = paidEvent(order.id, { providerSessionId: "cs_test_lookup" });
    expect(expectOk<Outcome>(server, "orders.apply_payment_event", await apply(event))).toMatchObject({ orderId: order.id, markedPaid: true });
  });

  it("records an event that is no payment, or names no order of this shop, without touching an order or auditing", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const before = await orderState(server, order.id);
    const unpaid = { eventId: eventId(), provider: "stripe", type: "checkout.session.expired", orderId: order.id, paid: false };
    expect(expectOk<Outcome>(server, "orders.apply_payment_event", await apply(unpaid))).toEqual({ duplicate: false, orderId: order.id, markedPaid: false });
    const stranger = paidEvent("no-such-order");
    expect(expectOk<Outcome>(server, "orders.apply_payment_event", await apply(stranger))).toEqual({ duplicate: false, orderId: null, markedPaid: false });
    expect(await orderState(server, order.id)).toEqual(before);
    expect(await prisma().paymentEvent.count({ where: { id: { in: [unpaid.eventId, stranger.eventId] } } })).toBe(2);
  });

  it("leaves an order that cannot become paid (cancelled, already paid) as it is", async () => {
    for (const status of ["cancelled", "paid", "refunded"]) {
      const order = await createOrder(server, { status });
      const before = await orderState(server, order.id);
      expect(expectOk<Outcome>(server, "orders.apply_payment_event", await apply(paidEvent(order.id)))).toEqual({ duplicate: false, orderId: order.id, markedPaid: false });
      expect(await orderState(server, order.id)).toEqual(before);
    }
  });

  it("keeps the payment when the confirmation e-mail fails after commit, and records no e-mail", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    mail.fail = true;
    try {
      expect(expectOk<Outcome>(server, "orders.apply_payment_event", await apply(paidEvent(order.id)))).toMatchObject({ markedPaid: true });
    } finally {
      mail.fail = false;
    }
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "paid", confirmationEmailSentAt: null });
    expect(await prisma().emailMessage.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("refuses with 409 a payment intent already on another order, recording nothing, so a retry after a fix applies it", async () => {
    const [first, second] = [await createOrder(server, { status: "pending_payment" }), await createOrder(server, { status: "pending_payment" })];
    const taken = paidEvent(first.id);
    expectOk(server, "orders.apply_payment_event", await apply(taken));
    const before = await orderState(server, second.id);
    const clash = paidEvent(second.id, { paymentIntentId: taken.paymentIntentId });
    expectProblem(await apply(clash), 409, "conflict");
    expect(await orderState(server, second.id)).toEqual(before);
    expect(await prisma().paymentEvent.count({ where: { id: clash.eventId } })).toBe(0);
  });

  it("is for the webhook and * keys only: payments:write is on no key, no staff scope and no session", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const event = paidEvent(order.id);
    expectProblem(await server.call("orders.apply_payment_event", event), 401, "unauthorized");
    const forbidden = await apply(event, await server.key("orders:write", "orders:read"));
    expectProblem(forbidden, 403, "forbidden");
    expect(forbidden.body.detail).toContain("payments:write");
    expectProblem(await server.call("orders.apply_payment_event", event, { cookie: await newSession(server) }), 403, "forbidden");
    // No key can be given the scope: keys.create refuses it.
    const grant = await server.call("keys.create", { name: "betaling", scopes: ["payments:write"] }, { key: star });
    expect([400, 422]).toContain(grant.status);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("pending_payment");
    expect(await prisma().paymentEvent.count({ where: { id: event.eventId } })).toBe(0);
  });

  it("rejects bad input with a 400 problem and records nothing", async () => {
    const events = () => prisma().paymentEvent.count();
    const valid = paidEvent("demo-order-21");
    const snapshot = async () => [await auditCount(server), await events()];
    await expectRejected(server, "orders.apply_payment_event", star, [
      {},
      { ...valid, eventId: "" },
      { ...valid, provider: "paypal" },
      { ...valid, paid: "yes" },
      { ...valid, orderId: 1 },
      { ...valid, orderId: "" },
      { ...valid, type: "x".repeat(101) },
      { ...valid, amountDkk: 100 },
    ], snapshot);
  });
});
