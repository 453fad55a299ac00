// orders.change_delivery through real HTTP: another parcel shop, a pickup method instead of home delivery and back, on
// unpaid and paid orders. Shipping is priced as checkout prices the method; an unpaid order's total follows with a new
// payment link, a paid order is refunded a cheaper method's difference and refused a dearer one; refusals write
// nothing; two changes racing refund once; shoppers change only their own orders.
import { beforeAll, describe, expect, it } from "vitest";
import { vatOf } from "../../../src/tools/orders/pricing.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createCustomer, createOrder, orderState, sessionFor } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write", "orders:read", "settings:write"] } });
const prisma = () => server.prisma;

type View = {
  id: string;
  status: string;
  delivery: { method: string; name: string; carrier: string; pickupPoint: { id: string; name: string; address: string; zip: string; city: string } | null } | null;
  shippingName: string;
  shippingAddress: string;
  shippingZip: string;
  shippingCity: string;
  shippingDkk: number;
  totalDkk: number;
  returnedDkk: number;
  outstandingDkk: number;
  paymentUrl: string | null;
};
type Entry = { kind: string; method: string; amountDkk: number };

const change = (orderId: string, method: string, pickupPointId?: string, extra: object = {}) =>
  server.call("orders.change_delivery", { orderId, method, ...(pickupPointId ? { pickupPointId } : {}), ...extra }, { key });
const changed = async (orderId: string, method: string, pickupPointId?: string, extra: object = {}) =>
  expectOk<View>(server, "orders.change_delivery", await change(orderId, method, pickupPointId, extra));
const payments = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key }));

// The demo methods: PostNord home at the flat rate (49 kr.), PostNord parcel shop 39 kr., GLS parcel shop 35 kr. A
// threshold no order reaches keeps every method at its price; one test lowers it.
beforeAll(async () => {
  expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: 100_000_000 }, { key }));
});

describe("orders.change_delivery", () => {
  it("moves an unpaid order to a parcel shop: shipping repriced, the total follows with a new payment link, audited and mailed", async () => {
    const mail = captureMail(server);
    const order = await createOrder(server, { status: "pending_payment" });
    const result = await changed(order.id, "postnord-pakkeshop", "pn-aarhus-foetex");
    const total = order.subtotalDkk + 3900n;
    expect(result).toEqual({
      id: order.id,
      status: "pending_payment",
      delivery: { method: "postnord-pakkeshop", name: "PostNord Pakkeshop", carrier: "PostNord", pickupPoint: { id: "pn-aarhus-foetex", name: "Føtex Aarhus C", address: "Guldsmedgade 3", zip: "8000", city: "Aarhus C" } },
      shippingName: order.shippingName,
      shippingAddress: order.shippingAddress,
      shippingZip: "8000",
      shippingCity: "Aarhus C",
      shippingDkk: 3900,
      totalDkk: Number(total),
      returnedDkk: 0,
      outstandingDkk: Number(total),
      paymentUrl: expect.stringMatching(new RegExp(`/orders/${order.id}/pay\\?token=`)),
    });
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ deliveryMethodId: "postnord-pakkeshop", deliveryCarrier: "PostNord", shippingDkk: 3900n, totalDkk: total, vatOere: vatOf(total), pickupPoint: { id: "pn-aarhus-foetex" } });
    expect(await lastAudit(server)).toMatchObject({ tool: "orders.change_delivery", subjectType: "order", subjectId: order.id, before: { shippingDkk: 4900, deliveryMethodId: null }, after: { shippingDkk: 3900, deliveryMethodId: "postnord-pakkeshop" } });
    await expect.poll(() => mail.sent.find((message) => message.to === order.email)?.text).toContain("Levering: PostNord Pakkeshop, hentes i Føtex Aarhus C, Guldsmedgade 3, 8000 Aarhus C");
    const sent = mail.sent.find((message) => message.to === order.email)!;
    expect(sent.text).toContain("Vi har ændret leveringen af din ordre");
    expect(await prisma().emailMessage.count({ where: { orderId: order.id, kind: "order_changed" } })).toBe(1);
    expect(expectOk<{ delivery: View["delivery"] }>(server, "orders.get_delivery", await server.call("orders.get_delivery", { orderId: order.id }, { key })).delivery).toEqual(result.delivery);
  });

  it("switches a parcel-shop order to home delivery and back, to the order's own address", async () => {
    const order = await createOrder(server, { status: "pending" });
    await changed(order.id, "gls-pakkeshop", "gls-aarhus-spar");
    const home = await changed(order.id, "postnord-hjem");
    expect(home).toMatchObject({ delivery: { method: "postnord-hjem", pickupPoint: null }, shippingAddress: order.shippingAddress, shippingDkk: 4900, totalDkk: Number(order.subtotalDkk + 4900n) });
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).pickupPoint).toBeNull();
    const back = await changed(order.id, "gls-pakkeshop", "gls-kbh-shell-amager");
    expect(back).toMatchObject({ delivery: { method: "gls-pakkeshop", pickupPoint: { id: "gls-kbh-shell-amager" } }, shippingDkk: 3500 });
  });

  it("refunds a paid order the difference of a cheaper method, keeps the money for the same price, and refuses a dearer one", async () => {
    const order = await createOrder(server, { status: "paid" });
    const before = await orderState(server, order.id);
    const dearer = await change(order.id, "postnord-hjem");
    // The order has no method yet: home delivery at 49 kr. costs what it paid, so nothing changes but the method.
    expect(dearer.status).toBe(200);
    const cheaper = await changed(order.id, "gls-pakkeshop", "gls-aarhus-spar", { refundAccount: "1234 0012345678" });
    expect(cheaper).toMatchObject({ status: "paid", shippingDkk: 3500, totalDkk: Number(order.totalDkk - 1400n), returnedDkk: 1400, outstandingDkk: 0, paymentUrl: null });
    expect((await payments(order.id)).map((entry) => [entry.kind, entry.method, entry.amountDkk])).toEqual([["payment", "bank_transfer", Number(order.totalDkk)], ["refund", "bank_transfer", 1400]]);
    expect(await prisma().refundTask.findMany({ where: { orderId: order.id } })).toMatchObject([{ amountDkk: 1400n, account: "1234 0012345678" }]);
    // Another GLS shop at the same price: no money moves.
    expect(await changed(order.id, "gls-pakkeshop", "gls-kbh-kiosk-noerrebro")).toMatchObject({ shippingDkk: 3500, returnedDkk: 0, delivery: { pickupPoint: { id: "gls-kbh-kiosk-noerrebro" } } });
    // Dearer than the 35 kr. paid: refused, nothing written.
    const paidState = await orderState(server, order.id);
    const refused = await change(order.id, "postnord-pakkeshop", "pn-aarhus-foetex");
    expectProblem(refused, 422, "payment_required");
    expect(refused.body.detail).toMatch(/can only stay or go down/);
    expectProblem(await change(order.id, "postnord-hjem"), 422, "payment_required");
    expect(await orderState(server, order.id)).toEqual(paidState);
    expect(before.order!.refundedDkk).toBe(0n);
  });

  it("prices a method free when the goods reach the free-shipping threshold, and keeps the order's own method's price", async () => {
    const order = await createOrder(server, { status: "pending", shippingDkk: 2500 });
    await prisma().order.update({ where: { id: order.id }, data: { deliveryMethodId: "gls-pakkeshop", deliveryMethodName: "GLS Pakkeshop", deliveryCarrier: "GLS", pickupPoint: { id: "gls-aarhus-spar", name: "Spar Trøjborg", address: "Tordenskjoldsgade 20", zip: "8200", city: "Aarhus N" } } });
    // Another GLS shop: the order's own method keeps the 25 kr. it was ordered at.
    expect(await changed(order.id, "gls-pakkeshop", "gls-kbh-shell-amager")).toMatchObject({ shippingDkk: 2500, totalDkk: Number(order.totalDkk) });
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: Number(order.subtotalDkk) }, { key }));
    try {
      expect(await changed(order.id, "postnord-pakkeshop", "pn-odense-rema")).toMatchObject({ shippingDkk: 0, totalDkk: Number(order.subtotalDkk) });
    } finally {
      expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: 100_000_000 }, { key }));
    }
  });

  it("writes nothing for the delivery it already has", async () => {
    const order = await createOrder(server, { status: "pending" });
    await changed(order.id, "postnord-pakkeshop", "pn-frb-meny");
    const before = await orderState(server, order.id);
    expect(await changed(order.id, "postnord-pakkeshop", "pn-frb-meny")).toMatchObject({ delivery: { pickupPoint: { id: "pn-frb-meny" } }, returnedDkk: 0 });
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("refuses unknown methods and parcel shops, a pickup method without one, and a shipped order, writing nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    const before = await orderState(server, order.id);
    expectProblem(await change(order.id, "dao-hjem"), 422, "unknown_delivery_method");
    expectProblem(await change(order.id, "gls-pakkeshop"), 422, "pickup_point_required");
    expectProblem(await change(order.id, "gls-pakkeshop", "pn-aarhus-foetex"), 422, "invalid_pickup_point");
    expectProblem(await change(order.id, "gls-pakkeshop", "no-such-shop"), 422, "invalid_pickup_point");
    expect(await orderState(server, order.id)).toEqual(before);
    const shipped = await createOrder(server, { status: "shipped" });
    const shippedBefore = await orderState(server, shipped.id);
    expectProblem(await change(shipped.id, "gls-pakkeshop", "gls-aarhus-spar"), 422, "already_shipped");
    expect(await orderState(server, shipped.id)).toEqual(shippedBefore);
    expectProblem(await change("no-such-order", "postnord-hjem"), 404, "not_found");
  });

  it("refunds once when two changes race for the same paid order", async () => {
    const order = await createOrder(server, { status: "paid" });
    const same = await Promise.all([change(order.id, "gls-pakkeshop", "gls-aarhus-spar"), change(order.id, "gls-pakkeshop", "gls-aarhus-spar")]);
    expect(same.map((response) => response.status)).toEqual([200, 200]);
    expect((await payments(order.id)).filter((entry) => entry.kind === "refund").map((entry) => entry.amountDkk)).toEqual([1400]);
    // Different cheaper choices racing: one after the other, the refunds add up to the fall in the total.
    const other = await createOrder(server, { status: "paid" });
    const both = await Promise.all([change(other.id, "postnord-pakkeshop", "pn-aarhus-foetex"), change(other.id, "gls-pakkeshop", "gls-aarhus-spar")]);
    const row = await prisma().order.findUniqueOrThrow({ where: { id: other.id } });
    const refunds = (await payments(other.id)).filter((entry) => entry.kind === "refund").reduce((sum, entry) => sum + entry.amountDkk, 0);
    expect(refunds).toBe(Number(other.totalDkk - row.totalDkk));
    expect(refunds).toBeLessThanOrEqual(Number(other.totalDkk));
    expect(both.every((response) => [200, 422].includes(response.status))).toBe(true);
  });

  it("lets a shopper change their own order and no one else's", async () => {
    const customer = await createCustomer(server, { email: "levering-selv@example.dk", name: "Mette Hansen" });
    const own = await createOrder(server, { status: "pending", email: customer.email, userId: customer.id });
    const cookie = await sessionFor(server, customer.id);
    expect(expectOk<View>(server, "orders.change_delivery", await server.call("orders.change_delivery", { orderId: own.id, method: "gls-pakkeshop", pickupPointId: "gls-aarhus-spar" }, { cookie }))).toMatchObject({ shippingDkk: 3500 });
    expect(await lastAudit(server)).toMatchObject({ tool: "orders.change_delivery", actor: expect.stringMatching(/^session:/) });
    const other = await createOrder(server, { status: "pending" });
    const before = await orderState(server, other.id);
    expectProblem(await server.call("orders.change_delivery", { orderId: other.id, method: "gls-pakkeshop", pickupPointId: "gls-aarhus-spar" }, { cookie }), 404, "not_found");
    expect(await orderState(server, other.id)).toEqual(before);
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "pending" });
    await expectScopeMatrix(server, "orders.change_delivery", { orderId: order.id, method: "postnord-hjem" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectRejected(
      server,
      "orders.change_delivery",
      key,
      [
        { orderId: order.id },
        { orderId: order.id, method: "" },
        { orderId: order.id, method: "gls-pakkeshop", pickupPointId: "" },
        { orderId: order.id, method: "postnord-hjem", refundAccount: "1" },
        { orderId: order.id, method: "postnord-hjem", shippingDkk: 0 },
      ],
      () => orderState(server, order.id),
    );
  });
});
