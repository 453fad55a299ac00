// What happens beside the requests shows up in /metrics too: a storefront assistant turn (run in a worker thread,
// counted on the main thread) with its tokens, and webhook delivery attempts from the outbox.
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, send } from "../support/chat.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { histogram, scrape, value } from "../support/metrics.ts";
import { useServer } from "../support/server.ts";
import { newSession } from "../support/session.ts";
import { poll } from "../support/wait.ts";
import { startWebhookReceiver, subscribe, type WebhookReceiver } from "../support/webhook-receiver.ts";

let fake: FakeOpenAI;
let receiver: WebhookReceiver;
const sockets: Socket[] = [];
beforeAll(async () => {
  [fake, receiver] = await Promise.all([startFakeOpenAI(), startWebhookReceiver()]);
});
const { server, keys } = useServer({
  config: () => ({ openaiApiKey: "sk-fake", openaiBaseUrl: fake.url, openaiApiStyle: "chat", chatWorkers: 1, webhooksAllowLocal: true, metricsPublic: true }),
  keys: { webhooks: ["webhooks:write"] },
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all([fake.close(), receiver.close()]);
});

describe("metrics beside the requests", () => {
  it("counts a finished assistant turn and its tokens by assistant", async () => {
    fake.on("hej").say("Hej! Hvad leder du efter?");
    const socket = await connect(server, "storefront", { cookie: await newSession(server) });
    sockets.push(socket);
    const before = await scrape(server);
    const turn = await send(socket, "chat-metrics", "Hej");
    expect(turn.outcome).toBe("end");
    const after = await poll(() => scrape(server), (s) => value(s, "shop_chat_turns_total", { assistant: "storefront", outcome: "ok" }) > value(before, "shop_chat_turns_total", { assistant: "storefront", outcome: "ok" }), 5_000);

    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(delta("shop_chat_turns_total", { assistant: "storefront", outcome: "ok" })).toBe(1);
    expect(delta("shop_chat_tokens_total", { assistant: "storefront", direction: "input" })).toBeGreaterThan(0);
    expect(delta("shop_chat_tokens_total", { assistant: "storefront", direction: "output" })).toBeGreaterThan(0);
    expect(histogram(after, "shop_chat_turn_duration_seconds", { assistant: "storefront" }).count - histogram(before, "shop_chat_turn_duration_seconds", { assistant: "storefront" }).count).toBe(1);
    expect(value(after, "shop_chat_turns_total", { assistant: "admin" })).toBe(0);
  });

  it("counts webhook delivery attempts by outcome", async () => {
    const { id } = await subscribe(server, receiver, "/metrics-hook", ["order.paid"]);
    const before = await scrape(server);
    const test = await server.call("webhooks.test", { id }, { key: keys.webhooks });
    expect(test.status).toBe(200);
    const delivered = { outcome: "delivered" };
    const after = await poll(() => scrape(server), (s) => value(s, "shop_webhook_deliveries_total", delivered) > value(before, "shop_webhook_deliveries_total", delivered), 5_000);
    expect(receiver.at("/metrics-hook")).toHaveLength(1);
    expect(value(after, "shop_webhook_deliveries_total", delivered) - value(before, "shop_webhook_deliveries_total", delivered)).toBe(1);
    const attempts = (s: typeof after) => histogram(s, "shop_webhook_delivery_duration_seconds", {}).count;
    expect(attempts(after) - attempts(before)).toBeGreaterThanOrEqual(1);
  });
});
