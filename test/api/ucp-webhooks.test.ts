// UCP order events through the real HTTP door: the shop's signing key in both discovery profiles, order_placed after a
// completion and order_shipped after orders.set_tracking, for a 2026-04-08 agent (RFC 9421) and a 2026-01-11 agent
// (detached JWS), each signature verified by a receiver of its own with the published JWK; nothing when nothing commits.
// (kill -9 between commit and delivery: test/api/ucp-webhooks-crash.test.ts.)
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { orderWebhookUrl } from "../../src/api/ucp/agent-profiles.ts";
import { orderResponse } from "../../src/api/ucp/v2026-04-08.ts";
import * as v0825 from "../../src/api/ucp/v2026-08-25.ts";
import { SigningKeys } from "../../src/tools/keys/signing-keys.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { shoppingCapabilities } from "../support/ucp-profile.ts";
import { startUcpReceiver, verifyDetachedJws, verifyRfc9421, type UcpDelivery, type UcpReceiver } from "../support/ucp-webhook-receiver.ts";
import { poll } from "../support/wait.ts";

let profiles: http.Server;
let receiver: UcpReceiver;
let base: string;

const ORDER = "dev.ucp.shopping.order";
function profileRoutes(): Record<string, unknown> {
  return {
    "/profiles/new.json": { name: "New Agent", ucp: { version: "2026-04-08", capabilities: shoppingCapabilities({ config: { webhook_url: `${receiver.url}/hooks/new` } }) } },
    "/profiles/old.json": { name: "Old Agent", ucp: { version: "2026-01-11", capabilities: [{ name: ORDER, version: "2026-01-11", config: { webhook_url: `${receiver.url}/hooks/old` } }] } },
    "/profiles/newest.json": {
      name: "Newest Agent",
      ucp: {
        version: "2026-08-25",
        capabilities: {
          "dev.ucp.shopping.checkout": [{ version: "2026-08-25" }],
          "dev.ucp.shopping.fulfillment": [{ version: "2026-08-25" }],
          "dev.ucp.shopping.order": [{ version: "2026-08-25", config: { webhook_url: `${receiver.url}/hooks/newest` } }],
        },
      },
    },
    "/profiles/silent.json": { name: "Silent Agent", ucp: { version: "2026-04-08", capabilities: shoppingCapabilities() } },
  };
}

beforeAll(async () => {
  receiver = await startUcpReceiver();
  const routes = profileRoutes();
  profiles = http.createServer((req, res) => {
    const body = routes[req.url ?? ""];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => profiles.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(profiles.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => profiles.close(resolve));
  await receiver.close();
});
const { server } = useServer({ config: { ucpTestMode: true, ucpAllowLocalProfiles: true, webhooksAllowLocal: true, publicBaseUrl: "https://shop.example.dk" } });

const agent = (name: string) => ({ "UCP-Agent": `profile="${base}/profiles/${name}.json"` });
const prisma = () => server.prisma;

async function ucp(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, { method, headers: { "Content-Type": "application/json", ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const BUYER = { email: "hook.buyer@example.dk", first_name: "Mette", last_name: "Hansen" };
const DESTINATION = { id: "addr_1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const fulfillment = { methods: [{ type: "shipping", destinations: [DESTINATION], selected_destination_id: "addr_1" }] };
const pay = (token: string) => ({ payment: { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token } }] } });
const payOld = (token: string) => ({ payment_data: { id: "instr_1", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token } } });

async function checkout(profile: string, itemId: string, quantity = 1): Promise<string> {
  const created = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: itemId }, quantity }], buyer: BUYER, fulfillment }, agent(profile));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

async function publishedKeys(path: string): Promise<JWK[]> {
  const response = await fetch(`${server.url}${path}`);
  const body = (await response.json()) as { signing_keys: JWK[] };
  return body.signing_keys;
}

async function arrivals(path: string, count: number, timeoutMs = 5_000): Promise<UcpDelivery[]> {
  return poll(async () => receiver.at(path), (list) => list.length >= count, timeoutMs);
}

async function ship(orderId: string): Promise<void> {
  const answer = await server.call("orders.set_tracking", { orderId, carrier: "PostNord", trackingNumber: "00370712345678901", markShipped: true }, { key: await server.key("*") });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

describe("the shop's signing key", () => {
  it("is one ES256 JWK, the same in both discovery profiles, public part only, and kept across reads", async () => {
    const latest = await publishedKeys("/.well-known/ucp");
    const older = await publishedKeys("/ucp/.well-known/ucp");
    expect(latest).toHaveLength(1);
    expect(older).toEqual(latest);
    const jwk = z.strictObject({ kid: z.string().min(16), kty: z.literal("EC"), crv: z.literal("P-256"), x: z.string(), y: z.string(), use: z.literal("sig"), alg: z.literal("ES256") }).parse(latest[0]);
    expect(jwk).not.toHaveProperty("d");
    expect(await prisma().signingKey.count()).toBe(1);
    expect(await publishedKeys("/.well-known/ucp")).toEqual(latest);
    const audit = await prisma().auditEntry.findMany({ where: { subjectType: "signing_key" } }).catch(() => []);
    expect(audit).toEqual([]);
  });
});

describe("UCP order events, 2026-08-25 (Webhook-Id, Webhook-Timestamp, RFC 9421, Content-Digest)", () => {
  it("sends order_placed in the 2026-08-25 order shape, signed with a key of the profile's keys[]", async () => {
    const keys = ((await (await fetch(`${server.url}/ucp/2026-08-25/.well-known/ucp`)).json()) as { keys: JWK[] }).keys;
    const [, , product] = await plainProducts(server, 2);
    const id = await checkout("newest", product!.id);
    const completed = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, pay("success_token"), agent("newest"));
    expect(completed.body).toMatchObject({ status: "completed", ucp: { version: "2026-08-25" } });
    const [placed] = await arrivals("/hooks/newest", 1);
    expect(placed, "order_placed arrived").toBeDefined();
    expect(verifyRfc9421(placed!, keys)).toEqual(expect.arrayContaining(["content-digest", "webhook-id", "webhook-timestamp"]));
    expect(placed!.headers["webhook-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(placed!.headers["webhook-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 60);
    const body = JSON.parse(placed!.body) as Record<string, unknown>;
    expect(v0825.orderResponse.parse(body)).toMatchObject({ checkout_id: id, ucp: { version: "2026-08-25" } });
    expect(body.event_id).toBe(placed!.headers["webhook-id"]);
  });
});

describe("UCP order events, 2026-04-08 (RFC 9421)", () => {
  it("sends order_placed within 2 s of the completion and order_shipped after set_tracking, both signed", async () => {
    const keys = await publishedKeys("/.well-known/ucp");
    const [product] = await plainProducts(server, 2);
    const id = await checkout("new", product!.id);
    const completed = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, pay("success_token"), agent("new"));
    const completedAt = Date.now();
    expect(completed.body.status).toBe("completed");
    const orderId = (completed.body.order as { id: string }).id;

    const [placed] = await arrivals("/hooks/new", 1);
    expect(placed, "order_placed arrived").toBeDefined();
    expect(placed!.at - completedAt).toBeLessThan(2_000);
    const covered = verifyRfc9421(placed!, keys);
    expect(covered).toEqual(expect.arrayContaining(["@method", "@authority", "@path", "content-digest", "content-type", "ucp-agent", "webhook-id", "webhook-timestamp"]));
    expect(placed!.headers["webhook-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number(placed!.headers["webhook-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(placed!.headers["ucp-agent"]).toBe('profile="https://shop.example.dk/.well-known/ucp"');
    const body = JSON.parse(placed!.body) as Record<string, unknown>;
    const order = orderResponse.parse(body);
    expect(order).toMatchObject({ id: orderId, checkout_id: id, ucp: { version: "2026-04-08" } });
    expect(body.event_id).toBe(placed!.headers["webhook-id"]);
    expect(order.fulfillment.events).toEqual([]);

    // A tampered body fails the receiver's check.
    expect(() => verifyRfc9421({ ...placed!, body: placed!.body.replace(orderId, "x") }, keys)).toThrow(/Content-Digest/);

    await ship(orderId);
    const [, shipped] = await arrivals("/hooks/new", 2);
    expect(shipped, "order_shipped arrived").toBeDefined();
    verifyRfc9421(shipped!, keys);
    expect(shipped!.headers["webhook-id"]).not.toBe(placed!.headers["webhook-id"]);
    const after = orderResponse.parse(JSON.parse(shipped!.body));
    expect(after.fulfillment.events).toEqual([expect.objectContaining({ type: "shipped", tracking_number: "00370712345678901", carrier: "PostNord" })]);
    expect(after.line_items.every((line) => line.status === "fulfilled")).toBe(true);
    // The receiver sees the POST before the dispatcher records it: wait for the bookkeeping.
    const rows = await poll(
      () => prisma().outboxEvent.findMany({ where: { url: `${receiver.url}/hooks/new` }, orderBy: { createdAt: "asc" } }),
      (list) => list.every((row) => row.status === "delivered"),
      5_000,
    );
    expect(rows.map((row) => [row.type, row.status, row.signer])).toEqual([
      ["ucp.order_placed", "delivered", "ucp-rfc9421"],
      ["ucp.order_shipped", "delivered", "ucp-rfc9421"],
    ]);
  });
});

describe("UCP order events, 2026-01-11 (detached JWS)", () => {
  it("sends order_placed and order_shipped as the version's reference server does, signed in Request-Signature", async () => {
    const keys = await publishedKeys("/ucp/.well-known/ucp");
    const [product] = await plainProducts(server, 2);
    const id = await checkout("old", product!.id);
    const completed = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, payOld("success_token"), agent("old"));
    const completedAt = Date.now();
    expect(completed.body.status, JSON.stringify(completed.body)).toBe("completed");
    const orderId = (completed.body.order as { id: string }).id;

    const [placed] = await arrivals("/hooks/old", 1);
    expect(placed, "order_placed arrived").toBeDefined();
    expect(placed!.at - completedAt).toBeLessThan(2_000);
    const header = await verifyDetachedJws(placed!, keys);
    expect(header).toMatchObject({ alg: "ES256", b64: false, crit: ["b64"], kid: keys[0]!.kid });
    const payload = JSON.parse(placed!.body) as Record<string, unknown>;
    expect(payload).toMatchObject({ event_type: "order_placed", checkout_id: id, id: orderId, order: { id: orderId, checkout_id: id }, ucp: { version: "2026-01-11" } });
    expect(payload.event_id).toEqual(expect.any(String));
    expect(new Date(payload.created_time as string).getTime()).toBeGreaterThan(completedAt - 60_000);
    await expect(verifyDetachedJws({ ...placed!, body: `${placed!.body} ` }, keys)).rejects.toThrow();

    await ship(orderId);
    const [, shipped] = await arrivals("/hooks/old", 2);
    expect(shipped, "order_shipped arrived").toBeDefined();
    await verifyDetachedJws(shipped!, keys);
    const next = JSON.parse(shipped!.body) as { event_type: string; checkout_id: string; order: { id: string; fulfillment: { events: Array<{ type: string }> } } };
    expect(next).toMatchObject({ event_type: "order_shipped", checkout_id: id, order: { id: orderId } });
    expect(next.order.fulfillment.events.some((event) => event.type === "shipped")).toBe(true);
  });
});

describe("later UCP order events", () => {
  it("send a 2026-04-08 agent the refunded order; a 2026-01-11 agent (whose version names no such event) gets none", async () => {
    const key = await server.key("*");
    const [product] = await plainProducts(server, 2);
    const results: Record<string, string> = {};
    for (const [profile, body] of [["new", pay("success_token")], ["old", payOld("success_token")]] as const) {
      const id = await checkout(profile, product!.id);
      const done = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, body, agent(profile));
      results[profile] = (done.body.order as { id: string }).id;
      const refund = await server.call("orders.refund", { orderId: results[profile], reason: "Knust i posten" }, { key });
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    }
    await server.runtime.outbox.idle();
    const forNew = await poll(async () => receiver.at("/hooks/new").filter((d) => (JSON.parse(d.body) as { id: string }).id === results.new), (list) => list.length >= 2, 5_000);
    expect(forNew).toHaveLength(2);
    const refunded = orderResponse.parse(JSON.parse(forNew[1]!.body));
    expect(refunded.line_items.every((line) => line.status === "removed")).toBe(true);
    const types = await prisma().outboxEvent.findMany({ where: { body: { contains: results.old! } }, select: { type: true } });
    expect(types.map((row) => row.type)).toEqual(["ucp.order_placed"]);
  });
});

describe("UCP order events for an item edit", () => {
  it("send order_updated when staff change an order's items before shipping (2026-04-08)", async () => {
    const key = await server.key("*");
    const [product] = await plainProducts(server, 1);
    const done = await ucp("POST", `/ucp/checkout-sessions/${await checkout("new", product!.id, 2)}/complete`, pay("success_token"), agent("new"));
    const orderId = (done.body.order as { id: string }).id;
    const order = await prisma().order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    const edited = await server.call("orders.change_items", { orderId, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], refundAccount: "1234 0012345678" }, { key });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await server.runtime.outbox.idle();
    const rows = await prisma().outboxEvent.findMany({ where: { body: { contains: orderId } }, orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => row.type)).toEqual(["ucp.order_placed", "ucp.order_updated"]);
    // The body is the order as the agent sees it (the version's order entity, its lines as the session placed them).
    expect(orderResponse.parse(JSON.parse(rows[1]!.body))).toMatchObject({ id: orderId });
  });
});

describe("UCP order events after the shipment", () => {
  it("send order_delivered with the delivery, and order_updated for an adjustment from outside (2026-04-08 only)", async () => {
    const key = await server.key("*");
    const keys = await publishedKeys("/.well-known/ucp");
    const [product] = await plainProducts(server, 3);
    const orderOf = async (profile: string, body: object) => {
      const done = await ucp("POST", `/ucp/checkout-sessions/${await checkout(profile, product!.id)}/complete`, body, agent(profile));
      return (done.body.order as { id: string }).id;
    };
    const delivered = await orderOf("new", pay("success_token"));
    await ship(delivered);
    const moved = await server.call("orders.update_status", { orderId: delivered, status: "delivered" }, { key });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const updated = await orderOf("new", pay("success_token"));
    const line = { id: "li_1", quantity: 1 };
    const events = [
      { id: "evt_out", occurred_at: "2026-11-27T08:00:00Z", type: "shipped", line_items: [line], carrier: "GLS" },
      { id: "evt_home", occurred_at: "2026-11-28T12:00:00Z", type: "delivered", line_items: [line] },
    ];
    expect((await ucp("PUT", `/ucp/orders/${updated}`, { id: updated, fulfillment: { events } }, agent("new"))).status).toBe(200);
    const refund = { id: "adj_1", type: "refund", occurred_at: "2026-11-29T09:00:00Z", status: "pending", amount: 500 };
    expect((await ucp("PUT", `/ucp/orders/${updated}`, { id: updated, fulfillment: { events }, adjustments: [refund] }, agent("new"))).status).toBe(200);
    // The same PUT again adds nothing, so it tells the agent nothing.
    expect((await ucp("PUT", `/ucp/orders/${updated}`, { id: updated, fulfillment: { events }, adjustments: [refund] }, agent("new"))).status).toBe(200);
    const old = await orderOf("old", payOld("success_token"));
    await ship(old);
    expect((await server.call("orders.update_status", { orderId: old, status: "delivered" }, { key })).status).toBe(200);
    await server.runtime.outbox.idle();

    const typesOf = async (orderId: string) =>
      (await prisma().outboxEvent.findMany({ where: { body: { contains: orderId } }, orderBy: { createdAt: "asc" }, select: { type: true } })).map((row) => row.type);
    expect(await typesOf(delivered)).toEqual(["ucp.order_placed", "ucp.order_shipped", "ucp.order_delivered"]);
    expect(await typesOf(updated)).toEqual(["ucp.order_placed", "ucp.order_shipped", "ucp.order_delivered", "ucp.order_updated"]);
    expect(await typesOf(old)).toEqual(["ucp.order_placed", "ucp.order_shipped"]);

    const bodies = await poll(
      async () => receiver.at("/hooks/new").filter((d) => [delivered, updated].includes((JSON.parse(d.body) as { id: string }).id)),
      (list) => list.length >= 7,
      5_000,
    );
    for (const delivery of bodies) verifyRfc9421(delivery, keys);
    const last = (orderId: string) => orderResponse.parse(JSON.parse(bodies.filter((d) => (JSON.parse(d.body) as { id: string }).id === orderId).at(-1)!.body));
    expect(last(delivered).fulfillment.events!.map((event) => [event.id, event.type])).toEqual([
      [`evt_${delivered}_shipped`, "shipped"],
      [`evt_${delivered}_delivered`, "delivered"],
    ]);
    expect(last(updated).fulfillment.events!.map((event) => event.id)).toEqual(["evt_out", "evt_home"]);
    expect(last(updated).adjustments).toEqual([refund]);
  });
});

describe("no UCP order event", () => {
  it("when the completion is refused and rolled back, or the agent gave no webhook URL", async () => {
    const before = await prisma().outboxEvent.count({ where: { type: { startsWith: "ucp." } } });
    const [product] = await plainProducts(server, 2);
    const id = await checkout("new", product!.id);
    const declined = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, pay("fail_token"), agent("new"));
    expect(declined.body.status).toBe("ready_for_complete");
    const refused = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, pay("fraud_token"), agent("new"));
    expect(refused.body.status).toBe("ready_for_complete");
    // Sold out between pricing and completion: the order is refused inside the completing transaction.
    await prisma().product.update({ where: { id: product!.id }, data: { stock: 0 } });
    const soldOut = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, pay("success_token"), agent("new"));
    expect(soldOut.body.status).not.toBe("completed");
    await prisma().product.update({ where: { id: product!.id }, data: { stock: product!.stock } });

    const silent = await checkout("silent", product!.id);
    const done = await ucp("POST", `/ucp/checkout-sessions/${silent}/complete`, pay("success_token"), agent("silent"));
    expect(done.body.status).toBe("completed");
    await ship((done.body.order as { id: string }).id);
    await server.runtime.outbox.idle();
    expect(await prisma().outboxEvent.count({ where: { type: { startsWith: "ucp." } } })).toBe(before);
  });

  it("twice when one session is completed five times at once: exactly one order_placed", async () => {
    const [product] = await plainProducts(server, 2);
    const id = await checkout("new", product!.id);
    const replies = await Promise.all(Array.from({ length: 5 }, () => ucp("POST", `/ucp/checkout-sessions/${id}/complete`, pay("success_token"), agent("new"))));
    expect(replies.filter((reply) => reply.status === 200 && reply.body.status === "completed")).toHaveLength(1);
    const orderId = (await prisma().checkoutSession.findUniqueOrThrow({ where: { id } })).orderId!;
    await server.runtime.outbox.idle();
    const events = receiver.at("/hooks/new").filter((delivery) => (JSON.parse(delivery.body) as { id: string }).id === orderId);
    expect(events).toHaveLength(1);
  });

  it("when the completing transaction fails after the event was written: the event rolls back with the order", async () => {
    const [product] = await plainProducts(server, 2);
    const id = await checkout("new", product!.id);
    const ordersBefore = await prisma().order.count();
    const eventsBefore = await prisma().outboxEvent.count({ where: { type: { startsWith: "ucp." } } });
    // The completion's last write is its audit entry, after the event: make exactly that write fail.
    await prisma().$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW."subjectId" = '${id}' AND NEW.tool = 'checkout.complete' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await prisma().$executeRawUnsafe(`CREATE TRIGGER test_fail_audit BEFORE INSERT ON "AuditEntry" FOR EACH ROW EXECUTE FUNCTION test_fail_audit()`);
    try {
      const failed = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, pay("success_token"), agent("new"));
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      await prisma().$executeRawUnsafe(`DROP TRIGGER test_fail_audit ON "AuditEntry"`);
      await prisma().$executeRawUnsafe(`DROP FUNCTION test_fail_audit()`);
    }
    await server.runtime.outbox.idle();
    expect(await prisma().order.count()).toBe(ordersBefore);
    expect(await prisma().outboxEvent.count({ where: { type: { startsWith: "ucp." } } })).toBe(eventsBefore);
    expect((await prisma().checkoutSession.findUniqueOrThrow({ where: { id } })).status).toBe("ready_for_complete");
  });
});

describe("reading an agent's webhook URL", () => {
  it("takes only an absolute http(s) URL from the order capability, in either version's layout", () => {
    const latest = (url: unknown) => orderWebhookUrl({ [ORDER]: [{ version: "2026-04-08", config: { webhook_url: url } }] });
    const older = (url: unknown) => orderWebhookUrl([{ name: ORDER, version: "2026-01-11", config: { webhook_url: url } }]);
    expect(latest("https://agent.example/hooks")).toBe("https://agent.example/hooks");
    expect(older("https://agent.example/old")).toBe("https://agent.example/old");
    for (const bad of ["javascript:alert(1)", "file:///etc/passwd", "/relative", "https://user:pw@agent.example/", 42, null, `https://a.example/${"x".repeat(3000)}`]) {
      expect(latest(bad)).toBeUndefined();
      expect(older(bad)).toBeUndefined();
    }
    expect(orderWebhookUrl({ "dev.ucp.shopping.checkout": [{ config: { webhook_url: "https://a.example/" } }] })).toBeUndefined();
    expect(orderWebhookUrl("nonsense")).toBeUndefined();
    expect(orderWebhookUrl(undefined)).toBeUndefined();
  });
});

describe("making the signing key", () => {
  it("gives processes racing on an empty table the one key that won", async () => {
    await prisma().signingKey.deleteMany({});
    const racers = Array.from({ length: 4 }, () => new SigningKeys(prisma()));
    const kids = await Promise.all(racers.map(async (keys) => (await keys.current()).kid));
    expect(new Set(kids).size).toBe(1);
    expect(await prisma().signingKey.count()).toBe(1);
  });
});

