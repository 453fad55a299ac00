// webhooks.test through real HTTP: a signed "webhook.test" event reaches the receiver within seconds, also for a
// disabled endpoint and while the endpoint's own events wait for a retry; 404 for an unknown id.
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
const { server, keys: { key } } = useServer({ config: { webhooksAllowLocal: true }, keys: { key: ["webhooks:write"] } });

describe("webhooks.test", () => {
  it("sends a signed webhook.test event within two seconds, and audits the call", async () => {
    const { id } = await subscribe(server, receiver, "/test", ["order.paid"]);
    const started = Date.now();
    const answer = expectOk<{ id: string; deliveryId: string }>(server, "webhooks.test", await server.call("webhooks.test", { id }, { key }));
    expect(answer).toEqual({ id, deliveryId: expect.any(String) });
    const [message] = await poll(async () => receiver.at("/test"), (list) => list.length > 0, 5_000);
    expect(message!.at - started).toBeLessThan(2_000);
    expect(message!.error).toBeNull();
    expect(message!.headers["webhook-id"]).toBe(answer.deliveryId);
    expect(message!.payload).toMatchObject({ type: "webhook.test", timestamp: expect.any(String), data: { endpointId: id } });
    expect(await lastAudit(server)).toMatchObject({ tool: "webhooks.test", subjectId: id });
    const delivered = await poll(() => server.prisma.outboxEvent.findUniqueOrThrow({ where: { id: answer.deliveryId } }), (row) => row.status === "delivered", 5_000);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 204 });
  });

  it("goes out at once, also while the endpoint's own events wait for a retry", async () => {
    const { id } = await subscribe(server, receiver, "/waiting", ["order.paid"]);
    receiver.failNext("/waiting", 503);
    expect((await server.call("orders.update_status", { orderId: "demo-order-19", status: "paid" }, { key: await server.key("orders:write") })).status).toBe(200);
    await poll(async () => receiver.at("/waiting"), (list) => list.length >= 1, 5_000);
    const started = Date.now();
    expectOk(server, "webhooks.test", await server.call("webhooks.test", { id }, { key }));
    const arrived = await poll(async () => receiver.at("/waiting"), (list) => list.length >= 2, 3_000);
    // The order event's retry is 5 s away; the test event does not queue behind it.
    expect(arrived.map((message) => [message.payload?.type, message.status])).toEqual([["order.paid", 503], ["webhook.test", 204]]);
    expect(arrived[1]!.at - started).toBeLessThan(2_000);
  });

  it("queues a test event to a disabled endpoint too", async () => {
    const answer = expectOk<{ deliveryId: string }>(server, "webhooks.test", await server.call("webhooks.test", { id: "demo-webhook-erp" }, { key }));
    expect(await server.prisma.outboxEvent.findUniqueOrThrow({ where: { id: answer.deliveryId } })).toMatchObject({ type: "webhook.test", endpointId: "demo-webhook-erp" });
  });

  it("answers 404 for an unknown id", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("webhooks.test", { id: "no-such-endpoint" }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("needs webhooks:write", async () => {
    await expectScopeMatrix(server, "webhooks.test", { id: "demo-webhook-old" });
  });

  it("rejects bad input and queues nothing", async () => {
    await expectRejected(server, "webhooks.test", key, [{}, { id: "" }, { id: null }, { id: "demo-webhook-old", type: "order.paid" }], async () => [
      await server.prisma.outboxEvent.count(),
      await auditCount(server),
    ]);
  });
});
