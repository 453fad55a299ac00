// orders.set_tracking through real HTTP: tracking fields, delivery window, markShipped only where legal.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createOrder, orderState } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });

const track = (input: object) => server.call("orders.set_tracking", input, { key });
const full = {
  carrier: "PostNord",
  trackingNumber: "00370712345678901234",
  trackingUrl: "https://tracking.postnord.com/dk/?id=00370712345678901234",
  estDeliveryFrom: "2026-03-02T08:00:00Z",
  estDeliveryTo: "2026-03-03T18:00:00+01:00",
};

describe("orders.set_tracking", () => {
  it("sets tracking and marks the order shipped", async () => {
    const order = await createOrder(server, { status: "processing" });
    const result = expectOk(server, "orders.set_tracking", await track({ orderId: order.id, ...full, markShipped: true }));
    expect(result).toEqual({ id: order.id, status: "shipped", ...full, estDeliveryTo: "2026-03-03T17:00:00.000Z", estDeliveryFrom: "2026-03-02T08:00:00.000Z" });
    const [change] = await server.prisma.orderStatusChange.findMany({ where: { orderId: order.id } });
    expect(change).toMatchObject({ fromStatus: "processing", toStatus: "shipped" });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.set_tracking", subjectType: "order", subjectId: order.id });
    expect(audit!.after).toMatchObject({ status: "shipped", carrier: "PostNord" });
  });

  it("e-mails the shopper once that the parcel is on its way: carrier, tracking link, address and delivery window", async () => {
    const mail = captureMail(server);
    const order = await createOrder(server, { status: "processing", email: "pakke@example.dk" });
    expectOk(server, "orders.set_tracking", await track({ orderId: order.id, ...full, markShipped: true }));
    await expect.poll(() => mail.sent.filter((m) => m.to === "pakke@example.dk").length).toBe(1);
    const [sent] = mail.sent.filter((m) => m.to === "pakke@example.dk");
    expect(sent!.subject).toBe(`Din ordre #${order.number} er sendt – Nordlys Optik`);
    expect(sent!.text).toContain(`Din ordre #${order.number} hos Nordlys Optik er på vej!`);
    expect(sent!.text).toContain("Pakken er sendt med PostNord (sporingsnummer 00370712345678901234).");
    expect(sent!.text).toContain(`Følg pakken her: ${full.trackingUrl}`);
    expect(sent!.text).toContain(order.shippingAddress);
    expect(sent!.text).toContain("Forventet levering: mandag 2. marts – tirsdag 3. marts.");
    expect(sent!.html).toContain(`<a href="${full.trackingUrl}">`);
    expect(sent!.text).toContain(`/orders/number/${order.number}`);
    // Shipped again after a partial refund: the shopper already knows.
    expectOk(server, "orders.refund", await server.call("orders.refund", { orderId: order.id, amountDkk: 100 }, { key: await server.key("orders:write") }));
    expectOk(server, "orders.update_status", await server.call("orders.update_status", { orderId: order.id, status: "shipped" }, { key }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mail.sent.filter((m) => m.to === "pakke@example.dk")).toHaveLength(1);
    expect(await server.prisma.emailMessage.count({ where: { orderId: order.id, kind: "order_shipped" } })).toBe(1);
  });

  it("names the parcel shop of a parcel-shop order, not the home address, and the shop's return period", async () => {
    const mail = captureMail(server);
    const order = await createOrder(server, { status: "processing", email: "pakkeshop@example.dk" });
    const point = { id: "gls-aarhus-spar", name: "Spar Trøjborg", address: "Tordenskjoldsgade 20", zip: "8200", city: "Aarhus N" };
    await server.runtime.database.prisma.order.update({
      where: { id: order.id },
      data: { deliveryMethodId: "gls-pakkeshop", deliveryMethodName: "GLS Pakkeshop", deliveryCarrier: "GLS", pickupPoint: point },
    });
    expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { returnDays: 30 }, { key: await server.key("settings:write") }));
    expectOk(server, "orders.set_tracking", await track({ orderId: order.id, ...full, carrier: "GLS", markShipped: true }));
    await expect.poll(() => mail.sent.filter((m) => m.to === "pakkeshop@example.dk").length).toBe(1);
    const [sent] = mail.sent.filter((m) => m.to === "pakkeshop@example.dk");
    expect(sent!.text).toContain(["Levering: GLS Pakkeshop", "Leveres til pakkeshop:", "Spar Trøjborg", "Tordenskjoldsgade 20", "8200 Aarhus N", `Afhentes af ${order.shippingName}`].join("\n"));
    expect(sent!.text).not.toContain(order.shippingAddress);
    expect(sent!.html).toContain("Leveres til pakkeshop:<br>Spar Trøjborg<br>");
    expect(sent!.text).toContain("retur inden for 30 dage efter levering");
  });

  it("updates only the given fields without changing the status", async () => {
    const order = await createOrder(server, { status: "paid" });
    expectOk(server, "orders.set_tracking", await track({ orderId: order.id, ...full }));
    const result = expectOk(server, "orders.set_tracking", await track({ orderId: order.id, carrier: "GLS" }));
    expect(result).toMatchObject({ status: "paid", carrier: "GLS", trackingNumber: full.trackingNumber, estDeliveryFrom: "2026-03-02T08:00:00.000Z" });
    expect(await server.prisma.orderStatusChange.count({ where: { orderId: order.id } })).toBe(0);
    expect((await lastAudit(server))!.before).toMatchObject({ carrier: "PostNord" });
  });

  it("refuses markShipped where shipping is not legal with 422 illegal_transition, saving nothing", async () => {
    for (const status of ["pending_payment", "cancelled", "shipped", "refunded"]) {
      const order = await createOrder(server, { status });
      const before = await orderState(server, order.id);
      expectProblem(await track({ orderId: order.id, ...full, markShipped: true }), 422, "illegal_transition");
      expect(await orderState(server, order.id)).toEqual(before);
    }
  });

  it("refuses a window that, with the stored dates, ends before it starts (422 invalid_delivery_window)", async () => {
    const order = await createOrder(server, { status: "paid" });
    expectOk(server, "orders.set_tracking", await track({ orderId: order.id, ...full }));
    const before = await orderState(server, order.id);
    expectProblem(await track({ orderId: order.id, estDeliveryFrom: "2026-04-01T00:00:00Z" }), 422, "invalid_delivery_window");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await track({ orderId: "nope", carrier: "GLS" }), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectScopeMatrix(server, "orders.set_tracking", { orderId: order.id, carrier: "DAO" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    const id = order.id;
    await expectRejected(
      server,
      "orders.set_tracking",
      key,
      [
        { carrier: "GLS" },
        { orderId: id, trackingUrl: "http://insecure.example/track" },
        { orderId: id, trackingUrl: "not a url" },
        { orderId: id, estDeliveryFrom: "2026-03-05T00:00:00Z", estDeliveryTo: "2026-03-01T00:00:00Z" },
        { orderId: id, estDeliveryFrom: "tomorrow" },
        { orderId: id, carrier: "" },
        { orderId: id, markShipped: "yes" },
        { orderId: id, carrier: "x".repeat(101) },
        { orderId: id, status: "shipped" },
      ],
      () => orderState(server, id),
    );
  });
});
