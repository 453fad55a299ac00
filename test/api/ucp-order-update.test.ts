// PUT /ucp/orders/{id} through real HTTP: fulfilment events and adjustments recorded through orders.record_events, shown
// by GET, a shipped event moving the order to shipped; without a key only in test mode, otherwise orders:write.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutResponse, errorResponse, orderResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer, type TestServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { shoppingCapabilities } from "../support/ucp-profile.ts";

let profiles: http.Server;
let AGENT = "";
let OLD = "";
beforeAll(async () => {
  const routes: Record<string, string> = {
    "/new.json": JSON.stringify({ name: "Order Agent", ucp: { version: "2026-04-08", services: {}, capabilities: shoppingCapabilities() } }),
    "/old.json": JSON.stringify({ ucp: { version: "2026-01-11" } }),
  };
  profiles = http.createServer((req, res) => (routes[req.url ?? ""] ? res.end(routes[req.url ?? ""]) : res.writeHead(404).end()));
  await new Promise<void>((resolve) => profiles.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(profiles.address() as AddressInfo).port}`;
  AGENT = `profile="${base}/new.json"`;
  OLD = `profile="${base}/old.json"`;
});
afterAll(async () => {
  await new Promise((resolve) => profiles.close(resolve));
});
const config = { ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" };
const { server: testShop } = useServer({ config: { ...config, ucpTestMode: true } });
const { server: liveShop, keys } = useServer({ config: { ...config, ucpTestMode: false }, keys: { writer: ["orders:write"], reader: ["orders:read"] } });

async function ucp(server: TestServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return sendJson(`${server.url}${path}`, method, { "UCP-Agent": AGENT, "Content-Type": "application/json", ...headers }, body);
}

function expectError(reply: Reply, status: number, code: string): void {
  if (reply.status !== status) throw new Error(`expected ${status} ${code}, got ${reply.status}: ${reply.text}`);
  expect(valid(errorResponse, reply).messages[0]!.code).toBe(code);
}

const BUYER = { email: "order.agent@example.dk", first_name: "Mette", last_name: "Hansen" };
const fulfillment = { methods: [{ type: "shipping", destinations: [{ id: "addr_1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" }], selected_destination_id: "addr_1" }] };

/** A completed UCP checkout's order: paid with the test handler in test mode, waiting for payment by link otherwise. */
async function placedOrder(server: TestServer, headers: Record<string, string> = {}): Promise<string> {
  const [product] = await plainProducts(server, 1);
  const created = await ucp(server, "POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER, fulfillment }, headers);
  const session = headers["UCP-Agent"] ? (created.body as { id: string }) : valid(checkoutResponse, created);
  const handler = server === testShop ? { id: "pi_1", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token: "success_token" } } : { id: "pi_1", handler_id: "payment_link", type: "payment_link" };
  const done = await ucp(server, "POST", `/ucp/checkout-sessions/${session.id}/complete`, { payment: { instruments: [handler] } }, headers);
  const id = (done.body.order as { id?: string } | undefined)?.id;
  if (!id) throw new Error(`complete answered ${done.status}: ${done.text}`);
  return id;
}

const shippedEvent = (lineId: string) => ({ id: "evt_track", occurred_at: "2026-11-26T08:00:00Z", type: "shipped", line_items: [{ id: lineId, quantity: 1 }], tracking_number: "TRACK123", tracking_url: "http://track.example/123", description: "Shipped via GLS" });
const refund = { id: "adj_1", type: "refund", occurred_at: "2026-11-26T09:00:00+01:00", status: "pending", amount: 500, description: "Customer refund request" };

describe("PUT /ucp/orders/{id} in test mode", () => {
  it("records a shipped event without credentials, ships the order and shows the event on GET", async () => {
    const id = await placedOrder(testShop);
    const order = valid(orderResponse, await ucp(testShop, "GET", `/ucp/orders/${id}`));
    const { ucp: _envelope, ...entity } = order;
    const put = await ucp(testShop, "PUT", `/ucp/orders/${id}`, { ...entity, fulfillment: { ...entity.fulfillment, events: [shippedEvent(order.line_items[0]!.id)] } });
    expect(put.status).toBe(200);
    const updated = valid(orderResponse, put);
    expect(updated.fulfillment.events).toEqual([shippedEvent(order.line_items[0]!.id)]);
    expect(updated.line_items[0]).toMatchObject({ status: "fulfilled", quantity: { fulfilled: 1 } });
    expect(valid(orderResponse, await ucp(testShop, "GET", `/ucp/orders/${id}`))).toEqual(updated);
    const row = await testShop.prisma.order.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "shipped", trackingNumber: "TRACK123", trackingUrl: null });
    const changes = await testShop.prisma.orderStatusChange.findMany({ where: { orderId: id }, orderBy: { createdAt: "asc" } });
    expect(changes.filter((change) => change.toStatus === "shipped")).toMatchObject([{ fromStatus: "paid", toStatus: "shipped" }]);
  });

  it("keeps adjustments append-only and answers in the agent's version", async () => {
    const id = await placedOrder(testShop, { "UCP-Agent": OLD });
    const first = await ucp(testShop, "PUT", `/ucp/orders/${id}`, { id, adjustments: [refund] }, { "UCP-Agent": OLD });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ucp: { version: "2026-01-11" }, adjustments: [refund] });
    const second = await ucp(testShop, "PUT", `/ucp/orders/${id}`, { id, adjustments: [{ ...refund, amount: 1 }, { ...refund, id: "adj_2", status: "completed" }] }, { "UCP-Agent": OLD });
    expect((second.body.adjustments as unknown[]).length).toBe(2);
    expect(second.body.adjustments).toMatchObject([{ id: "adj_1", amount: 500 }, { id: "adj_2", status: "completed" }]);
    expect((await testShop.prisma.order.findUniqueOrThrow({ where: { id } })).status).toBe("paid");
  });

  it("refuses an adjustment that does not read (422) and writes nothing", async () => {
    const id = await placedOrder(testShop);
    expectError(await ucp(testShop, "PUT", `/ucp/orders/${id}`, { id, adjustments: [{ ...refund, status: "INVALID_STATUS" }] }), 422, "invalid_request");
    expectError(await ucp(testShop, "PUT", `/ucp/orders/${id}`, { id, adjustments: { id: "adj_1", amount: 100 } }), 422, "invalid_request");
    expectError(await ucp(testShop, "PUT", `/ucp/orders/${id}`, [refund]), 422, "invalid_request");
    expect((await testShop.prisma.order.findUniqueOrThrow({ where: { id } })).adjustments).toEqual([]);
    expectError(await ucp(testShop, "PUT", "/ucp/orders/nope", { adjustments: [refund] }), 404, "not_found");
  });
});

describe("PUT /ucp/orders/{id} outside test mode", () => {
  it("needs a key with orders:write: 401 without, 403 with another scope, 200 with it", async () => {
    const id = await placedOrder(liveShop);
    const body = { id, adjustments: [refund] };
    expectError(await ucp(liveShop, "PUT", `/ucp/orders/${id}`, body), 401, "unauthorized");
    expectError(await ucp(liveShop, "PUT", `/ucp/orders/${id}`, body, { Authorization: `Bearer ${keys.reader}` }), 403, "forbidden");
    expectError(await ucp(liveShop, "PUT", "/ucp/orders/nope", body), 401, "unauthorized");
    const ok = await ucp(liveShop, "PUT", `/ucp/orders/${id}`, body, { Authorization: `Bearer ${keys.writer}` });
    expect(valid(orderResponse, ok).adjustments).toEqual([refund]);
    expect(valid(orderResponse, await ucp(liveShop, "GET", `/ucp/orders/${id}`)).adjustments).toEqual([refund]);
    expectError(await ucp(liveShop, "PUT", "/ucp/orders/nope", body, { Authorization: `Bearer ${keys.writer}` }), 404, "not_found");
  });

  it("refuses a caller without the key before it judges the body (401/403 before 422)", async () => {
    const id = await placedOrder(liveShop);
    const bad = { id, adjustments: [{ ...refund, amount: "lots" }] };
    expectError(await ucp(liveShop, "PUT", `/ucp/orders/${id}`, bad), 401, "unauthorized");
    expectError(await ucp(liveShop, "PUT", `/ucp/orders/${id}`, [1, 2]), 401, "unauthorized");
    expectError(await ucp(liveShop, "PUT", `/ucp/orders/${id}`, bad, { Authorization: `Bearer ${keys.reader}` }), 403, "forbidden");
    expectError(await ucp(liveShop, "PUT", `/ucp/orders/${id}`, bad, { Authorization: `Bearer ${keys.writer}` }), 422, "invalid_request");
  });
});
