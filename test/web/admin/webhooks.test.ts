// /admin/webhooks over real HTTP: create with the secret shown once, a test event the receiver verifies, the delivery
// log, resend, enable and delete through the webhooks.* tools (audited as the staff user); read-only staff see the
// actions disabled and are refused when posting anyway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient, csrfOf, signedInClient } from "../../support/admin.ts";
import { startServer, useServer } from "../../support/server.ts";
import { poll } from "../../support/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../support/webhook-receiver.ts";

let owner: AdminClient;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
const { server } = useServer({ config: { webhooksAllowLocal: true } });
beforeAll(async () => {
  owner = await signedInClient(server, "ejer@nordlys.dk");
});

const prisma = () => server.prisma;
const flash = (html: string) => /<div class="notice notice-(?:success|error)"[^>]*>([^<]*)<\/div>/.exec(html)?.[1] ?? "";

describe("the webhooks page", () => {
  it("creates a webhook showing its secret once, tests it, logs the delivery, resends it, and deletes the webhook", async () => {
    const form = await owner.get("/admin/webhooks");
    expect(form.status).toBe(200);
    expect(form.html).toContain("demo-webhook-erp");
    expect(form.html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const body = new URLSearchParams({ _csrf: csrfOf(form.html), url: `${receiver.url}/admin` });
    body.append("events", "order.paid");
    body.append("events", "stock.low");
    const created = await owner.request("POST", "/admin/webhooks", { form: body });
    expect(created.status).toBe(201);
    const secret = /id="new-secret"[^>]*value="(whsec_[^"]+)"/.exec(created.html)![1]!;
    receiver.trust("/admin", secret);
    const row = await prisma().webhookEndpoint.findFirstOrThrow({ where: { url: `${receiver.url}/admin` } });
    expect(row.events).toEqual(["order.paid", "stock.low"]);
    expect((await owner.get("/admin/webhooks")).html).not.toContain(secret);
    const audit = await prisma().auditEntry.findFirstOrThrow({ where: { tool: "webhooks.create", subjectId: row.id } });
    expect(audit).toMatchObject({ door: "admin", actor: expect.stringMatching(/^staff:/) });

    const page = `/admin/webhooks/${row.id}`;
    const tested = await owner.submit(page, `${page}/test`, {});
    expect(tested.status).toBe(303);
    const [message] = await poll(async () => receiver.at("/admin"), (list) => list.length > 0, 5_000);
    expect(message!.payload).toMatchObject({ type: "webhook.test" });
    const delivery = await poll(() => prisma().outboxEvent.findFirstOrThrow({ where: { endpointId: row.id } }), (event) => event.status === "delivered", 5_000);
    const log = await owner.get(page);
    expect(log.html).toContain(delivery.id);
    expect(log.html).toContain("leveret");

    const resent = await owner.submit(page, `${page}/deliveries/${delivery.id}/resend`, {});
    expect(resent.status).toBe(303);
    expect(flash((await owner.get(resent.location!)).html)).toContain("sendes igen");
    await poll(async () => receiver.at("/admin").length, (n) => n >= 2, 5_000);
    expect(receiver.at("/admin").map((entry) => entry.headers["webhook-id"])).toEqual([delivery.id, delivery.id]);

    const deleted = await owner.submit("/admin/webhooks", `${page}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(await prisma().webhookEndpoint.findUnique({ where: { id: row.id } })).toBeNull();
  });

  it("speaks Danish about a disabled webhook and points to the developer docs, not a repository path", async () => {
    await prisma().webhookEndpoint.update({ where: { id: "demo-webhook-erp" }, data: { disabledAt: new Date(), disabledReason: "20 events in a row were not delivered after every retry." } });
    const page = await owner.get("/admin/webhooks");
    expect(page.html).toContain("20 hændelser i træk kunne ikke leveres, heller ikke efter alle genforsøg.");
    expect(page.html).not.toContain("events in a row");
    expect(page.html).toContain('<a href="/docs">udviklerdokumentationen</a>');
    expect(page.html).not.toContain("docs/webhooks.md");
  });

  it("turns a disabled webhook back on", async () => {
    const enabled = await owner.submit("/admin/webhooks", "/admin/webhooks/demo-webhook-erp/enable", {});
    expect(enabled.status).toBe(303);
    expect((await prisma().webhookEndpoint.findUniqueOrThrow({ where: { id: "demo-webhook-erp" } })).disabledAt).toBeNull();
  });

  it("asks for at least one event, and refuses a receiver the tool refuses", async () => {
    const none = await owner.submit("/admin/webhooks", "/admin/webhooks", { url: `${receiver.url}/x` });
    expect(flash((await owner.get(none.location!)).html)).toContain("mindst én hændelse");
    const strict = await startServer();
    try {
      const clerk = await signedInClient(strict, "ejer@nordlys.dk");
      const refused = await clerk.submit("/admin/webhooks", "/admin/webhooks", { url: "http://127.0.0.1:9/x", events: "order.paid" });
      expect(flash((await clerk.get(refused.location!)).html)).toBe("Webhook-adressen skal kunne nås på en offentlig adresse.");
    } finally {
      await strict.close();
    }
  });

  it("shows read-only staff the actions disabled and refuses their posts", async () => {
    const reader = await signedInClient(server, "kigger@nordlys.dk", ["webhooks:read"]);
    const page = await reader.get("/admin/webhooks");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/disabled title="Kræver adgangen webhooks:write">Opret webhook/);
    const forced = await reader.request("POST", "/admin/webhooks/demo-webhook-old/delete", { form: { _csrf: csrfOf(page.html) } });
    expect(forced.status).toBe(403);
    expect(await prisma().webhookEndpoint.findUnique({ where: { id: "demo-webhook-old" } })).not.toBeNull();
    const outsider = await signedInClient(server, "ordre@nordlys.dk", ["orders:read"]);
    expect((await outsider.get("/admin/webhooks")).status).toBe(403);
    expect((await owner.get("/admin/webhooks/no-such-webhook")).status).toBe(404);
  });
});
