// The admin page "Tilgodehavender og gavekort" over real HTTP: cards by their last four symbols, a card issued through
// giftcards.issue (the whole code shown once, in the answer to the form), the open bank-transfer refunds marked paid out
// through orders.complete_refund_task, and what a staff user without the scopes sees and may do.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../../tools/orders/fixtures.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "bogholder@nordlys.dk");
});
const prisma = () => server.prisma;

describe("the admin credit page", () => {
  it("lists gift cards by their last four symbols and the open refund tasks", async () => {
    const page = await owner.get("/admin/credit");
    expect(page.status).toBe(200);
    expect(page.html).toContain("<h1>Tilgodehavender og gavekort</h1>");
    expect(page.html).toContain('href="/admin/credit" aria-current="page"');
    expect(page.html).toContain("…Z8WA");
    expect(page.html).not.toContain("KXRT-7M2Q-PB4N-Z8WA");
    const { number } = await prisma().order.findUniqueOrThrow({ where: { id: "demo-order-05" } });
    // Orders by the number people know them by (issue 39 item 10), not by id.
    expect(page.html).toContain(`<a href="/admin/orders/demo-order-05">#${number}</a>`);
    expect(page.html).not.toContain("<code>demo-order-05</code>");
    expect(page.html).toContain("Reg.nr. 1551, kontonr. 3456789012");
    expect(page.html).toContain('action="/admin/credit/refund-tasks/demo-refund-task/complete"');
    expect(page.html).toContain("Markér som udbetalt");
  });

  it("issues a card, shows its whole code once and mails it; the list shows only the last four", async () => {
    const mail = captureMail(server);
    const issued = await owner.submit("/admin/credit", "/admin/credit/issue", { amount: "250,50", customerEmail: "gave@example.dk", reason: "Undskyld" });
    expect(issued.status).toBe(201);
    const code = /value="([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})"/.exec(issued.html)![1]!;
    expect(issued.html).toContain("Gavekort på 250,50 kr. er udstedt");
    expect(await prisma().giftCard.findUniqueOrThrow({ where: { code } })).toMatchObject({ balanceDkk: 25050n, customerEmail: "gave@example.dk", reason: "Undskyld", source: "issued" });
    await expect.poll(() => mail.sent.find((m) => m.to === "gave@example.dk")?.text ?? "").toContain(code);
    const list = await owner.get("/admin/credit?email=gave%40example.dk");
    expect(list.html).toContain(`…${code.slice(-4)}`);
    expect(list.html).not.toContain(code);
    expect(list.html).not.toContain("…Z8WA");
  });

  it("sends a bad amount back with the reason and issues nothing", async () => {
    const before = await prisma().giftCard.count();
    for (const amount of ["", "mange", "0,50"]) {
      const refused = await owner.submit("/admin/credit", "/admin/credit/issue", { amount, customerEmail: "", reason: "" });
      expect(refused.status).toBe(303);
      expect(refused.location).toBe("/admin/credit");
      expect((await owner.get("/admin/credit")).html).toMatch(/notice-error/);
    }
    expect(await prisma().giftCard.count()).toBe(before);
  });

  it("marks a refund paid out, which leaves the list", async () => {
    const done = await owner.submit("/admin/credit", "/admin/credit/refund-tasks/demo-refund-task/complete", {});
    expect(done.status).toBe(303);
    expect(done.location).toBe("/admin/credit");
    const after = await owner.get("/admin/credit");
    expect(after.html).toMatch(/for ordre #\d+ er markeret som udbetalt\./);
    expect(after.html).not.toContain("/admin/credit/refund-tasks/demo-refund-task/complete");
    expect(await prisma().refundTask.findUniqueOrThrow({ where: { id: "demo-refund-task" } })).toMatchObject({ status: "done", doneBy: expect.stringMatching(/^staff:/) });
    const again = await owner.submit("/admin/credit", "/admin/credit/refund-tasks/demo-refund-task/complete", {});
    expect(again.status).toBe(303);
    expect((await owner.get("/admin/credit")).html).toContain("Refusionen er allerede markeret som udbetalt.");
  });

  it("shows a reader the cards but not the refunds, and refuses their writes with 403", async () => {
    const reader = await signedInClient(server, "laeser.kort@nordlys.dk", ["giftcards:read"]);
    const page = await reader.get("/admin/credit");
    expect(page.status).toBe(200);
    expect(page.html).toContain("…Z8WA");
    expect(page.html).toContain("Kræver adgangen orders:read");
    expect(page.html).toMatch(/<button type="submit" class="button" disabled title="Kræver adgangen giftcards:write">Udsted gavekort/);
    const before = await prisma().giftCard.count();
    expect((await reader.submit("/admin/credit", "/admin/credit/issue", { amount: "100" })).status).toBe(403);
    expect(await prisma().giftCard.count()).toBe(before);
    expect((await reader.submit("/admin/credit", "/admin/credit/refund-tasks/x/complete", {})).status).toBe(403);
    expect((await owner.get("/admin/credit/nothing")).status).toBe(404);
  });
});
