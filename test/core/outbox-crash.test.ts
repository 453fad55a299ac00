// kill -9 between commit and delivery (a real server process): the event was committed with the change, its delivery
// was in flight when the process died, and the restarted server delivers it once the dead process's claim lapses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/tools/keys/key-secrets.ts";
import { spawnShop, type ShopProcess } from "../support/process.ts";
import { processDatabase } from "../support/server.ts";
import { poll } from "../support/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

const shops: ShopProcess[] = [];
const cleanups: Array<() => unknown> = [];
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()));
  for (const cleanup of cleanups.reverse()) await cleanup();
  await receiver.close();
});

/** A database of its own with an admin key in it; the environment shop processes on it get. */
async function prepare(): Promise<{ env: Record<string, string>; key: string }> {
  // A claim lapses WEBHOOK_TIMEOUT_MS * 2 + 5 s after it was taken: 7 s here.
  const env = { WEBHOOKS_ALLOW_LOCAL: "1", WEBHOOK_TIMEOUT_MS: "1000", OUTBOX_POLL_MS: "200", RATE_LIMIT_ANON_PER_MIN: "100000", CHAT_WORKERS: "0" };
  const own = await processDatabase(async (database) => (await createKey(database.prisma, "crash test", ["*"])).secret);
  cleanups.push(own.drop);
  return { env: { ...env, ...own.env }, key: own.arranged };
}

async function start(env: Record<string, string>): Promise<{ shop: ShopProcess; url: string }> {
  const shop = spawnShop(env);
  shops.push(shop);
  return { shop, url: await shop.url() };
}

async function call(base: string, key: string, name: string, input: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/api/v1/tools/${name}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify(input) });
  const body = (await response.json()) as { result: Record<string, unknown> };
  expect(response.status, `${name}: ${JSON.stringify(body)}`).toBe(200);
  return body.result;
}

describe("an event whose server is killed before its delivery finished", () => {
  it("is delivered by the restarted server, with the same webhook-id", { timeout: 300_000 }, async () => {
    const { env, key } = await prepare();
    const a = await start(env);
    const created = await call(a.url, key, "webhooks.create", { url: `${receiver.url}/crash`, events: ["order.paid"] });
    receiver.trust("/crash", created.secret as string);
    // The first POST is held open unanswered: the order change has committed, its delivery is in flight.
    receiver.failNext("/crash", 0);
    await call(a.url, key, "orders.update_status", { orderId: "demo-order-19", status: "paid" });
    await poll(async () => receiver.at("/crash").length, (n) => n >= 1, 10_000);
    a.shop.child.kill("SIGKILL");
    expect(await a.shop.exited).toBe("SIGKILL");
    const killedAt = Date.now();

    const b = await start(env);
    const [held, delivered] = await poll(async () => receiver.at("/crash"), (list) => list.length >= 2, 60_000);
    expect(delivered, "the restarted server delivered the event").toBeDefined();
    expect(delivered!.at - killedAt).toBeLessThan(30_000);
    expect(delivered!.error).toBeNull();
    expect(delivered!.status).toBe(204);
    expect(delivered!.headers["webhook-id"]).toBe(held!.headers["webhook-id"]);
    expect(delivered!.payload).toMatchObject({ type: "order.paid", data: { id: "demo-order-19", status: "paid" } });

    const log = (await call(b.url, key, "webhooks.deliveries", { id: created.id })) as unknown as Array<Record<string, unknown>>;
    const settled = await poll(
      async () => (await call(b.url, key, "webhooks.deliveries", { id: created.id })) as unknown as Array<Record<string, unknown>>,
      (list) => list[0]?.status === "delivered",
      10_000,
    );
    expect(log).toHaveLength(1);
    // The killed process never recorded its attempt: the one attempt counted is the restarted server's.
    expect(settled[0]).toMatchObject({ id: held!.headers["webhook-id"], status: "delivered", attempts: 1 });
    // SIGTERM: the dispatcher stops with the server, which exits cleanly.
    await b.shop.stop();
    expect(await b.shop.exited).toBe(0);
  });
});
