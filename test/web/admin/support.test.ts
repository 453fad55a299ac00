// The admin support queue over real HTTP: the open tickets, one conversation, a reply mailed to the shopper through
// support.reply, closing through support.close, and a staff user without support:write refused.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../../tools/orders/fixtures.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "kundeservice@nordlys.dk");
});
const prisma = () => server.prisma;

describe("the admin support queue", () => {
  it("lists the open tickets, shows the conversation, mails a reply and closes the ticket", async () => {
    const mail = captureMail(server);
    const queue = await owner.get("/admin/support");
    expect(queue.status).toBe(200);
    expect(queue.html).toContain("Forkert farve leveret");
    expect(queue.html).toContain('href="/admin/support/demo-ticket-1"');
    // The ticket's order by the number the shopper knows it by (demo-order-03 is the third oldest demo order).
    expect(queue.html).toContain('<a href="/admin/orders/demo-order-03">#1003</a>');

    const ticket = await owner.get("/admin/support/demo-ticket-1");
    expect(ticket.html).toContain("Jeg fik de sorte stel, men bestilte de brune.");
    expect(ticket.html).toContain('ordre <a href="/admin/orders/demo-order-03">#1003</a>');
    expect(ticket.html).toContain("sofie.pedersen@example.dk");

    const replied = await owner.submit("/admin/support/demo-ticket-1", "/admin/support/demo-ticket-1/reply", { message: "Vi sender de brune i dag.\nDe sorte må du gerne beholde." });
    expect(replied.status).toBe(303);
    expect(replied.location).toBe("/admin/support/demo-ticket-1");
    const after = await owner.get("/admin/support/demo-ticket-1");
    expect(after.html).toContain("Svaret er sendt til kunden.");
    expect(after.html).toContain("De sorte må du gerne beholde.");
    expect((await prisma().supportTicket.findUniqueOrThrow({ where: { id: "demo-ticket-1" } })).status).toBe("answered");
    await expect.poll(() => mail.sent.find((m) => m.to === "sofie.pedersen@example.dk")?.text ?? "").toContain("Vi sender de brune i dag.");
    const audit = await prisma().auditEntry.findFirstOrThrow({ where: { tool: "support.reply" }, orderBy: { createdAt: "desc" } });
    expect(audit.actor).toMatch(/^staff:/);

    expect((await owner.get("/admin/support")).html).not.toContain('href="/admin/support/demo-ticket-1"');
    expect((await owner.get("/admin/support?status=answered")).html).toContain('href="/admin/support/demo-ticket-1"');

    const closed = await owner.submit("/admin/support/demo-ticket-1", "/admin/support/demo-ticket-1/close", {});
    expect(closed.status).toBe(303);
    expect(closed.location).toBe("/admin/support");
    const done = await owner.get("/admin/support/demo-ticket-1");
    expect(done.html).not.toContain('action="/admin/support/demo-ticket-1/reply"');
    expect((await prisma().supportTicket.findUniqueOrThrow({ where: { id: "demo-ticket-1" } })).closedAt).not.toBeNull();
  });

  it("answers an unknown ticket with 404 and refuses a reader's reply with 403", async () => {
    expect((await owner.get("/admin/support/no-such-ticket")).status).toBe(404);
    const reader = await signedInClient(server, "laeser.ks@nordlys.dk", ["support:read"]);
    // Without orders:read the order is named by its id.
    expect((await reader.get("/admin/support?status=closed")).html).toContain('<a href="/admin/orders/demo-order-03"><code>demo-order-03</code></a>');
    const page = await reader.get("/admin/support/demo-ticket-2");
    expect(page.status).toBe(200);
    const refused = await reader.submit("/admin/support/demo-ticket-2", "/admin/support/demo-ticket-2/reply", { message: "Hej" });
    expect(refused.status).toBe(403);
    expect(await prisma().supportMessage.count({ where: { ticketId: "demo-ticket-2" } })).toBe(1);
  });
});
