// The UCP Stripe payment handler through real HTTP against the local Stripe fake: the business profile declares it
// (com.stripe.payments, id "stripe", with the publishable key agents tokenise cards with) only when both Stripe keys are
// set; completing with a PaymentMethod id charges one confirmed PaymentIntent for the order (amount, currency,
// metadata, idempotency key) inside the completion's transaction; a decline leaves no order and the stock as it was;
// 3-D Secure answers requires_escalation with the bank's page as continue_url and pays once the buyer has authenticated;
// REST (both versions) and MCP alike.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v0111 from "../../src/api/ucp/v2026-01-11.ts";
import { loadConfig } from "../../src/core/config.ts";
import { checkoutResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";

const PUBLISHABLE = "pk_test_51ShopUcpStripe";
let stripe: FakeStripe;
let profiles: http.Server;
let base: string;
beforeAll(async () => {
  profiles = http.createServer((req, res) => {
    const version = req.url === "/old.json" ? "2026-01-11" : "2026-04-08";
    res.end(JSON.stringify({ name: "Stripe Shopper", ucp: { version } }));
  });
  await new Promise<void>((resolve) => profiles.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(profiles.address() as AddressInfo).port}`;
  stripe = await startFakeStripe();
});
afterAll(async () => {
  await stripe.close();
  await new Promise((resolve) => profiles.close(resolve));
});
const common = () => ({ stripeSecretKey: "sk_test_ucp", stripeApiUrl: stripe.url, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" });
const { server } = useServer({ config: () => ({ ...common(), stripePublishableKey: PUBLISHABLE }) });
/** Stripe with the secret key only: no card handler to offer (agents could not tokenise). */
const { server: secretOnly } = useServer({ config: common });
const prisma = () => server.prisma;

async function ucp(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, on = server): Promise<Reply> {
  return sendJson(`${on.url}${path}`, method, { "UCP-Agent": `profile="${base}/shopper.json"`, "Content-Type": "application/json", ...headers }, body);
}

const BUYER = { email: "stripe.buyer@example.dk", first_name: "Mette", last_name: "Hansen" };
const DESTINATION = { id: "addr_1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const fulfillment = { methods: [{ type: "shipping", destinations: [DESTINATION], selected_destination_id: "addr_1" }] };
const instrument = (token: string) => ({ id: "instr_1", handler_id: "stripe", type: "card", selected: true, credential: { type: "stripe_token", token } });
const pay = (token: string) => ({ payment: { instruments: [instrument(token)] } });

/** A ready 2026-04-08 session for one unit of a product with stock, and that product's stock before. */
async function readySession(index = 0) {
  const product = (await plainProducts(server, 3))[index]!;
  const created = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product.id }, quantity: 1 }], buyer: BUYER, fulfillment });
  expect(created.status).toBe(201);
  const session = valid(checkoutResponse, created);
  expect(session.status).toBe("ready_for_complete");
  return { session, product, total: session.totals.find((entry) => entry.type === "total")!.amount };
}

/** The PaymentIntent creations the shop sent for a session. */
const creations = (sessionId: string) => stripe.requests.filter((request) => request.path === "/v1/payment_intents" && request.form.get("metadata[checkoutSessionId]") === sessionId);
const intentsOf = (sessionId: string) => [...stripe.intents.values()].filter((intent) => intent.metadata.checkoutSessionId === sessionId);
const stockOf = async (productId: string) => Number((await prisma().product.findUniqueOrThrow({ where: { id: productId } })).stock);

describe("UCP Stripe handler: discovery", () => {
  it("reads STRIPE_PUBLISHABLE_KEY, refusing anything but a publishable key (a secret one would be published)", () => {
    expect(loadConfig({}).stripePublishableKey).toBeUndefined();
    expect(loadConfig({ STRIPE_PUBLISHABLE_KEY: PUBLISHABLE }).stripePublishableKey).toBe(PUBLISHABLE);
    expect(() => loadConfig({ STRIPE_PUBLISHABLE_KEY: "sk_test_oops" })).toThrow("STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key");
  });

  it("declares com.stripe.payments with the publishable key, in both versions' profiles and in checkouts", async () => {
    const profile = (await ucp("GET", "/.well-known/ucp")).body as { ucp: { payment_handlers: Record<string, unknown[]> } };
    expect(profile.ucp.payment_handlers["com.stripe.payments"]).toEqual([
      { id: "stripe", version: "2026-04-08", available_instruments: [{ type: "card" }], config: { environment: "sandbox", publishable_key: PUBLISHABLE } },
    ]);
    expect(profile.ucp.payment_handlers["com.stripe.shared_payment_token"]).toEqual([{ id: "stripe_spt", version: "2026-04-08", available_instruments: [{ type: "card" }] }]);
    expect(profile.ucp.payment_handlers["dk.shop.payment_link"]).toEqual([{ id: "payment_link", version: "2026-04-08" }]);
    const old = valid(v0111.discoveryResponse, await ucp("GET", "/ucp/.well-known/ucp"));
    expect(old.payment.handlers.map((handler) => [handler.id, handler.name])).toEqual([["stripe", "com.stripe.payments"], ["stripe_spt", "com.stripe.shared_payment_token"], ["payment_link", "dk.shop.payment_link"]]);
    expect(old.payment.handlers[0]!.config).toEqual({ environment: "sandbox", publishable_key: PUBLISHABLE });
    const { session } = await readySession();
    expect(session.ucp.payment_handlers["com.stripe.payments"]).toEqual(profile.ucp.payment_handlers["com.stripe.payments"]);
  });

  it("is not offered without the publishable key (nor is it accepted)", async () => {
    const profile = (await ucp("GET", "/.well-known/ucp", undefined, {}, secretOnly)).body as { ucp: { payment_handlers: Record<string, unknown[]> } };
    expect(Object.keys(profile.ucp.payment_handlers).sort()).toEqual(["com.stripe.shared_payment_token", "dk.shop.payment_link"]);
    const old = valid(v0111.discoveryResponse, await ucp("GET", "/ucp/.well-known/ucp", undefined, {}, secretOnly));
    expect(old.payment.handlers.map((handler) => handler.id)).toEqual(["stripe_spt", "payment_link"]);
    const [product] = await plainProducts(secretOnly, 1);
    const session = valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER, fulfillment }, {}, secretOnly));
    const refused = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_visa"), {}, secretOnly));
    expect(refused.messages![0]).toMatchObject({ code: "payment_handler_unknown" });
  });
});

describe("UCP Stripe handler: completing (2026-04-08 REST)", () => {
  it("charges a PaymentMethod once: completed, order paid, the PaymentIntent with amount, currency, metadata and key", async () => {
    const { session, product, total } = await readySession();
    const stock = await stockOf(product.id);
    const completed = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_visa"), { "Idempotency-Key": "stripe-ok-1" });
    expect(completed.status).toBe(200);
    const done = valid(checkoutResponse, completed);
    expect(done.status).toBe("completed");
    expect(completed.text).not.toContain("pm_card_visa");
    const [sent] = creations(session.id);
    expect(creations(session.id)).toHaveLength(1);
    expect(Object.fromEntries(sent!.form)).toMatchObject({ amount: String(total), currency: "dkk", confirm: "true", payment_method: "pm_card_visa", return_url: "https://shop.example.dk/" });
    expect(sent!.idempotencyKey).toMatch(new RegExp(`^checkout-${session.id}-[0-9a-f]{16}-${total}$`));
    const [intent] = intentsOf(session.id);
    expect(intent).toMatchObject({ status: "succeeded", amount: total, currency: "dkk", metadata: { checkoutSessionId: session.id, orderId: done.order!.id } });
    const order = await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id }, include: { payments: true } });
    expect(order).toMatchObject({ status: "paid", channel: "ucp", paymentMethod: "card", paymentProviderPaymentIntentId: intent!.id });
    expect(order.payments.map((entry) => ({ kind: entry.kind, method: entry.method, amount: Number(entry.amountDkk), reference: entry.reference }))).toEqual([
      { kind: "payment", method: "card", amount: total, reference: intent!.id },
    ]);
    const stored = await prisma().checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(JSON.stringify(stored)).not.toContain("pm_card_visa");
    expect(JSON.stringify(stored.view)).toContain('"lastDigits":"4242"');
    expect(await stockOf(product.id)).toBe(stock - 1);

    // The same request under the same key replays the answer: Stripe is not asked again.
    const requests = stripe.requests.length;
    const again = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_visa"), { "Idempotency-Key": "stripe-ok-1" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(completed.text);
    expect(stripe.requests.length).toBe(requests);
    // Another key on the completed session is refused before any charge.
    expect((await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_visa"), { "Idempotency-Key": "stripe-ok-2" })).status).toBe(409);
    expect(stripe.requests.length).toBe(requests);
    expect(intentsOf(session.id)).toHaveLength(1);
  });

  it("turns a declined card into payment_failed: the session stays open, no order, stock unchanged", async () => {
    const { session, product } = await readySession();
    const stock = await stockOf(product.id);
    const declined = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_chargeDeclined"));
    expect(declined.status).toBe(200);
    const body = valid(checkoutResponse, declined);
    expect(body.status).toBe("ready_for_complete");
    expect(body.messages![0]).toMatchObject({ type: "error", code: "payment_failed", severity: "recoverable" });
    expect(body.order).toBeUndefined();
    expect(creations(session.id)).toHaveLength(1);
    expect(await prisma().checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ status: "ready_for_complete", orderId: null });
    expect(await stockOf(product.id)).toBe(stock);
    // Not a Stripe token (a card number least of all): declined before Stripe is asked, the number never echoed.
    const requests = stripe.requests.length;
    for (const token of ["4242424242424242", "tok_visa"]) {
      const bad = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay(token));
      expect(valid(checkoutResponse, bad).messages![0]).toMatchObject({ code: "payment_failed" });
      expect(bad.text).not.toContain("4242424242424242");
    }
    expect(stripe.requests.length).toBe(requests);
    // The buyer tries another card: paid.
    expect(valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_mastercard"))).status).toBe("completed");
    expect(await stockOf(product.id)).toBe(stock - 1);
  });

  it("hands 3-D Secure to the buyer (requires_escalation, continue_url), then pays the same PaymentIntent once", async () => {
    const { session, product } = await readySession();
    const stock = await stockOf(product.id);
    const challenged = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_threeDSecureRequired"), { "Idempotency-Key": "3ds-1" });
    expect(challenged.status).toBe(200);
    const body = valid(checkoutResponse, challenged);
    const [intent] = intentsOf(session.id);
    expect(body).toMatchObject({ status: "requires_escalation", continue_url: `https://hooks.stripe.test/3d_secure_2/hosted?payment_intent=${intent!.id}` });
    expect(body.messages![0]).toMatchObject({ type: "error", code: "requires_3ds", severity: "requires_buyer_input" });
    expect(body.order).toBeUndefined();
    expect(await prisma().order.count({ where: { paymentProviderPaymentIntentId: intent!.id } })).toBe(0);
    expect(await stockOf(product.id)).toBe(stock);
    // Not authenticated yet: still escalated.
    expect(valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_threeDSecureRequired"))).status).toBe("requires_escalation");

    stripe.authenticate(intent!.id);
    const done = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_threeDSecureRequired"), { "Idempotency-Key": "3ds-2" }));
    expect(done.status).toBe("completed");
    // Every attempt sent the same creation under the same key: Stripe replayed it, one PaymentIntent in all.
    expect(new Set(creations(session.id).map((request) => request.idempotencyKey)).size).toBe(1);
    expect(intentsOf(session.id)).toHaveLength(1);
    expect(intent!.metadata.orderId).toBe(done.order!.id);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } })).toMatchObject({ status: "paid", paymentProviderPaymentIntentId: intent!.id });
    expect(await stockOf(product.id)).toBe(stock - 1);
  });

  it("declines when the buyer fails 3-D Secure", async () => {
    const { session } = await readySession();
    expect(valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_threeDSecureRequired"))).status).toBe("requires_escalation");
    stripe.authenticate(intentsOf(session.id)[0]!.id, false);
    const failed = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("pm_card_threeDSecureRequired")));
    expect(failed).toMatchObject({ status: "ready_for_complete", messages: [{ code: "payment_failed" }] });
  });

  it("charges a shared payment token on the same handler", async () => {
    const { session, total } = await readySession();
    expect(valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("spt_test_ucp1"))).status).toBe("completed");
    expect(Object.fromEntries(creations(session.id)[0]!.form)).toMatchObject({ shared_payment_granted_token: "spt_test_ucp1", amount: String(total) });
  });
});

describe("UCP Stripe handler: MCP and 2026-01-11", () => {
  it("completes over the MCP binding with complete_checkout", async () => {
    const { session } = await readySession(1);
    const client = new Client({ name: "vitest-ucp-stripe", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/ucp/mcp`)));
    try {
      const meta = { "ucp-agent": { profile: `${base}/shopper.json` }, "idempotency-key": "mcp-stripe-1" };
      const result = await client.callTool({ name: "complete_checkout", arguments: { meta, id: session.id, checkout: pay("pm_card_visa") } });
      const done = checkoutResponse.parse(result.structuredContent);
      expect(done.status).toBe("completed");
      expect(intentsOf(session.id)).toHaveLength(1);
      expect(await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } })).toMatchObject({ status: "paid" });
    } finally {
      await client.close();
    }
  });

  it("completes a 2026-01-11 checkout with payment_data; a decline is 402", async () => {
    const old = { "UCP-Agent": `profile="${base}/old.json"` };
    const [product] = await plainProducts(server, 3);
    const created = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER, fulfillment }, old);
    const session = valid(v0111.checkoutResponse, created);
    expect(session.payment.handlers.find((handler) => handler.id === "stripe")).toMatchObject({ name: "com.stripe.payments", config: { publishable_key: PUBLISHABLE } });
    const declined = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, { payment_data: instrument("pm_card_chargeDeclined") }, old);
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ messages: [{ code: "payment_failed" }] });
    const challenged = valid(v0111.checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, { payment_data: instrument("pm_card_threeDSecureRequired") }, old));
    expect(challenged).toMatchObject({ status: "requires_escalation", messages: [{ code: "requires_3ds", severity: "requires_buyer_input" }] });
    const done = valid(v0111.checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, { payment_data: instrument("pm_card_visa") }, old));
    expect(done.status).toBe("completed");
    expect(done.payment.instruments).toEqual([{ id: "instr_1", handler_id: "stripe", type: "card", brand: "visa", last_digits: "4242" }]);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } })).toMatchObject({ status: "paid" });
  });
});
