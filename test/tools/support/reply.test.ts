// support.reply through real HTTP: the answer is stored, the ticket answered, the shopper mailed after commit.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["support:write"] } });
const open = async (email: string) =>
  expectOk<{ ticketId: string }>(server, "support.create_ticket", await server.call("support.create_ticket", { subject: "Retur", message: "Hvordan sender jeg retur?", email })).ticketId;

describe("support.reply", () => {
  it("answers, marks the ticket answered and e-mails the answer to the shopper", async () => {
    const mail = captureMail(server);
    const id = await open("svar@example.dk");
    expect(expectOk(server, "support.reply", await server.call("support.reply", { ticketId: id, message: "Brug returlabel i pakken." }, { key: staff }))).toEqual({ ticketId: id, status: "answered" });
    expect(await lastAudit(server)).toMatchObject({ tool: "support.reply", subjectId: id, before: { status: "open" }, after: { status: "answered" } });
    await expect.poll(() => mail.sent.find((m) => m.to === "svar@example.dk" && m.subject.startsWith("Svar på"))?.text ?? "").toContain("Brug returlabel i pakken.");
  });

  it("refuses a closed ticket (422 ticket_closed) and an unknown one, writing nothing", async () => {
    const id = await open("lukket@example.dk");
    expectOk(server, "support.close", await server.call("support.close", { ticketId: id }, { key: staff }));
    const messages = () => server.prisma.supportMessage.count();
    const before = await messages();
    expectProblem(await server.call("support.reply", { ticketId: id, message: "Hej" }, { key: staff }), 422, "ticket_closed");
    expectProblem(await server.call("support.reply", { ticketId: "nope", message: "Hej" }, { key: staff }), 404, "not_found");
    expect(await messages()).toBe(before);
  });

  it("needs support:write", async () => {
    await expectScopeMatrix(server, "support.reply", { ticketId: await open("matrix@example.dk"), message: "Svar" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "support.reply", staff, [{}, { ticketId: "x" }, { ticketId: "x", message: "  " }, { ticketId: "x", message: "a", z: 1 }]);
  });
});
