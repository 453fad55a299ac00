// support.list_tickets through real HTTP: the queue by status, most recently changed first.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["support:read", "support:write"] } });
type Summary = { ticketId: string; status: string; messageCount: number; orderId: string | null };

describe("support.list_tickets", () => {
  it("lists open tickets by default (the demo one included), answered ones when asked", async () => {
    const open = expectOk<Summary[]>(server, "support.list_tickets", await server.call("support.list_tickets", {}, { key: staff }));
    expect(open).toContainEqual(expect.objectContaining({ ticketId: "demo-ticket-1", status: "open", messageCount: 1, orderId: "demo-order-03" }));
    const made = expectOk<{ ticketId: string }>(server, "support.create_ticket", await server.call("support.create_ticket", { subject: "Levering", message: "Hvornår kommer min pakke?", email: "a@example.dk" }));
    const again = expectOk<Summary[]>(server, "support.list_tickets", await server.call("support.list_tickets", {}, { key: staff }));
    expect(again[0]!.ticketId).toBe(made.ticketId);
    expectOk(server, "support.reply", await server.call("support.reply", { ticketId: made.ticketId, message: "I morgen." }, { key: staff }));
    const answered = expectOk<Summary[]>(server, "support.list_tickets", await server.call("support.list_tickets", { status: "answered" }, { key: staff }));
    expect(answered.map((t) => [t.ticketId, t.messageCount])).toEqual([[made.ticketId, 2]]);
    expect(expectOk<Summary[]>(server, "support.list_tickets", await server.call("support.list_tickets", {}, { key: staff })).map((t) => t.ticketId)).not.toContain(made.ticketId);
  });

  it("needs support:read", async () => {
    await expectScopeMatrix(server, "support.list_tickets", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "support.list_tickets", staff, [{ status: "waiting" }, { limit: 0 }, { limit: 101 }, { x: 1 }]);
  });
});
