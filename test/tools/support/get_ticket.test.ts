// support.get_ticket through real HTTP: the conversation in order.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["support:read", "support:write"] } });

describe("support.get_ticket", () => {
  it("shows the shopper's message and the staff reply, oldest first", async () => {
    expectOk(server, "support.reply", await server.call("support.reply", { ticketId: "demo-ticket-1", message: "Vi bytter dem." }, { key: staff }));
    const ticket = expectOk<{ status: string; messages: Array<{ from: string; body: string }> }>(server, "support.get_ticket", await server.call("support.get_ticket", { ticketId: "demo-ticket-1" }, { key: staff }));
    expect(ticket).toMatchObject({ status: "answered", subject: "Forkert farve leveret", email: "sofie.pedersen@example.dk", customerId: "demo-customer-sofie", closedAt: null });
    expect(ticket.messages.map((m) => [m.from, m.body])).toEqual([["shopper", expect.stringContaining("brune")], ["staff", "Vi bytter dem."]]);
  });

  it("answers 404 for an unknown ticket", async () => {
    expectProblem(await server.call("support.get_ticket", { ticketId: "nope" }, { key: staff }), 404, "not_found");
  });

  it("needs support:read", async () => {
    await expectScopeMatrix(server, "support.get_ticket", { ticketId: "demo-ticket-1" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "support.get_ticket", staff, [{}, { ticketId: "" }, { ticketId: 1 }, { ticketId: "x", y: 1 }]);
  });
});
