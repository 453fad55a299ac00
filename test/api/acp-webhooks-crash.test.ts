// kill -9 between an ACP completion's commit and the delivery of its order_create event (real server processes): the
// restarted server delivers the same event (same Request-Id), signed with Merchant-Signature as the key's secret says.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sign } from "../../src/api/acp/signature.ts";
import { webhookEvent } from "../../src/api/acp/v2026-04-17.ts";
import type { Database } from "../../src/core/db.ts";
import { createKey } from "../../src/tools/keys/key-secrets.ts";
import { spawnShop, type ShopProcess } from "../support/process.ts";
import { processDatabase } from "../support/server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { poll } from "../support/wait.ts";

const shops: ShopProcess[] = [];
const cleanups: Array<() => unknown> = [];
const SECRET = "crash-platform-secret-0123456789";
const PATH = "/acp-crash";
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.trustMerchant(PATH, SECRET);
});
afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()));
  for (const cleanup of cleanups.reverse()) await cleanup();
  await receiver.close();
});

/** A product to buy and the agent platform's key (checkout:agent, webhook URL, signing secret) on this database. */
async function seed(database: Database): Promise<{ productId: string; key: string }> {
  const row = await database.prisma.product.findFirstOrThrow({ where: { deletedAt: null, stock: { gte: 2 }, variants: { none: {} } }, orderBy: { slug: "asc" } });
  const { secret, key } = await createKey(database.prisma, "crash agent", ["checkout:agent"]);
  await database.prisma.apiKey.update({ where: { id: key.id }, data: { acpSigningSecret: SECRET, acpWebhookUrl: `${receiver.url}${PATH}` } });
  return { productId: row.id, key: secret };
}

/** A database of its own; the environment shop processes on it get, a product and a key. */
async function prepare(): Promise<{ env: Record<string, string>; productId: string; key: string }> {
  // A claim lapses WEBHOOK_TIMEOUT_MS * 2 + 5 s after it was taken: 7 s here.
  const env = { WEBHOOKS_ALLOW_LOCAL: "1", UCP_TEST_MODE: "1", WEBHOOK_TIMEOUT_MS: "1000", OUTBOX_POLL_MS: "200", CHAT_WORKERS: "0" };
  const own = await processDatabase(seed);
  cleanups.push(own.drop);
  return { env: { ...env, ...own.env }, ...own.arranged };
}

async function start(env: Record<string, string>): Promise<string> {
  const shop = spawnShop(env);
  shops.push(shop);
  return shop.url();
}

let counter = 0;
async function acp(base: string, key: string, urlPath: string, body: unknown): Promise<Record<string, unknown>> {
  const timestamp = new Date().toISOString();
  const headers = { "content-type": "application/json", Authorization: `Bearer ${key}`, "API-Version": "2026-04-17", "Idempotency-Key": `crash-${++counter}`, Timestamp: timestamp, Signature: sign(SECRET, timestamp, { method: "POST", path: urlPath, body }) };
  const response = await fetch(`${base}${urlPath}`, { method: "POST", headers, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, unknown>;
}

describe("an ACP order event whose server is killed before its delivery finished", () => {
  it("is delivered by the restarted server, signed with Merchant-Signature", { timeout: 300_000 }, async () => {
    const { env, productId, key } = await prepare();
    const a = await start(env);
    const session = await acp(a, key, "/acp/checkout_sessions", {
      line_items: [{ id: productId }],
      currency: "dkk",
      capabilities: {},
      buyer: { first_name: "Ida", last_name: "Berg", email: "acp.crash@example.dk" },
      fulfillment_details: { name: "Ida Berg", address: { name: "Ida Berg", line_one: "Strøget 12", city: "København K", state: "", country: "DK", postal_code: "1160" } },
    });
    // The first POST is held open unanswered: the completion has committed, its event's delivery is in flight.
    receiver.failNext(PATH, 0);
    const done = await acp(a, key, `/acp/checkout_sessions/${session.id as string}/complete`, { payment_data: { handler_id: "mock_payment_handler", instrument: { type: "card", credential: { type: "token", token: "success_token" } } } });
    expect(done.status, JSON.stringify(done)).toBe("completed");
    await poll(async () => receiver.at(PATH).length, (n) => n >= 1, 10_000);
    shops[0]!.child.kill("SIGKILL");
    expect(await shops[0]!.exited).toBe("SIGKILL");

    await start(env);
    const [held, delivered] = await poll(async () => receiver.at(PATH), (list) => list.length >= 2, 60_000);
    expect(delivered, "the restarted server delivered the event").toBeDefined();
    expect(delivered!.error, "the receiver verified its Merchant-Signature").toBeNull();
    expect(delivered!.headers["request-id"]).toBe(held!.headers["request-id"]);
    const event = webhookEvent.parse(delivered!.payload);
    expect(event).toMatchObject({ type: "order_create", data: { id: (done.order as { id: string }).id, checkout_session_id: session.id, status: "confirmed" } });
  });
});
