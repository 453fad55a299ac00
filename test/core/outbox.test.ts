// The durable outbox behind every outbound webhook: events written in the tool's transaction (and never for a change that
// rolled back), each receiver's events in order and one at a time while other receivers' go out beside them, retried
// with growing waits until dead, endpoints disabled after repeated failure, signing chosen per event from the registered
// signers, and two dispatchers on one database delivering each event once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Outbox } from "../../src/core/outbox/outbox.ts";
import { Signers } from "../../src/core/outbox/signers.ts";
import { createOutbox } from "../../src/tools/webhooks/dispatch.ts";
import { EVENT_TYPES, type EventType } from "../../src/tools/webhooks/schemas.ts";
import { startPeerServer, useServer } from "../support/server.ts";
import { poll } from "../support/wait.ts";
import { startWebhookReceiver, subscribe, type WebhookReceiver } from "../support/webhook-receiver.ts";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
const { server, keys: { key } } = useServer({
  config: { webhooksAllowLocal: true, webhookRetryDelaysMs: [100, 200, 400], outboxPollMs: 50, webhookDisableAfter: 2 },
  keys: { key: ["*"] },
});

const db = () => server.prisma;
const ok = async (name: string, input: unknown) => {
  const answer = await server.call(name, input, { key });
  expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body.result as Record<string, unknown>;
};
const types = (path: string) => receiver.at(path).map((message) => message.payload?.type);

describe("events from the shop's tools", () => {
  it("reports order and product changes to the endpoints subscribed to them, signed and verified", async () => {
    await subscribe(server, receiver, "/orders", ["order.created", "order.paid", "order.shipped", "order.cancelled", "order.refunded"]);
    await subscribe(server, receiver, "/stock", ["stock.low", "product.updated"]);
    const created = await ok("orders.create", {
      items: [{ productSlug: "gucci-oversize-bold-74", quantity: 1 }],
      email: "webhook@example.dk",
      shipping: { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K" },
    });
    await ok("orders.cancel", { orderId: "demo-order-20", reason: "Fortrudt" });
    await ok("orders.refund", { orderId: "demo-order-23", amountDkk: 10000, reason: "Ridse" });
    await ok("orders.set_tracking", { orderId: "demo-order-17", carrier: "PostNord", trackingNumber: "00370712345678901234", markShipped: true });
    await poll(async () => types("/orders"), (list) => list.length >= 4, 5_000);
    expect(types("/orders").sort()).toEqual(["order.cancelled", "order.created", "order.refunded", "order.shipped"]);
    expect(receiver.at("/orders").every((message) => message.error === null)).toBe(true);
    const placed = receiver.at("/orders").find((message) => message.payload?.type === "order.created")!.payload!;
    expect(placed.data).toMatchObject({ id: created.orderId, status: "pending_payment", previousStatus: null, email: "webhook@example.dk", lines: [expect.objectContaining({ quantity: 1 })] });
    const shipped = receiver.at("/orders").find((message) => message.payload?.type === "order.shipped")!.payload!;
    expect(shipped.data).toMatchObject({ id: "demo-order-17", carrier: "PostNord", trackingNumber: "00370712345678901234" });

    await ok("products.adjust_stock", { slug: "prada-wayfarer-bold-9", set: 20, reason: "Optælling" });
    await ok("products.adjust_stock", { slug: "prada-wayfarer-bold-9", set: 4, reason: "Brud" });
    await ok("products.adjust_stock", { slug: "prada-wayfarer-bold-9", delta: -1, reason: "Brud" });
    await poll(async () => types("/stock"), (list) => list.length >= 4, 5_000);
    expect(types("/stock").sort()).toEqual(["product.updated", "product.updated", "product.updated", "stock.low"]);
    const low = receiver.at("/stock").find((message) => message.payload?.type === "stock.low")!.payload!;
    expect(low.data).toMatchObject({ slug: "prada-wayfarer-bold-9", sku: null, before: 20, after: 4, stock: 4, threshold: 5 });
  });

  it("reports bulk price changes, variants, deletions, and stock an order takes below the threshold", async () => {
    await subscribe(server, receiver, "/catalog", ["stock.low", "product.updated"]);
    const at = (type: string) => receiver.at("/catalog").filter((message) => message.payload?.type === type).map((message) => message.payload!.data);
    const bulk = await ok("products.bulk_update_prices", { slugs: ["vogue-clubmaster-sommer-2", "gucci-oversize-bold-74"], mode: "percent", value: 10 });
    expect(bulk.changed).toBe(2);
    await ok("products.upsert_variant", { slug: "vogue-clubmaster-sommer-2", sku: "webhook-xl", attributes: { size: "XL" }, stock: 8 });
    await ok("products.upsert_variant", { slug: "vogue-clubmaster-sommer-2", sku: "webhook-xl", stock: 2 });
    await ok("products.adjust_stock", { slug: "gucci-oversize-bold-74", set: 7, reason: "Optælling" });
    await ok("orders.create", {
      items: [{ productSlug: "gucci-oversize-bold-74", quantity: 3 }],
      email: "lager@example.dk",
      shipping: { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K" },
    });
    await ok("products.delete", { slug: "gucci-oversize-bold-74", confirm: true });
    await poll(async () => at("product.updated").length + at("stock.low").length, (n) => n >= 8, 5_000);
    const updated = at("product.updated");
    expect(updated.map((data) => data.slug).sort()).toEqual([...Array(3).fill("gucci-oversize-bold-74"), ...Array(3).fill("vogue-clubmaster-sommer-2")]);
    expect(updated.filter((data) => data.deleted)).toEqual([expect.objectContaining({ slug: "gucci-oversize-bold-74" })]);
    expect(at("stock.low")).toHaveLength(2);
    expect(at("stock.low")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ slug: "vogue-clubmaster-sommer-2", sku: "webhook-xl", before: 8, after: 2 }),
        expect.objectContaining({ slug: "gucci-oversize-bold-74", sku: null, before: 7, after: 4 }),
      ]),
    );
  });

  it("writes nothing for a change that was refused and rolled back", async () => {
    await subscribe(server, receiver, "/refused", ["order.paid", "order.cancelled"]);
    const before = await db().outboxEvent.count();
    expect((await server.call("orders.update_status", { orderId: "demo-order-11", status: "paid" }, { key })).status).toBe(422);
    expect((await server.call("orders.cancel", { orderId: "no-such-order", reason: "x" }, { key })).status).toBe(404);
    expect(await db().outboxEvent.count()).toBe(before);
  });
});

describe("every event type webhooks.create accepts", () => {
  // The action that emits each type, performed through the REST door; `satisfies` fails to compile when a type is added
  // to EVENT_TYPES without a row here.
  const EMITTED_BY = {
    "order.created": ["orders.create", { items: [{ productSlug: "oergreen-aviator-classic-4", quantity: 1 }], email: "alle@example.dk", shipping: { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K" } }],
    "order.paid": ["orders.update_status", { orderId: "demo-order-19", status: "paid" }],
    "order.refunded": ["orders.refund", { orderId: "demo-order-19", amountDkk: 1000, reason: "Ridse" }],
    "order.shipped": ["orders.set_tracking", { orderId: "demo-order-16", carrier: "PostNord", trackingNumber: "00370712345678905555", markShipped: true }],
    "order.cancelled": ["orders.cancel", { orderId: "demo-order-21", reason: "Fortrudt" }],
    "order.updated": ["orders.change_items", { orderId: "demo-order-18", items: [{ orderItemId: "demo-order-18-line-1", quantity: 2 }] }],
    "return.requested": ["returns.request", { orderId: "demo-order-22", items: [{ orderItemId: "demo-order-22-line-1", quantity: 1 }], kind: "withdrawal", reason: "Passede ikke" }],
    "product.updated": ["products.update", { slug: "oergreen-aviator-classic-4", patch: { featured: true } }],
    "stock.low": ["products.adjust_stock", { slug: "oergreen-aviator-classic-4", set: 3, reason: "Brud" }],
  } satisfies Record<EventType, [string, unknown]>;

  it("is emitted by an action and reaches a subscribed receiver, signed", async () => {
    expect(Object.keys(EMITTED_BY).sort()).toEqual([...EVENT_TYPES].sort());
    await subscribe(server, receiver, "/every", [...EVENT_TYPES]);
    await ok("products.adjust_stock", { slug: "oergreen-aviator-classic-4", set: 20, reason: "Optælling" });
    for (const [type, [tool, input]] of Object.entries(EMITTED_BY)) {
      const before = receiver.at("/every").length;
      await ok(tool, input);
      const arrived = await poll(async () => receiver.at("/every").slice(before), (list) => list.some((message) => message.payload?.type === type), 5_000);
      expect(arrived.map((message) => message.payload?.type), `${tool} emits ${type}`).toContain(type);
    }
    const updated = receiver.at("/every").find((message) => message.payload?.type === "order.updated")!.payload!;
    expect(updated.data).toMatchObject({ id: "demo-order-18", changes: [{ orderItemId: "demo-order-18-line-1", fromQuantity: 3, toQuantity: 2 }] });
    const requested = receiver.at("/every").find((message) => message.payload?.type === "return.requested")!.payload!;
    expect(requested.data).toMatchObject({ orderId: "demo-order-22", kind: "withdrawal", status: "requested", items: [{ orderItemId: "demo-order-22-line-1", quantity: 1 }] });
    expect(receiver.at("/every").every((message) => message.error === null)).toBe(true);
  });
});

describe("receivers that hang", () => {
  it("do not hold back other endpoints' events, and get their own in order, one at a time, once they answer", async () => {
    await subscribe(server, receiver, "/hangs", ["product.updated"]);
    await subscribe(server, receiver, "/quick", ["product.updated"]);
    receiver.hold("/hangs");
    const committed: number[] = [];
    for (const stock of [31, 32, 33, 34, 35]) {
      await ok("products.adjust_stock", { slug: "oakley-aviator-coast-1", set: stock, reason: "Optælling" });
      committed.push(Date.now());
    }
    const quick = await poll(async () => receiver.at("/quick"), (list) => list.length >= 5, 3_000);
    const stocks = (path: string) => receiver.at(path).map((message) => message.payload?.data.stock);
    expect(stocks("/quick")).toEqual([31, 32, 33, 34, 35]);
    const delays = quick.map((message, i) => message.at - committed[i]!);
    expect(Math.max(...delays), `delays ${delays.join(", ")} ms`).toBeLessThan(1_000);
    // The hanging receiver has had its first event only: the next wait behind it, in order.
    expect(stocks("/hangs")).toEqual([31]);
    receiver.release("/hangs");
    await poll(async () => receiver.at("/hangs"), (list) => list.length >= 5, 5_000);
    expect(stocks("/hangs")).toEqual([31, 32, 33, 34, 35]);
  });
});

describe("retries", () => {
  it("retries a failing receiver with growing waits, then marks the event dead after its last attempt", async () => {
    const { id } = await subscribe(server, receiver, "/flaky", ["order.paid"]);
    receiver.answer("/flaky", 503);
    const { deliveryId } = await ok("webhooks.test", { id });
    const dead = await poll(() => db().outboxEvent.findUniqueOrThrow({ where: { id: deliveryId as string } }), (row) => row.status !== "pending", 8_000);
    expect(dead).toMatchObject({ status: "dead", attempts: 4, maxAttempts: 4, lastStatusCode: 503, lastError: expect.stringContaining("503") });
    const times = receiver.at("/flaky").map((message) => message.at);
    expect(times).toHaveLength(4);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[1]).toBeGreaterThanOrEqual(190);
    expect(gaps[2]).toBeGreaterThanOrEqual(390);
    expect(await db().outboxAttempt.count({ where: { eventId: deliveryId as string, ok: false } })).toBe(4);
  });

  it("keeps a receiver's order across retries: its later events wait until the earlier one is delivered", async () => {
    await subscribe(server, receiver, "/inorder", ["product.updated"]);
    receiver.failNext("/inorder", 503, 503);
    for (const stock of [41, 42, 43]) await ok("products.adjust_stock", { slug: "oakley-aviator-coast-1", set: stock, reason: "Optælling" });
    const arrived = await poll(async () => receiver.at("/inorder"), (list) => list.length >= 5, 5_000);
    expect(arrived.map((message) => [message.payload?.data.stock, message.status])).toEqual([[41, 503], [41, 503], [41, 204], [42, 204], [43, 204]]);
  });

  it("gives an event that spent its retry window waiting behind its receiver's earlier events one attempt", async () => {
    const { id } = await subscribe(server, receiver, "/late", ["product.updated"]);
    receiver.answer("/late", 503);
    receiver.hold("/late");
    for (const stock of [51, 52]) await ok("products.adjust_stock", { slug: "oakley-aviator-coast-1", set: stock, reason: "Optælling" });
    await poll(async () => receiver.at("/late"), (list) => list.length >= 1, 5_000);
    const [first, second] = await db().outboxEvent.findMany({ where: { endpointId: id }, orderBy: { seq: "asc" } });
    // As if the second had waited a day behind the first.
    await db().outboxEvent.update({ where: { id: second!.id }, data: { retryUntil: new Date(Date.now() - 1000) } });
    receiver.release("/late");
    const settled = await poll(() => db().outboxEvent.findMany({ where: { endpointId: id }, orderBy: { seq: "asc" } }), (rows) => rows.every((row) => row.status !== "pending"), 8_000);
    expect(settled.map((row) => [row.id, row.status, row.attempts])).toEqual([[first!.id, "dead", 4], [second!.id, "dead", 1]]);
    receiver.answer("/late", null);
  });

  it("disables an endpoint once events in a row used up every retry, and sends it nothing more", async () => {
    const { id } = await subscribe(server, receiver, "/broken", ["product.updated"]);
    receiver.answer("/broken", 500);
    for (const n of [1, 2]) {
      await ok("products.adjust_stock", { slug: "prada-wayfarer-bold-9", delta: n, reason: "Levering" });
      await poll(() => db().webhookEndpoint.findUniqueOrThrow({ where: { id } }), (row) => row.failureStreak >= n, 8_000);
    }
    const endpoint = await poll(() => db().webhookEndpoint.findUniqueOrThrow({ where: { id } }), (row) => row.disabledAt !== null, 2_000);
    expect(endpoint).toMatchObject({ failureStreak: 2, disabledAt: expect.any(Date), disabledReason: expect.stringContaining("2 events") });
    const sent = receiver.at("/broken").length;
    await ok("products.adjust_stock", { slug: "prada-wayfarer-bold-9", delta: 1, reason: "Levering" });
    expect(await db().outboxEvent.count({ where: { endpointId: id, status: "pending" } })).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at("/broken")).toHaveLength(sent);
  });

  it("clears the failure streak once an event gets through", async () => {
    const { id } = await subscribe(server, receiver, "/recovers", ["order.paid"]);
    await db().webhookEndpoint.update({ where: { id }, data: { failureStreak: 1 } });
    const { deliveryId } = await ok("webhooks.test", { id });
    await poll(() => db().outboxEvent.findUniqueOrThrow({ where: { id: deliveryId as string } }), (row) => row.status === "delivered", 5_000);
    // The endpoint's bookkeeping follows the delivery's record (onSettled runs once the attempt is written).
    expect((await poll(() => db().webhookEndpoint.findUniqueOrThrow({ where: { id } }), (row) => row.failureStreak === 0, 5_000)).failureStreak).toBe(0);
  });
});

describe("signers and dispatchers", () => {
  it("signs each event with the signer it names, and fails attempts whose signer is not registered", async () => {
    const signers = new Signers();
    signers.register({ name: "test-signer", headers: async ({ id, keyRef }) => ({ "x-test-signature": `${keyRef}:${id}` }) });
    expect(() => signers.register({ name: "test-signer", headers: async () => ({}) })).toThrow(/twice/);
    const outbox = new Outbox({ database: server.database, log: server.runtime.log, signers, retryDelaysMs: [], timeoutMs: 2_000, pollMs: 50, allowLocal: true });
    await server.runtime.outbox.stop();
    try {
      await outbox.start();
      const writer = { db: db(), afterCommit: (effect: () => void) => effect() };
      const signed = await outbox.enqueue(writer, { type: "x.signed", url: `${receiver.url}/custom`, body: "{}", signer: "test-signer", keyRef: "ref-1" });
      const unsigned = await outbox.enqueue(writer, { type: "x.unsigned", url: `${receiver.url}/custom`, body: "{}", signer: "no-such-signer", keyRef: "ref-2" });
      await poll(() => db().outboxEvent.findMany({ where: { id: { in: [signed, unsigned] } } }), (rows) => rows.every((row) => row.status !== "pending"), 5_000);
      expect(receiver.at("/custom").map((message) => message.headers["x-test-signature"])).toEqual([`ref-1:${signed}`]);
      expect(await db().outboxEvent.findUniqueOrThrow({ where: { id: unsigned } })).toMatchObject({ status: "dead", lastError: expect.stringContaining("no-such-signer") });
    } finally {
      await outbox.stop();
      await server.runtime.outbox.start();
    }
  });

  it("prunes settled events older than 30 days, keeping newer and pending ones", async () => {
    const old = new Date(Date.now() - 31 * 24 * 3600_000);
    const later = new Date(Date.now() + 3600_000);
    const base = { type: "x.old", url: `${receiver.url}/never`, receiver: "url:never", body: "{}", signer: "standard-webhooks", keyRef: "none", maxAttempts: 1, nextAttemptAt: later, retryUntil: later };
    await db().outboxEvent.createMany({
      data: [
        { ...base, id: "prune-delivered", status: "delivered", createdAt: old },
        { ...base, id: "prune-dead", status: "dead", createdAt: old },
        { ...base, id: "keep-pending", status: "pending", createdAt: old },
        { ...base, id: "keep-recent", status: "delivered", createdAt: new Date() },
      ],
    });
    await db().outboxAttempt.create({ data: { eventId: "prune-dead", number: 1, startedAt: old, durationMs: 1, ok: false, error: "x" } });
    const fresh = createOutbox({ ...server.runtime.config }, server.database, server.runtime.log);
    await fresh.start();
    await fresh.stop();
    const left = await db().outboxEvent.findMany({ where: { id: { in: ["prune-delivered", "prune-dead", "keep-pending", "keep-recent"] } }, select: { id: true } });
    expect(left.map((row) => row.id).sort()).toEqual(["keep-pending", "keep-recent"]);
    expect(await db().outboxAttempt.count({ where: { eventId: "prune-dead" } })).toBe(0);
    await db().outboxEvent.delete({ where: { id: "keep-pending" } });
  });

  it("delivers each event exactly once, each receiver's in order, with two dispatchers claiming from one database", async () => {
    const { id } = await subscribe(server, receiver, "/once", ["product.updated"]);
    const second = createOutbox({ ...server.runtime.config }, server.database, server.runtime.log);
    await second.start();
    try {
      const ids = [];
      for (let i = 0; i < 10; i++) {
        ids.push((await ok("webhooks.test", { id })).deliveryId);
        await ok("products.adjust_stock", { slug: "oakley-aviator-coast-1", set: 200 + i, reason: "Optælling" });
      }
      await poll(async () => receiver.at("/once").length, (n) => n >= 20, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const arrived = receiver.at("/once");
      expect(arrived).toHaveLength(20);
      expect(new Set(arrived.map((message) => message.headers["webhook-id"])).size).toBe(20);
      expect(arrived.filter((message) => message.payload?.type === "webhook.test").map((message) => message.headers["webhook-id"]).sort()).toEqual(ids.sort());
      expect(arrived.filter((message) => message.payload?.type === "product.updated").map((message) => message.payload?.data.stock)).toEqual([...Array(10).keys()].map((i) => 200 + i));
    } finally {
      await second.stop();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("delivers each event once, in order, with two server processes on one PostgreSQL database", async () => {
    const peer = await startPeerServer(server, { webhooksAllowLocal: true, outboxPollMs: 50 });
    try {
      await subscribe(server, receiver, "/peers", ["product.updated"]);
      const peerKey = await peer.key("*");
      for (let i = 0; i < 10; i++) {
        const [caller, callerKey] = i % 2 ? [peer, peerKey] : [server, key];
        expect((await caller.call("products.adjust_stock", { slug: "oakley-aviator-coast-1", set: 300 + i, reason: "Optælling" }, { key: callerKey })).status).toBe(200);
      }
      await poll(async () => receiver.at("/peers").length, (n) => n >= 10, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const arrived = receiver.at("/peers");
      expect(new Set(arrived.map((message) => message.headers["webhook-id"])).size).toBe(10);
      expect(arrived.map((message) => message.payload?.data.stock)).toEqual([...Array(10).keys()].map((i) => 300 + i));
    } finally {
      await peer.close();
    }
  });
});
