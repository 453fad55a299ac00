// webhooks.create through real HTTP: a whsec_ secret shown once (redacted in the audit), events then arrive signed and
// verified by the standardwebhooks library; private and loopback receivers refused unless WEBHOOKS_ALLOW_LOCAL=1, at
// registration and at delivery, and public ones (IPv4 too) reached without it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolve, Route } from "../../../src/core/outbox/address.ts";
import { createOutbox } from "../../../src/tools/webhooks/dispatch.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { poll } from "../../support/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../support/webhook-receiver.ts";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
const { server, keys: { key } } = useServer({ config: { webhooksAllowLocal: true }, keys: { key: ["webhooks:write", "orders:write"] } });
const { server: strict } = useServer({ config: { webhooksAllowLocal: false } });

const endpoints = () => server.prisma.webhookEndpoint.count();

describe("webhooks.create", () => {
  it("creates an endpoint whose secret verifies the events it receives, and audits it without the secret", async () => {
    const created = expectOk<{ id: string; secret: string; endpoint: Record<string, unknown> }>(
      server,
      "webhooks.create",
      await server.call("webhooks.create", { url: `${receiver.url}/erp`, events: ["order.paid"] }, { key }),
    );
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint).toMatchObject({ id: created.id, url: `${receiver.url}/erp`, events: ["order.paid"], enabled: true, failureStreak: 0 });
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "webhooks.create", subjectType: "webhookEndpoint", subjectId: created.id });
    expect(JSON.stringify(entry)).not.toContain(created.secret);
    receiver.trust("/erp", created.secret);

    const started = Date.now();
    expect((await server.call("orders.update_status", { orderId: "demo-order-19", status: "paid" }, { key })).status).toBe(200);
    const [message] = await poll(async () => receiver.at("/erp"), (list) => list.length > 0, 5_000);
    expect(message, "delivered").toBeDefined();
    expect(message!.at - started).toBeLessThan(2_000);
    expect(message!.error).toBeNull();
    expect(message!.payload).toMatchObject({ type: "order.paid", data: { id: "demo-order-19", status: "paid", currency: "DKK" } });
    expect(message!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(message!.headers["webhook-id"]).toEqual(expect.any(String));
    expect(Number(message!.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
  });

  it("refuses receivers on loopback and private addresses unless WEBHOOKS_ALLOW_LOCAL=1", async () => {
    const strictKey = await strict.key("webhooks:write");
    const before = await strict.prisma.webhookEndpoint.count();
    for (const url of [
      `${receiver.url}/x`, "http://localhost:8080/x", "http://10.1.2.3/x", "http://[::1]/x", "http://169.254.169.254/latest", "http://192.168.1.10/x",
      "http://[::ffff:127.0.0.1]/x", "https://[::127.0.0.1]/x", "https://localhost./x", "https://hooks.localhost/x", "https://[64:ff9b::10.0.0.1]/x",
    ]) {
      const refused = await strict.call("webhooks.create", { url, events: ["order.paid"] }, { key: strictKey });
      expectProblem(refused, 422, "receiver_not_allowed");
    }
    expect(await strict.prisma.webhookEndpoint.count()).toBe(before);
    // Public addresses of both families, also written as IPv4-mapped IPv6.
    for (const url of ["https://erp.example.dk/hooks", "https://1.1.1.1/hook", "https://8.8.8.8/hook", "https://[2606:4700:4700::1111]/hook", "https://[::ffff:1.1.1.1]/hook"]) {
      expect((await strict.call("webhooks.create", { url, events: ["stock.low"] }, { key: strictKey })).status, url).toBe(200);
    }
  });

  it("refuses at delivery a receiver that has come to point at a private or loopback address since", async () => {
    const db = strict.prisma;
    const strictKey = await strict.key("webhooks:write");
    const port = new URL(receiver.url).port;
    for (const url of [`http://localhost:${port}/rebound`, `http://127.0.0.1:${port}/rebound`]) {
      // As if the name had been re-pointed after webhooks.create checked it.
      const endpoint = await db.webhookEndpoint.create({ data: { url, events: ["order.paid"], secret: `whsec_${Buffer.from("x".repeat(32)).toString("base64")}` } });
      const { deliveryId } = (await strict.call("webhooks.test", { id: endpoint.id }, { key: strictKey })).body.result as { deliveryId: string };
      const tried = await poll(() => db.outboxAttempt.findFirst({ where: { eventId: deliveryId } }), (row) => row !== null, 5_000);
      expect(tried).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/private or loopback/) });
    }
    expect(receiver.at("/rebound")).toEqual([]);
  });

  it("delivers without WEBHOOKS_ALLOW_LOCAL to a name resolving to a public IPv4 address, never to a private one", async () => {
    const db = strict.prisma;
    const strictKey = await strict.key("webhooks:write", "orders:write");
    const port = new URL(receiver.url).port;
    // DNS as the outbox sees it. The public address is routed to the local receiver, standing in for a host on the
    // internet; the guard judges the address DNS gave, as in production.
    const names: Record<string, string> = { "erp.shop-test.example": "1.1.1.1", "intranet.shop-test.example": "10.0.0.5" };
    const resolve: Resolve = async (host) => (names[host] ? [{ address: names[host], family: 4 }] : Promise.reject(Object.assign(new Error(`${host}?`), { code: "ENOTFOUND" })));
    const route: Route = (address) => (address.address === "1.1.1.1" ? { address: "127.0.0.1", family: 4 } : address);
    await strict.runtime.outbox.stop();
    const outbox = createOutbox({ ...strict.runtime.config, outboxPollMs: 100 }, strict.database, strict.runtime.log, { resolve, route });
    await outbox.start();
    try {
      for (const [name, path] of [["erp.shop-test.example", "/public"], ["intranet.shop-test.example", "/intranet"]] as const) {
        const created = expectOk<{ secret: string }>(strict, "webhooks.create", await strict.call("webhooks.create", { url: `http://${name}:${port}${path}`, events: ["order.paid"] }, { key: strictKey }));
        receiver.trust(path, created.secret);
      }
      expect((await strict.call("orders.update_status", { orderId: "demo-order-19", status: "paid" }, { key: strictKey })).status).toBe(200);
      const [message] = await poll(async () => receiver.at("/public"), (list) => list.length > 0, 5_000);
      expect(message?.payload).toMatchObject({ type: "order.paid", data: { id: "demo-order-19", status: "paid" } });
      const refused = await poll(() => db.outboxAttempt.findFirst({ where: { event: { url: `http://intranet.shop-test.example:${port}/intranet` } } }), (row) => row !== null, 5_000);
      expect(refused).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/private or loopback/) });
      expect(receiver.at("/intranet")).toEqual([]);
    } finally {
      await outbox.stop();
      await strict.runtime.outbox.start();
    }
  });

  it("needs webhooks:write", async () => {
    await expectScopeMatrix(server, "webhooks.create", { url: `${receiver.url}/scopes`, events: ["stock.low"] });
  });

  it("rejects bad input and creates nothing", async () => {
    await expectRejected(
      server,
      "webhooks.create",
      key,
      [
        {},
        { url: `${receiver.url}/x` },
        { url: "not a url", events: ["order.paid"] },
        { url: `${receiver.url}/x`, events: [] },
        { url: `${receiver.url}/x`, events: ["order.exploded"] },
        { url: `${receiver.url}/x`, events: ["order.paid", "order.paid"] },
        { url: `${receiver.url}/x`, events: ["webhook.test"] },
        { url: `${receiver.url}/${"x".repeat(2000)}`, events: ["order.paid"] },
        { url: `${receiver.url}/x`, events: ["order.paid"], secret: "whsec_mine" },
      ],
      async () => [await endpoints(), await auditCount(server)],
    );
  });

  it("refuses ftp and credentials in the URL", async () => {
    expectProblem(await server.call("webhooks.create", { url: "ftp://example.dk/x", events: ["order.paid"] }, { key }), 422, "receiver_not_allowed");
    expectProblem(await server.call("webhooks.create", { url: "https://user:pw@example.dk/x", events: ["order.paid"] }, { key }), 422, "receiver_not_allowed");
  });
});
