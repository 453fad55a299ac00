// webhooks.delete through real HTTP: the endpoint is gone, its waiting retries are cancelled and never sent, audited;
// 404 for an unknown id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { poll } from "../../support/wait.ts";
import { startWebhookReceiver, subscribe, type WebhookReceiver } from "../../support/webhook-receiver.ts";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
const { server, keys: { key } } = useServer({ config: { webhooksAllowLocal: true, webhookRetryDelaysMs: [400, 400], outboxPollMs: 100 }, keys: { key: ["webhooks:write", "webhooks:read"] } });

const db = () => server.prisma;

describe("webhooks.delete", () => {
  it("deletes an endpoint and cancels its waiting retries, which are never sent", async () => {
    const { id } = await subscribe(server, receiver, "/gone", ["order.created"]);
    receiver.answer("/gone", 503);
    const test = expectOk<{ deliveryId: string }>(server, "webhooks.test", await server.call("webhooks.test", { id }, { key }));
    await poll(async () => receiver.at("/gone").length, (n) => n >= 1, 5_000);
    expect(expectOk(server, "webhooks.delete", await server.call("webhooks.delete", { id }, { key }))).toEqual({ id, deleted: true });
    expect(await db().webhookEndpoint.findUnique({ where: { id } })).toBeNull();
    expect(await db().outboxEvent.findUnique({ where: { id: test.deliveryId } })).toMatchObject({ status: "cancelled", endpointId: null });
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "webhooks.delete", subjectType: "webhookEndpoint", subjectId: id, after: null });
    expect(JSON.stringify(entry)).not.toContain("whsec_");
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(receiver.at("/gone")).toHaveLength(1);
    expectProblem(await server.call("webhooks.deliveries", { id }, { key }), 404, "not_found");
  });

  it("answers 404 for an unknown id", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("webhooks.delete", { id: "no-such-endpoint" }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("needs webhooks:write", async () => {
    const { id } = await subscribe(server, receiver, "/scopes", ["stock.low"]);
    await expectScopeMatrix(server, "webhooks.delete", { id });
  });

  it("rejects bad input and deletes nothing", async () => {
    await expectRejected(server, "webhooks.delete", key, [{}, { id: "" }, { id: 7 }, { id: "x".repeat(101) }, { id: "demo-webhook-old", confirm: true }], async () => [
      await db().webhookEndpoint.count(),
      await auditCount(server),
    ]);
  });
});
