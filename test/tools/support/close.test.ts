// support.close through real HTTP: closed once, stamped, out of the open queue.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["support:write", "support:read"] } });
const open = async () =>
  expectOk<{ ticketId: string }>(server, "support.create_ticket", await server.call("support.create_ticket", { subject: "Tak", message: "Alt er fint nu.", email: "luk@example.dk" })).ticketId;

describe("support.close", () => {
  it("closes a ticket once: stamped, gone from the open queue; a second close is 422 ticket_closed", async () => {
    const id = await open();
    expect(expectOk(server, "support.close", await server.call("support.close", { ticketId: id }, { key: staff }))).toEqual({ ticketId: id, status: "closed" });
    const row = await server.prisma.supportTicket.findUniqueOrThrow({ where: { id } });
    expect(row.closedAt).not.toBeNull();
    const queue = expectOk<Array<{ ticketId: string }>>(server, "support.list_tickets", await server.call("support.list_tickets", {}, { key: staff }));
    expect(queue.map((t) => t.ticketId)).not.toContain(id);
    expectProblem(await server.call("support.close", { ticketId: id }, { key: staff }), 422, "ticket_closed");
    expectProblem(await server.call("support.close", { ticketId: "nope" }, { key: staff }), 404, "not_found");
  });

  it("needs support:write", async () => {
    await expectScopeMatrix(server, "support.close", { ticketId: await open() });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "support.close", staff, [{}, { ticketId: "" }, { ticketId: "x", y: 1 }]);
  });
});
