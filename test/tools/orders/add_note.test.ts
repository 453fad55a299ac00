// orders.add_note through real HTTP: the note, its author, the audit entry, 404 and bounds.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder, orderState } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });

describe("orders.add_note", () => {
  it("adds a note authored by the calling key", async () => {
    const order = await createOrder(server);
    const body = "Kunden ringede: levering efter kl. 16. <b>ikke html</b>";
    const note = expectOk<{ id: string; author: string; createdAt: string }>(server, "orders.add_note", await server.call("orders.add_note", { orderId: order.id, body }, { key }));
    const keyRow = await server.prisma.apiKey.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect(note).toEqual({ id: expect.any(String), orderId: order.id, body, author: `key:${keyRow.id}`, createdAt: expect.any(String) });
    const stored = await server.prisma.orderNote.findUniqueOrThrow({ where: { id: note.id } });
    expect(stored.body).toBe(body);
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.add_note", subjectType: "orderNote", subjectId: note.id, before: null });
    expect(audit!.after).toMatchObject({ orderId: order.id, body });
  });

  it("accepts 2000 characters", async () => {
    const order = await createOrder(server);
    expectOk(server, "orders.add_note", await server.call("orders.add_note", { orderId: order.id, body: "x".repeat(2000) }, { key }));
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await server.call("orders.add_note", { orderId: "nope", body: "Hej" }, { key }), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server);
    await expectScopeMatrix(server, "orders.add_note", { orderId: order.id, body: "Scope test" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server);
    await expectRejected(
      server,
      "orders.add_note",
      key,
      [{ orderId: order.id }, { orderId: order.id, body: "" }, { orderId: order.id, body: "  " }, { orderId: order.id, body: "x".repeat(2001) }, { orderId: order.id, body: 7 }, { body: "x" }, { orderId: order.id, body: "x", author: "me" }],
      () => orderState(server, order.id),
    );
  });
});
