// support.create_ticket through real HTTP: a shopper (signed in or not), the storefront session's own order only,
// staff on a shopper's behalf; the shopper gets a receipt by e-mail; refusals write nothing.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["support:write"] } });
const prisma = () => server.prisma;
const ASK = { subject: "Forkert farve", message: "Jeg bestilte brune stel og fik sorte." };

describe("support.create_ticket", () => {
  it("opens a ticket for a signed-in shopper about their own order, with their e-mail, and mails a receipt", async () => {
    const mail = captureMail(server);
    const customer = await createCustomer(server, { email: "clara@example.dk" });
    const order = await createOrder(server, { userId: customer.id, email: "clara@example.dk" });
    const cookie = await sessionFor(server, customer.id);
    const result = expectOk<{ ticketId: string; status: string }>(server, "support.create_ticket", await server.call("support.create_ticket", { ...ASK, orderId: order.id }, { cookie }));
    expect(result.status).toBe("open");
    const ticket = await prisma().supportTicket.findUniqueOrThrow({ where: { id: result.ticketId }, include: { messages: true } });
    expect(ticket).toMatchObject({ subject: "Forkert farve", email: "clara@example.dk", customerId: customer.id, orderId: order.id, status: "open" });
    expect(ticket.messages.map((m) => [m.from, m.body])).toEqual([["shopper", ASK.message]]);
    expect(await lastAudit(server)).toMatchObject({ tool: "support.create_ticket", subjectType: "support_ticket", subjectId: ticket.id });
    await expect.poll(() => mail.sent.find((m) => m.to === "clara@example.dk")?.subject ?? "").toMatch(/^Vi har modtaget din henvendelse #/);
    expect(mail.sent.find((m) => m.to === "clara@example.dk")!.text).toContain(`Ordre: #${order.number}`);
  });

  it("takes an anonymous shopper's e-mail, and refuses without one (422 email_required)", async () => {
    const ok = expectOk<{ ticketId: string }>(server, "support.create_ticket", await server.call("support.create_ticket", { ...ASK, email: "Gaest@Example.dk" }));
    expect((await prisma().supportTicket.findUniqueOrThrow({ where: { id: ok.ticketId } })).email).toBe("gaest@example.dk");
    const before = await prisma().supportTicket.count();
    expectProblem(await server.call("support.create_ticket", ASK), 422, "email_required");
    expectProblem(await server.call("support.create_ticket", ASK, { cookie: await sessionFor(server, null) }), 422, "email_required");
    expect(await prisma().supportTicket.count()).toBe(before);
  });

  it("answers someone else's order as unknown to a shopper, but lets staff name any order (its e-mail by default)", async () => {
    const order = await createOrder(server, { email: "owner@example.dk" });
    const stranger = await createCustomer(server, { email: "stranger2@example.dk" });
    const before = await prisma().supportTicket.count();
    expectProblem(await server.call("support.create_ticket", { ...ASK, orderId: order.id }, { cookie: await sessionFor(server, stranger.id) }), 404, "not_found");
    expectProblem(await server.call("support.create_ticket", { ...ASK, orderId: order.id, email: "x@example.dk" }), 404, "not_found");
    expect(await prisma().supportTicket.count()).toBe(before);
    const byStaff = expectOk<{ ticketId: string }>(server, "support.create_ticket", await server.call("support.create_ticket", { ...ASK, orderId: order.id }, { key: staff }));
    const ticket = await prisma().supportTicket.findUniqueOrThrow({ where: { id: byStaff.ticketId }, include: { messages: true } });
    expect(ticket.email).toBe("owner@example.dk");
    expect(ticket.messages[0]!.from).toBe("staff");
  });

  it("is open to shoppers without a key", async () => {
    await expectScopeMatrix(server, "support.create_ticket", { ...ASK, email: "matrix@example.dk" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const count = () => prisma().supportTicket.count();
    await expectRejected(server, "support.create_ticket", staff, [{}, { ...ASK, subject: "x" }, { ...ASK, message: "" }, { ...ASK, message: "x".repeat(5001) }, { ...ASK, email: "nope" }, { ...ASK, extra: 1 }], count);
  });
});
