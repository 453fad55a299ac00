// webhooks.list through real HTTP: every endpoint with its events and health, oldest first, never a secret.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { startWebhookReceiver, subscribe, type WebhookReceiver } from "../../support/webhook-receiver.ts";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
const { server } = useServer({ config: { webhooksAllowLocal: true } });

describe("webhooks.list", () => {
  it("lists the endpoints oldest first with their state, and no secret", async () => {
    const created = await subscribe(server, receiver, "/list", ["stock.low", "order.created"]);
    const list = expectOk<Array<Record<string, unknown>>>(server, "webhooks.list", await server.call("webhooks.list", {}, { key: await server.key("webhooks:read") }));
    expect(list.map((endpoint) => endpoint.id)).toEqual(["demo-webhook-old", "demo-webhook-erp", created.id]);
    expect(list[1]).toMatchObject({ enabled: false, failureStreak: 5, disabledReason: expect.any(String), disabledAt: expect.any(String) });
    expect(list[2]).toMatchObject({ url: `${receiver.url}/list`, events: ["stock.low", "order.created"], enabled: true, disabledAt: null });
    expect(JSON.stringify(list)).not.toContain("whsec_");
  });

  it("needs webhooks:read", async () => {
    await expectScopeMatrix(server, "webhooks.list", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "webhooks.list", await server.key("webhooks:read"), [{ id: "x" }, { limit: 1 }]);
  });
});
