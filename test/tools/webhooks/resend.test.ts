// webhooks.resend through real HTTP: a dead delivery goes out again with the same webhook-id and body once the receiver
// is fixed, audited; 422 while it still waits for a retry; 404 for an unknown id.
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
const { server, keys: { key } } = useServer({ config: { webhooksAllowLocal: true, webhookRetryDelaysMs: [100], outboxPollMs: 100 }, keys: { key: ["webhooks:write"] } });

const db = () => server.prisma;
const settled = (id: string) => poll(() => db().outboxEvent.findUniqueOrThrow({ where: { id } }), (row) => row.status !== "pending", 5_000);

describe("webhooks.resend", () => {
  it("sends a dead delivery again with the same webhook-id and body once the receiver works", async () => {
    const { id } = await subscribe(server, receiver, "/resend", ["order.paid"]);
    receiver.answer("/resend", 500);
    const { deliveryId } = expectOk<{ deliveryId: string }>(server, "webhooks.test", await server.call("webhooks.test", { id }, { key }));
    expect(await settled(deliveryId)).toMatchObject({ status: "dead", attempts: 2, lastStatusCode: 500 });
    receiver.answer("/resend", null);

    const resent = expectOk<{ id: string; status: string; attempts: number }>(server, "webhooks.resend", await server.call("webhooks.resend", { deliveryId }, { key }));
    expect(resent).toMatchObject({ id: deliveryId, status: "pending", attempts: 0 });
    expect(await lastAudit(server)).toMatchObject({ tool: "webhooks.resend", subjectType: "webhookDelivery", subjectId: deliveryId, before: { status: "dead" }, after: { status: "pending" } });
    expect(await settled(deliveryId)).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 204 });
    const arrivals = receiver.at("/resend");
    expect(arrivals).toHaveLength(3);
    expect(new Set(arrivals.map((arrival) => arrival.headers["webhook-id"]))).toEqual(new Set([deliveryId]));
    expect(new Set(arrivals.map((arrival) => arrival.body)).size).toBe(1);
    expect(arrivals[2]!.error).toBeNull();
    expect(await db().outboxAttempt.count({ where: { eventId: deliveryId } })).toBe(3);
  });

  it("refuses a delivery that is still waiting for a retry", async () => {
    const { id } = await subscribe(server, receiver, "/waiting", ["order.paid"]);
    await server.runtime.outbox.stop();
    try {
      const { deliveryId } = expectOk<{ deliveryId: string }>(server, "webhooks.test", await server.call("webhooks.test", { id }, { key }));
      const before = await auditCount(server);
      expectProblem(await server.call("webhooks.resend", { deliveryId }, { key }), 422, "delivery_pending");
      expect(await auditCount(server)).toBe(before);
    } finally {
      await server.runtime.outbox.start();
    }
  });

  it("answers 404 for an unknown id", async () => {
    expectProblem(await server.call("webhooks.resend", { deliveryId: "no-such-delivery" }, { key }), 404, "not_found");
  });

  it("needs webhooks:write", async () => {
    await expectScopeMatrix(server, "webhooks.resend", { deliveryId: "demo-webhook-delivery" });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "webhooks.resend", key, [{}, { deliveryId: "" }, { id: "demo-webhook-delivery" }, { deliveryId: ["demo-webhook-delivery"] }]);
  });
});
