// kill -9 between a UCP completion's commit and the delivery of its order_placed event (real server processes): the
// restarted server delivers it, signed with the same (durable) shop key, which its discovery profile still publishes.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/core/db.ts";
import { spawnShop, type ShopProcess } from "../support/process.ts";
import { processDatabase } from "../support/server.ts";
import { shoppingCapabilities } from "../support/ucp-profile.ts";
import { startUcpReceiver, verifyRfc9421, type UcpReceiver } from "../support/ucp-webhook-receiver.ts";
import { poll } from "../support/wait.ts";

const shops: ShopProcess[] = [];
const cleanups: Array<() => unknown> = [];
let receiver: UcpReceiver;
let profiles: http.Server;
let agent: string;

beforeAll(async () => {
  receiver = await startUcpReceiver();
  profiles = http.createServer((_req, res) => {
    const profile = { name: "Crash Agent", ucp: { version: "2026-04-08", capabilities: shoppingCapabilities({ config: { webhook_url: `${receiver.url}/crash` } }) } };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
  });
  await new Promise<void>((resolve) => profiles.listen(0, "127.0.0.1", resolve));
  agent = `profile="http://127.0.0.1:${(profiles.address() as AddressInfo).port}/agent.json"`;
});
afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()));
  for (const cleanup of cleanups.reverse()) await cleanup();
  await new Promise((resolve) => profiles.close(resolve));
  await receiver.close();
});

async function plainProduct(database: Database): Promise<string> {
  const row = await database.prisma.product.findFirstOrThrow({ where: { deletedAt: null, stock: { gte: 2 }, variants: { none: {} } }, orderBy: { slug: "asc" } });
  return row.id;
}

/** A database of its own; the environment shop processes on it get, and a product to buy. */
async function prepare(): Promise<{ env: Record<string, string>; productId: string }> {
  // A claim lapses WEBHOOK_TIMEOUT_MS * 2 + 5 s after it was taken: 7 s here.
  const env = { WEBHOOKS_ALLOW_LOCAL: "1", UCP_TEST_MODE: "1", UCP_ALLOW_LOCAL_PROFILES: "1", WEBHOOK_TIMEOUT_MS: "1000", OUTBOX_POLL_MS: "200", RATE_LIMIT_ANON_PER_MIN: "100000", CHAT_WORKERS: "0" };
  const own = await processDatabase(plainProduct);
  cleanups.push(own.drop);
  return { env: { ...env, ...own.env }, productId: own.arranged };
}

async function start(env: Record<string, string>): Promise<string> {
  const shop = spawnShop(env);
  shops.push(shop);
  return shop.url();
}

async function ucp(base: string, urlPath: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${urlPath}`, { method: "POST", headers: { "content-type": "application/json", "UCP-Agent": agent }, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, unknown>;
}

async function keysOf(base: string): Promise<JWK[]> {
  return ((await (await fetch(`${base}/.well-known/ucp`)).json()) as { signing_keys: JWK[] }).signing_keys;
}

describe("a UCP order event whose server is killed before its delivery finished", () => {
  it("is delivered by the restarted server, signed with the same published key", { timeout: 300_000 }, async () => {
    const { env, productId } = await prepare();
    const a = await start(env);
    const keys = await keysOf(a);
    const session = await ucp(a, "/ucp/checkout-sessions", {
      line_items: [{ item: { id: productId }, quantity: 1 }],
      buyer: { email: "crash@example.dk", first_name: "Ida", last_name: "Berg" },
      fulfillment: { methods: [{ type: "shipping", destinations: [{ id: "a1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" }], selected_destination_id: "a1" }] },
    });
    // The first POST is held open unanswered: the completion has committed, its event's delivery is in flight.
    receiver.failNext("/crash", 0);
    const done = await ucp(a, `/ucp/checkout-sessions/${session.id as string}/complete`, { payment: { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token: "success_token" } }] } });
    expect(done.status, JSON.stringify(done)).toBe("completed");
    await poll(async () => receiver.at("/crash").length, (n) => n >= 1, 10_000);
    shops[0]!.child.kill("SIGKILL");
    expect(await shops[0]!.exited).toBe("SIGKILL");

    const b = await start(env);
    const [held, delivered] = await poll(async () => receiver.at("/crash"), (list) => list.length >= 2, 60_000);
    expect(delivered, "the restarted server delivered the event").toBeDefined();
    expect(await keysOf(b)).toEqual(keys);
    verifyRfc9421(delivered!, keys);
    expect(delivered!.headers["webhook-id"]).toBe(held!.headers["webhook-id"]);
    expect(JSON.parse(delivered!.body)).toMatchObject({ id: (done.order as { id: string }).id, checkout_id: session.id });
  });
});
