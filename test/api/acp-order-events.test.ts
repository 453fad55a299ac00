// ACP order webhooks through real HTTP: an order completed through the ACP door sends order_create, and every later
// change made in the shop (shipping with tracking, tracking alone, delivery, a partial refund, a cancellation) sends
// order_update with the whole order, each read with our zod reading of the webhook body and its Merchant-Signature
// verified by the receiver. Orders from keys without a webhook URL send nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSession, checkoutSessionWithOrder, webhookEvent } from "../../src/api/acp/v2026-04-17.ts";
import { sign } from "../../src/api/acp/signature.ts";
import { findActiveKey } from "../../src/tools/keys/key-secrets.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";

let receiver: WebhookReceiver;
const SECRET = "platform-signing-secret-0123456789";
const PATH = "/acp/events";
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.trustMerchant(PATH, SECRET);
});
afterAll(() => receiver.close());
const { server, keys: { SIGNED, QUIET, ADMIN } } = useServer({
  config: { ucpTestMode: true, publicBaseUrl: "https://shop.example.dk", webhooksAllowLocal: true, outboxPollMs: 100 },
  keys: { SIGNED: ["checkout:agent"], QUIET: ["checkout:agent"], ADMIN: ["orders:write", "orders:read"] },
});
beforeAll(async () => {
  const id = (await findActiveKey(server.prisma, SIGNED))!.id;
  await server.prisma.apiKey.update({ where: { id }, data: { acpSigningSecret: SECRET, acpWebhookUrl: `${receiver.url}${PATH}` } });
});

let counter = 0;
async function acp(key: string, path: string, body: unknown): Promise<Reply> {
  const timestamp = new Date().toISOString();
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, "API-Version": "2026-04-17", "Content-Type": "application/json", "Idempotency-Key": `events-${Date.now()}-${++counter}` };
  if (key === SIGNED) Object.assign(headers, { Timestamp: timestamp, Signature: sign(SECRET, timestamp, { method: "POST", path, body }) });
  return sendJson(`${server.url}${path}`, "POST", headers, body);
}

const BUYER = { first_name: "Mette", last_name: "Hansen", email: "acp.events@example.dk" };
const DETAILS = { name: "Mette Hansen", address: { name: "Mette Hansen", line_one: "Strøget 12", city: "København K", state: "", country: "DK", postal_code: "1160" } };
const PAID = { payment_data: { handler_id: "mock_payment_handler", instrument: { type: "card", credential: { type: "token", token: "success_token" } } } };
const INVOICE = { payment_data: { purchase_order_number: "PO-1" } };

/** A completed ACP checkout of two units of one product: its session id and order. */
async function completed(key: string, payment: unknown) {
  const [product] = await plainProducts(server, 2);
  const session = valid(checkoutSession, await acp(key, "/acp/checkout_sessions", { line_items: [{ id: product!.id }, { id: product!.id }], currency: "dkk", capabilities: {}, buyer: BUYER, fulfillment_details: DETAILS }));
  return valid(checkoutSessionWithOrder, await acp(key, `/acp/checkout_sessions/${session.id}/complete`, payment));
}

/** The events that arrived for this order, verified and read under our zod reading of the webhook body. */
function eventsFor(orderId: string) {
  return receiver.at(PATH).flatMap((entry) => {
    if (!entry.payload) throw new Error(`an ACP event failed verification: ${entry.error}`);
    const event = webhookEvent.parse(entry.payload);
    return event.data.id === orderId ? [event] : [];
  });
}

async function nextEvent(orderId: string, seen: number) {
  await waitFor(() => eventsFor(orderId).length > seen, 15_000);
  return eventsFor(orderId)[seen]!;
}

async function tool(name: string, input: unknown): Promise<void> {
  const answer = await server.call(name, input, { key: ADMIN });
  if (answer.status !== 200) throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}

describe("ACP order events", () => {
  it("order_create, then order_update for shipping, tracking, delivery and a partial refund, signed and whole", async () => {
    const done = await completed(SIGNED, PAID);
    const orderId = done.order.id;
    const created = await nextEvent(orderId, 0);
    expect(created.type).toBe("order_create");
    expect(created.data).toMatchObject({ type: "order", checkout_session_id: done.id, order_number: orderId, permalink_url: done.order.permalink_url, status: "confirmed" });
    expect(created.data.line_items).toEqual([expect.objectContaining({ quantity: { ordered: 2, current: 2, fulfilled: 0 }, status: "processing", subtotal: done.line_items[0]!.unit_amount! * 2 })]);
    expect(created.data.fulfillments![0]).toMatchObject({ type: "shipping", status: "pending", destination: { line_one: "Strøget 12", postal_code: "1160", country: "DK" } });
    expect(created.data.totals!.find((entry) => entry.type === "total")!.amount).toBe(done.totals.find((entry) => entry.type === "total")!.amount);
    expect(created.data.adjustments).toEqual([]);

    await tool("orders.set_tracking", { orderId, carrier: "GLS", trackingNumber: "GLS123", trackingUrl: "https://gls.example/track/GLS123", markShipped: true });
    const shipped = await nextEvent(orderId, 1);
    expect(shipped.type).toBe("order_update");
    expect(shipped.data.status).toBe("shipped");
    expect(shipped.data.line_items![0]).toMatchObject({ quantity: { ordered: 2, current: 2, fulfilled: 2 }, status: "fulfilled" });
    expect(shipped.data.fulfillments![0]).toMatchObject({ status: "shipped", carrier: "GLS", tracking_number: "GLS123", tracking_url: "https://gls.example/track/GLS123" });
    expect(shipped.data.fulfillments![0]!.events!.map((event) => event.type)).toEqual(["shipped"]);

    // Tracking alone (no status change) is news to the agent too.
    await tool("orders.set_tracking", { orderId, trackingNumber: "GLS456" });
    expect((await nextEvent(orderId, 2)).data.fulfillments![0]!.tracking_number).toBe("GLS456");

    await tool("orders.update_status", { orderId, status: "delivered" });
    const delivered = await nextEvent(orderId, 3);
    expect(delivered.data.status).toBe("completed");
    expect(delivered.data.fulfillments![0]!.status).toBe("delivered");
    expect(delivered.data.fulfillments![0]!.events!.map((event) => event.type)).toEqual(["shipped", "delivered"]);

    await tool("orders.refund", { orderId, amountDkk: 1000, reason: "Ridse" });
    const refunded = await nextEvent(orderId, 4);
    expect(refunded.data.status).toBe("completed");
    expect(refunded.data.adjustments).toEqual([expect.objectContaining({ type: "refund", status: "completed", amount: 1000, currency: "dkk" })]);
    expect(refunded.data.totals!.find((entry) => entry.type === "amount_refunded")).toMatchObject({ amount: 1000 });
    // A second refund is its own adjustment, from the order's payment ledger.
    await tool("orders.refund", { orderId, amountDkk: 500 });
    const again = await nextEvent(orderId, 5);
    expect(again.data.adjustments!.map((entry) => entry.amount)).toEqual([1000, 500]);
    expect(new Set(again.data.adjustments!.map((entry) => entry.id)).size).toBe(2);
    expect(again.data.totals!.find((entry) => entry.type === "amount_refunded")).toMatchObject({ amount: 1500 });

    // Every delivery succeeded (the receiver verified each signature) and nothing is left to send.
    expect(receiver.at(PATH).filter((entry) => entry.error !== null)).toEqual([]);
    const rows = await server.prisma.outboxEvent.findMany({ where: { type: { startsWith: "acp." } } });
    expect(rows.map((row) => row.type).sort()).toEqual(["acp.order_create", "acp.order_update", "acp.order_update", "acp.order_update", "acp.order_update", "acp.order_update"]);
  });

  it("an invoice order: created, confirmed when paid, or canceled with its lines removed", async () => {
    const paidLater = await completed(SIGNED, INVOICE);
    expect((await nextEvent(paidLater.order.id, 0)).data.status).toBe("created");
    await tool("orders.update_status", { orderId: paidLater.order.id, status: "paid" });
    expect((await nextEvent(paidLater.order.id, 1)).data).toMatchObject({ status: "confirmed" });

    const cancelled = await completed(SIGNED, INVOICE);
    await nextEvent(cancelled.order.id, 0);
    await tool("orders.cancel", { orderId: cancelled.order.id, reason: "Kunden fortrød" });
    const event = await nextEvent(cancelled.order.id, 1);
    expect(event).toMatchObject({ type: "order_update", data: { status: "canceled" } });
    expect(event.data.line_items![0]).toMatchObject({ quantity: { ordered: 2, current: 0, fulfilled: 0 }, status: "removed" });
    expect(event.data.fulfillments![0]!.status).toBe("canceled");
  });

  it("sends nothing for orders of a key without a webhook URL, nor for orders from other doors", async () => {
    const before = await server.prisma.outboxEvent.count({ where: { type: { startsWith: "acp." } } });
    const quiet = await completed(QUIET, PAID);
    await tool("orders.set_tracking", { orderId: quiet.order.id, carrier: "GLS", markShipped: true });
    const [product] = await plainProducts(server, 1);
    const placed = await server.call("orders.create", { items: [{ productSlug: product!.slug, quantity: 1 }], email: "shop@example.dk", shipping: { name: "Anne Berg", address: "Vesterbrogade 1", zip: "1620", city: "København V" } }, { key: ADMIN });
    expect(placed.status).toBe(200);
    await tool("orders.cancel", { orderId: (placed.body.result as { orderId: string }).orderId, reason: "Test" });
    expect(await server.prisma.outboxEvent.count({ where: { type: { startsWith: "acp." } } })).toBe(before);
  });
});

describe("ACP order events for an item edit", () => {
  it("order_update when staff change the order's items before shipping", async () => {
    const done = await completed(SIGNED, PAID);
    const orderId = done.order.id;
    expect((await nextEvent(orderId, 0)).type).toBe("order_create");
    const { items } = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: { orderBy: { id: "asc" } } } });
    // Two units: one line of two, or two lines of one; either way one unit fewer.
    const change = items.length > 1 ? { orderItemId: items[1]!.id, quantity: 0 } : { orderItemId: items[0]!.id, quantity: 1 };
    await tool("orders.change_items", { orderId, items: [change], refundAccount: "1234 0012345678" });
    const updated = await nextEvent(orderId, 1);
    expect(updated).toMatchObject({ type: "order_update", data: { id: orderId, status: "confirmed" } });
  });
});
