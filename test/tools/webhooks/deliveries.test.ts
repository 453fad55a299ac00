// webhooks.deliveries through real HTTP: an endpoint's log, newest first, each delivery with every attempt (a failed
// one with the receiver's status, then the retry that succeeded); 404 for an unknown id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { poll } from "../../support/wait.ts";
import { startWebhookReceiver, subscribe, type WebhookReceiver } from "../../support/webhook-receiver.ts";

interface Delivery {
  id: string;
  type: string;
  status: string;
  attempts: number;
  payload: { type: string };
  tries: Array<{ number: number; statusCode: number | null; ok: boolean; error: string | null }>;
}

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
const { server, keys: { read, write } } = useServer({ config: { webhooksAllowLocal: true, webhookRetryDelaysMs: [150, 150], outboxPollMs: 100 }, keys: { read: ["webhooks:read"], write: ["webhooks:write"] } });

const deliveries = async (id: string, limit?: number) =>
  expectOk<Delivery[]>(server, "webhooks.deliveries", await server.call("webhooks.deliveries", { id, ...(limit ? { limit } : {}) }, { key: read }));

describe("webhooks.deliveries", () => {
  it("logs each delivery newest first with every attempt, a failure and then the retry that succeeded", async () => {
    const { id } = await subscribe(server, receiver, "/log", ["order.paid"]);
    receiver.failNext("/log", 500);
    await server.call("webhooks.test", { id }, { key: write });
    const log = await poll(() => deliveries(id), (list) => list[0]?.status === "delivered", 5_000);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: "webhook.test", status: "delivered", attempts: 2, payload: { type: "webhook.test" } });
    expect(log[0]!.tries).toMatchObject([
      { number: 1, statusCode: 500, ok: false, error: expect.stringContaining("500") },
      { number: 2, statusCode: 204, ok: true, error: null },
    ]);
    await server.call("webhooks.test", { id }, { key: write });
    const both = await poll(() => deliveries(id), (list) => list.length === 2 && list[0]!.status === "delivered", 5_000);
    expect(both.map((delivery) => delivery.id)[1]).toBe(log[0]!.id);
    expect(await deliveries(id, 1)).toHaveLength(1);
  });

  it("shows the demo endpoint's dead delivery", async () => {
    expect(await deliveries("demo-webhook-erp")).toEqual(expect.arrayContaining([expect.objectContaining({ id: "demo-webhook-delivery", status: "dead", nextAttemptAt: null })]));
  });

  it("answers 404 for an unknown id", async () => {
    expectProblem(await server.call("webhooks.deliveries", { id: "no-such-endpoint" }, { key: read }), 404, "not_found");
  });

  it("needs webhooks:read", async () => {
    await expectScopeMatrix(server, "webhooks.deliveries", { id: "demo-webhook-erp" });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "webhooks.deliveries", read, [{}, { id: "" }, { id: "demo-webhook-erp", limit: 0 }, { id: "demo-webhook-erp", limit: 101 }, { id: "demo-webhook-erp", limit: 1.5 }, { id: "demo-webhook-erp", status: "dead" }]);
  });
});
