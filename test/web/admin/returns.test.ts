// The admin returns page over real HTTP: refunds due with their deadline (overdue marked), returns by status, one return
// approved, rejected and received through the returns.* tools, the order page listing its returns, the product form's
// "Kan returneres", and a staff user without returns:write refused.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../../tools/orders/fixtures.ts";
import { deliveredVariantOrder, openReturn } from "../../tools/returns/fixtures.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "retur@nordlys.dk");
});
const prisma = () => server.prisma;

describe("the admin returns page", () => {
  it("lists refunds due and new returns, approves one, mails the shopper, and receives the approved one with a refund", async () => {
    const mail = captureMail(server);
    const page = await owner.get("/admin/returns");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Refusioner med frist");
    expect(page.html).toContain('href="/admin/returns/demo-return-2"');
    expect(page.html).toContain('href="/admin/returns/demo-return-1"');
    expect(page.html).toContain("Fortrydelse");
    expect(page.html).not.toContain("overskredet");

    const approved = await owner.submit("/admin/returns/demo-return-1", "/admin/returns/demo-return-1/approve", {});
    expect(approved.status).toBe(303);
    expect(approved.location).toBe("/admin/returns/demo-return-1");
    expect((await owner.get("/admin/returns/demo-return-1")).html).toContain("Returneringen er godkendt");
    expect((await prisma().returnRequest.findUniqueOrThrow({ where: { id: "demo-return-1" } })).status).toBe("approved");
    await expect.poll(() => mail.sent.find((m) => m.to === "jonas.nielsen@example.dk")?.text ?? "").toContain("Sådan sender du varerne retur");

    const received = await owner.submit("/admin/returns/demo-return-2", "/admin/returns/demo-return-2/receive", { refundTo: "original", refundAccount: "1234 0012345678" });
    expect(received.status).toBe(303);
    const after = await owner.get("/admin/returns/demo-return-2");
    expect(after.html).toMatch(/Varen er modtaget, og [\d.,]+ kr\. er refunderet\./);
    const ret = await prisma().returnRequest.findUniqueOrThrow({ where: { id: "demo-return-2" } });
    expect(ret).toMatchObject({ status: "refunded", refundTo: "original" });
    expect(await prisma().refundTask.findFirst({ where: { orderId: "demo-order-03" } })).toMatchObject({ account: "1234 0012345678", amountDkk: ret.refundDkk });
    const audit = await prisma().auditEntry.findFirstOrThrow({ where: { tool: "returns.receive" }, orderBy: { createdAt: "desc" } });
    expect(audit.actor).toMatch(/^staff:/);

    const order = await owner.get("/admin/orders/demo-order-03");
    expect(order.html).toContain('id="returns"');
    expect(order.html).toContain('href="/admin/returns/demo-return-2"');
    expect(order.html).toContain("Refunderet");
  });

  it("rejects with a reason, marks an overdue refund, and shows returns by status", async () => {
    const rejected = await owner.submit("/admin/returns/demo-return-3", "/admin/returns/demo-return-3/reject", { reason: "Skaden skyldes et slag." });
    expect(rejected.status).toBe(303);
    expect((await owner.get("/admin/returns?status=rejected")).html).toContain('href="/admin/returns/demo-return-3"');
    await prisma().returnRequest.update({ where: { id: "demo-return-1" }, data: { refundDueBy: new Date(Date.now() - 86_400_000) } });
    const page = await owner.get("/admin/returns");
    expect(page.html).toContain('class="overdue"');
    expect(page.html).toContain("1 overskredet");
    expect((await owner.get("/admin/returns/demo-return-1")).html).toContain("overskredet");
  });

  it("offers an overdue exchange's release, which puts the reserved unit back through returns.release_exchange", async () => {
    const key = await server.key("returns:write", "returns:read");
    const { order, m } = await deliveredVariantOrder(server, "s");
    const ret = await openReturn(server, key, order, { exchangeVariantId: m.id, approve: true });
    const path = `/admin/returns/${ret.returnId}`;
    expect((await owner.get(path)).html).not.toContain("Frigiv reserveret vare");
    await prisma().returnRequest.update({ where: { id: ret.returnId }, data: { refundDueBy: new Date(Date.now() - 60_000) } });
    expect((await owner.get(path)).html).toContain("Frigiv reserveret vare");
    const stock = (await prisma().productVariant.findUniqueOrThrow({ where: { id: m.id } })).stock;
    const released = await owner.submit(path, `${path}/release`, {});
    expect(released.status).toBe(303);
    expect((await owner.get(path)).html).toContain("Den reserverede vare er lagt tilbage på lager");
    expect((await prisma().productVariant.findUniqueOrThrow({ where: { id: m.id } })).stock).toBe(stock + 1n);
    expect((await prisma().returnRequest.findUniqueOrThrow({ where: { id: ret.returnId } })).status).toBe("rejected");
  });

  it("switches a product's \"Kan returneres\" through products.update, shown on the edit form only", async () => {
    const slug = "prada-toric-slim-69";
    const path = `/admin/products/${slug}`;
    const lens = await prisma().product.findUniqueOrThrow({ where: { slug } });
    const fields = { name: lens.name, description: lens.description, price: "399", category: "kontaktlinser" };
    expect((await owner.get(path)).html).toMatch(/name="returnable" value="on" aria-describedby/);
    expect((await owner.submit(path, path, { ...fields, returnable: "on" })).status).toBe(303);
    expect((await prisma().product.findUniqueOrThrow({ where: { slug } })).returnable).toBe(true);
    expect((await owner.get(path)).html).toMatch(/name="returnable" value="on" checked/);
    expect((await owner.submit(path, path, fields)).status).toBe(303);
    expect((await prisma().product.findUniqueOrThrow({ where: { slug } })).returnable).toBe(false);
    expect((await owner.get("/admin/products/new")).html).not.toContain('name="returnable"');
  });

  it("answers an unknown return with 404 and refuses a reader's approval with 403", async () => {
    expect((await owner.get("/admin/returns/no-such-return")).status).toBe(404);
    const reader = await signedInClient(server, "laeser.retur@nordlys.dk", ["returns:read", "orders:read"]);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: "demo-order-22" }, include: { items: true } });
    const ret = await prisma().returnRequest.create({ data: { orderId: order.id, kind: "withdrawal", reason: "Fortrudt", requestedBy: "system:test", items: { create: { orderItemId: order.items[0]!.id, quantity: 1 } } } });
    const page = await reader.get(`/admin/returns/${ret.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Kræver adgangen returns:write");
    const refused = await reader.submit(`/admin/returns/${ret.id}`, `/admin/returns/${ret.id}/approve`, {});
    expect(refused.status).toBe(403);
    expect((await prisma().returnRequest.findUniqueOrThrow({ where: { id: ret.id } })).status).toBe("requested");
    const clerk = await signedInClient(server, "ordrer@nordlys.dk", ["orders:read"]);
    const orderPage = await clerk.get("/admin/orders/demo-order-22");
    expect(orderPage.status).toBe(200);
    expect(orderPage.html).not.toContain('id="returns"');
  });
});
