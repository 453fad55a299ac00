// orders.get_timeline through real HTTP: status changes, notes, e-mails and audit events of one order, oldest first.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createOrder } from "./fixtures.ts";

type Event = { at: string; kind: string; summary: string; [field: string]: unknown };

const { server, keys: { reader, writer } } = useServer({ keys: { reader: ["orders:read"], writer: ["orders:write"] } });
beforeAll(async () => {
  captureMail(server);
});

const timeline = async (input: object) => expectOk<Event[]>(server, "orders.get_timeline", await server.call("orders.get_timeline", input, { key: reader }));

describe("orders.get_timeline", () => {
  it("lists status changes, notes, e-mails and audit events, oldest first", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const other = await createOrder(server, { status: "pending" });
    await server.call("orders.update_status", { orderId: other.id, status: "processing" }, { key: writer });
    await server.call("orders.update_status", { orderId: order.id, status: "paid" }, { key: writer });
    await server.call("orders.add_note", { orderId: order.id, body: "Pakkes i gaveindpakning" }, { key: writer });
    await server.call("orders.set_tracking", { orderId: order.id, carrier: "GLS", markShipped: true }, { key: writer });
    const events = await timeline({ orderId: order.id });
    expect(events.map((e) => e.kind).sort()).toEqual(["audit", "audit", "email", "email", "note", "status", "status"]);
    const times = events.map((e) => e.at);
    expect(times).toEqual([...times].sort());
    expect(events.find((e) => e.kind === "status" && e.toStatus === "paid")).toMatchObject({ fromStatus: "pending_payment", reason: null, actor: expect.stringMatching(/^key:/) });
    expect(events.find((e) => e.kind === "note")).toMatchObject({ body: "Pakkes i gaveindpakning", noteId: expect.any(String) });
    expect(events.filter((e) => e.kind === "email").map((e) => e.emailKind)).toEqual(["order_confirmation", "order_shipped"]);
    expect(events.find((e) => e.kind === "email")).toMatchObject({ to: order.email, emailKind: "order_confirmation", transport: "smtp" });
    expect(events.filter((e) => e.kind === "audit").map((e) => e.tool)).toEqual(["orders.update_status", "orders.set_tracking"]);
    expect(events.every((e) => typeof e.summary === "string" && e.summary.length > 0)).toBe(true);
    expect(await timeline({ orderId: order.id, limit: 2 })).toEqual(events.slice(0, 2));
  });

  it("is empty for an order without history", async () => {
    const order = await createOrder(server);
    expect(await timeline({ orderId: order.id })).toEqual([]);
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await server.call("orders.get_timeline", { orderId: "nope" }, { key: reader }), 404, "not_found");
  });

  it("needs orders:read", async () => {
    const order = await createOrder(server);
    await expectScopeMatrix(server, "orders.get_timeline", { orderId: order.id });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.get_timeline", reader, [{}, { orderId: "" }, { orderId: "x", limit: 0 }, { orderId: "x", limit: 101 }, { orderId: "x", kind: "note" }]);
  });
});
