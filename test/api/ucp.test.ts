// The UCP REST door (2026-04-08) through real HTTP: discovery, each endpoint against our zod reading of the version's
// schemas, business outcomes, lifecycle refusals, idempotency, version negotiation, hostile input, racing completions.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as v0111 from "../../src/api/ucp/v2026-01-11.ts";
import { errorResponse, checkoutResponse, orderResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { IdempotencyStore } from "../../src/core/idempotency.ts";
import { MAX_PROFILE_FETCHES, ProfileFetcher } from "../../src/api/ucp/agent-profiles.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { shoppingCapabilities } from "../support/ucp-profile.ts";

let profiles: http.Server;
let PROFILE: string;
let AGENT: string;
let OTHER: string;
/** Order webhook URLs agents' profiles name (/profiles/hook-<name>.json): one public, the rest for the guard to refuse. */
const HOOKS = {
  public: "https://1.1.1.1/hooks/ucp",
  loopback: "http://127.0.0.1:8080/hooks",
  metadata: "http://169.254.169.254/latest",
  compatible: "https://[::127.0.0.1]/hooks",
  localhost: "https://localhost./hooks",
  private: "https://10.1.2.3/hooks",
};
/** Agent profiles on loopback (UCP_ALLOW_LOCAL_PROFILES): /profiles/<name>.json, plus broken ones. */
const PROFILE_ROUTES: Record<string, (res: http.ServerResponse) => void> = {
  "/profiles/shopper.json": (res) => res.end(JSON.stringify({ name: "Test Shopper", ucp: { version: "2026-04-08", services: {}, capabilities: shoppingCapabilities() } })),
  "/profiles/other.json": (res) => res.end(JSON.stringify({ ucp: { version: "2026-04-08" } })),
  "/profiles/old.json": (res) => res.end(JSON.stringify({ ucp: { version: "2026-01-11" } })),
  "/profiles/ancient.json": (res) => res.end(JSON.stringify({ ucp: { version: "2025-01-01" } })),
  "/profiles/checkout-only.json": (res) => res.end(JSON.stringify({ ucp: { version: "2026-04-08", capabilities: { "dev.ucp.shopping.checkout": [{ version: "2026-04-08" }] } } })),
  "/profiles/orphans.json": (res) =>
    res.end(JSON.stringify({ ucp: { version: "2026-04-08", capabilities: { "dev.ucp.shopping.checkout": [{ version: "2027-01-01" }], "dev.ucp.shopping.discount": [{ version: "2026-04-08" }], "dev.ucp.shopping.order": [{ version: "2026-04-08" }] } } })),
  "/profiles/broken.json": (res) => res.end("{not json"),
  ...Object.fromEntries(
    Object.entries(HOOKS).map(([name, url]) => [`/profiles/hook-${name}.json`, (res: http.ServerResponse) => res.end(JSON.stringify({ ucp: { version: "2026-04-08", capabilities: shoppingCapabilities({ config: { webhook_url: url } }) } }))]),
  ),
  "/profiles/moved.json": (res) => res.writeHead(302, { location: "/profiles/shopper.json" }).end(),
  "/profiles/down.json": (res) => res.writeHead(503).end(),
  // Never finishes: one byte every 200 ms, so no idle timeout ever fires.
  "/profiles/trickle.json": (res) => {
    trickling.open++;
    trickling.most = Math.max(trickling.most, trickling.open);
    res.writeHead(200, { "content-type": "application/json" }).write("{");
    const drip = setInterval(() => res.write(" "), 200);
    res.on("close", () => {
      clearInterval(drip);
      trickling.open--;
    });
  },
};
/** Connections to the trickling profile open now, and the most at once. */
const trickling = { open: 0, most: 0 };
beforeAll(async () => {
  profiles = http.createServer((req, res) => (PROFILE_ROUTES[new URL(req.url ?? "/", "http://profiles").pathname] ?? ((r: http.ServerResponse) => r.writeHead(404).end()))(res));
  await new Promise<void>((resolve) => profiles.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(profiles.address() as AddressInfo).port}`;
  PROFILE = `${base}/profiles/shopper.json`;
  AGENT = `profile="${PROFILE}"`;
  OTHER = `profile="${base}/profiles/other.json"`;
});
const { server } = useServer({ config: { ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" } });
afterAll(async () => {
  await new Promise((resolve) => profiles.close(resolve));
});
const agentAt = (path: string) => `profile="${new URL(path, PROFILE).href}"`;
const prisma = () => server.prisma;

async function ucp(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return sendJson(`${server.url}${path}`, method, { "UCP-Agent": AGENT, "Content-Type": "application/json", ...headers }, body);
}

function expectError(reply: Reply, status: number, code: string): void {
  if (reply.status !== status) throw new Error(`expected ${status} ${code}, got ${reply.status}: ${reply.text}`);
  const body = valid(errorResponse, reply);
  expect(body.messages[0]!.code).toBe(code);
}

const BUYER = { email: "agent.buyer@example.dk", first_name: "Mette", last_name: "Hansen" };
const DESTINATION = { id: "addr_1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const fulfillment = { methods: [{ type: "shipping", destinations: [DESTINATION], selected_destination_id: "addr_1" }] };
const pay = (token: string) => ({ payment: { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token } }] } });

async function newCheckout(itemId: string, quantity = 1, extra: Record<string, unknown> = { buyer: BUYER, fulfillment }) {
  const reply = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: itemId }, quantity }], ...extra });
  if (reply.status !== 201) throw new Error(`create answered ${reply.status}: ${reply.text}`);
  return valid(checkoutResponse, reply);
}

describe("UCP discovery", () => {
  it("serves the 2026-04-08 business profile with the REST service, capabilities and the test payment handler", async () => {
    const reply = await ucp("GET", "/.well-known/ucp");
    expect(reply.status).toBe(200);
    const entity = z.object({ version: z.literal("2026-04-08"), spec: z.url(), schema: z.url() });
    const profile = z.object({
      ucp: z.object({
        version: z.literal("2026-04-08"),
        services: z.object({ "dev.ucp.shopping": z.array(entity.extend({ transport: z.enum(["rest", "mcp"]), endpoint: z.url() })).min(1) }),
        capabilities: z.record(z.string(), z.array(entity.extend({ extends: z.string().optional() }))),
        payment_handlers: z.record(z.string(), z.array(z.object({ id: z.string(), version: z.string() }))),
      }),
      signing_keys: z.array(z.object({ kid: z.string() }).loose()),
    });
    const body = valid(profile, reply);
    expect(body.ucp.services["dev.ucp.shopping"].map((service) => [service.transport, service.endpoint])).toEqual([
      ["rest", "https://shop.example.dk/ucp"],
      ["mcp", "https://shop.example.dk/ucp/mcp"],
    ]);
    expect(Object.keys(body.ucp.capabilities).sort()).toEqual(["dev.ucp.common.identity_linking", "dev.ucp.shopping.ap2_mandate", "dev.ucp.shopping.buyer_consent", "dev.ucp.shopping.cart", "dev.ucp.shopping.catalog.lookup", "dev.ucp.shopping.catalog.search", "dev.ucp.shopping.checkout", "dev.ucp.shopping.discount", "dev.ucp.shopping.fulfillment", "dev.ucp.shopping.order"]);
    expect(Object.values(body.ucp.payment_handlers).flat().map((handler) => handler.id).sort()).toEqual(["google_pay", "mock_payment_handler", "payment_link", "shop_pay"]);
    expect((reply.body.ucp as { supported_versions: unknown }).supported_versions).toEqual({ "2026-01-11": "https://shop.example.dk/ucp/.well-known/ucp", "2026-08-25": "https://shop.example.dk/ucp/2026-08-25/.well-known/ucp" });
  });

  it("serves the 2026-01-11 profile at /ucp/.well-known/ucp for older clients", async () => {
    const reply = await ucp("GET", "/ucp/.well-known/ucp");
    expect(reply.status).toBe(200);
    const body = valid(v0111.discoveryResponse, reply);
    expect(body.ucp.services["dev.ucp.shopping"]!.rest!.endpoint).toBe("https://shop.example.dk/ucp");
    expect(body.ucp.services["dev.ucp.shopping"]!.mcp!.endpoint).toBe("https://shop.example.dk/ucp/mcp");
    expect(body.payment.handlers.map((handler) => handler.id)).toContain("mock_payment_handler");
  });
});

describe("UCP 2026-01-11 agents", () => {
  it("negotiate the older version from their profile and check out in its shapes", async () => {
    const old = { "UCP-Agent": agentAt("/profiles/old.json") };
    const [product] = await plainProducts(server, 1);
    const body = { line_items: [{ item: { id: product!.id, title: "ignored" }, quantity: 1 }], buyer: { full_name: "Jens Peter Hansen", email: "jens@example.dk" }, fulfillment, discounts: { codes: ["VELKOMMEN10"] }, currency: "DKK", payment: { instruments: [], handlers: [] } };
    const created = await ucp("POST", "/ucp/checkout-sessions", body, old);
    expect(created.status).toBe(201);
    const session = valid(v0111.checkoutResponse, created);
    expect(session).toMatchObject({ status: "ready_for_complete", ucp: { version: "2026-01-11" } });
    expect(session.totals.find((t) => t.type === "discount")!.amount).toBeGreaterThan(0);
    expect(session.payment.handlers.map((h) => h.id)).toContain("mock_payment_handler");
    const updated = valid(v0111.checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { id: session.id, ...body, line_items: [{ id: "li_1", item: { id: product!.id }, quantity: 1 }] }, old));
    expect(updated.status).toBe("ready_for_complete");
    const payment_data = { id: "instr_1", handler_id: "mock_payment_handler", type: "card", brand: "Visa", last_digits: "1234", credential: { type: "token", token: "success_token" } };
    // 2026-01-11 answers refusals with HTTP errors: a declined payment is 402, an unknown item 400.
    const declined = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, { payment_data: { ...payment_data, credential: { type: "token", token: "fail_token" } }, risk_signals: {} }, old);
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ ucp: { version: "2026-01-11", status: "error" }, messages: [{ type: "error", code: "payment_failed", severity: "recoverable" }] });
    expect((await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: "pink_wumpus" }, quantity: 1 }] }, old)).status).toBe(400);
    const versionParameter = { "UCP-Agent": `${agentAt("/profiles/other.json")}; version="2026-01-11"` };
    expect((await ucp("GET", `/ucp/checkout-sessions/${session.id}`, undefined, versionParameter)).body).toMatchObject({ ucp: { version: "2026-01-11", status: "error" } });
    const done = valid(v0111.checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, { payment_data, risk_signals: {} }, old));
    expect(done.status).toBe("completed");
    expect(done.order!.id).toBeTruthy();
    const order = await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } });
    expect(order).toMatchObject({ shippingName: "Jens Peter Hansen", channel: "ucp" });
    expect((await prisma().checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).protocolVersion).toBe("2026-01-11");
    const again = await ucp("POST", `/ucp/checkout-sessions/${session.id}/cancel`, undefined, old);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ ucp: { version: "2026-01-11", status: "error" }, messages: [{ code: "checkout_not_modifiable", severity: "recoverable" }] });
    expect((await ucp("GET", `/ucp/orders/${order.id}`, undefined, old)).body).toMatchObject({ ucp: { version: "2026-01-11", capabilities: [{ name: "dev.ucp.shopping.order" }] }, id: order.id });
  });
});

describe("UCP checkout sessions", () => {
  it("creates (201), reads, updates and completes a checkout, then serves its order", async () => {
    const [product] = await plainProducts(server, 3);
    const created = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product!.id }, quantity: 2 }] }, { "Request-Id": "req-123" });
    expect(created.status).toBe(201);
    expect(created.headers.get("request-id")).toBe("req-123");
    const session = valid(checkoutResponse, created);
    expect(session).toMatchObject({ status: "incomplete", currency: "DKK", ucp: { version: "2026-04-08", status: "success" } });
    expect(session.line_items[0]).toMatchObject({ item: { id: product!.id, title: product!.name, price: product!.priceDkk }, quantity: 2 });
    expect(session.messages!.map((m) => m.path)).toEqual(["$.buyer.email", "$.fulfillment.methods[0].selected_destination_id"]);

    const got = valid(checkoutResponse, await ucp("GET", `/ucp/checkout-sessions/${session.id}`));
    expect(got.id).toBe(session.id);

    const updated = await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { id: session.id, line_items: [{ id: "li_1", item: { id: product!.id }, quantity: 2 }], buyer: BUYER, fulfillment, discounts: { codes: ["VELKOMMEN10", "UNKNOWN"] } });
    expect(updated.status).toBe(200);
    const ready = valid(checkoutResponse, updated);
    expect(ready.status).toBe("ready_for_complete");
    expect(ready.discounts!.applied!.map((d) => d.code)).toEqual(["VELKOMMEN10"]);
    expect(ready.fulfillment!.methods[0]!.selected_destination_id).toBe("addr_1");
    const option = ready.fulfillment!.methods[0]!.groups![0]!.options.at(-1)!;
    const chosen = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: [{ item: { id: product!.id }, quantity: 2 }], buyer: BUYER, discounts: { codes: ["VELKOMMEN10"] }, fulfillment: { methods: [{ ...fulfillment.methods[0], groups: [{ id: "fg_1", selected_option_id: option.id }] }] } }));
    expect(chosen.fulfillment!.methods[0]!.groups![0]!.selected_option_id).toBe(option.id);

    const completed = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("success_token"));
    expect(completed.status).toBe(200);
    const done = valid(checkoutResponse, completed);
    expect(done.status).toBe("completed");
    // The order's signed page for whoever holds the link (as ACP's permalink), not the sign-in form.
    expect(done.order!.permalink_url).toMatch(new RegExp(`^https://shop\\.example\\.dk/orders/${done.order!.id}/pay\\?token=[\\w-]{43}$`));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } });
    expect(order).toMatchObject({ channel: "ucp", isAiGenerated: true, aiAgentSource: "Test Shopper", status: "paid", discountCode: "VELKOMMEN10" });
    expect(Number(order.totalDkk)).toBe(done.totals.find((t) => t.type === "total")!.amount);
    const row = await prisma().checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(row).toMatchObject({ protocol: "ucp", protocolVersion: "2026-04-08", agentProfile: PROFILE, agentName: "Test Shopper", orderId: order.id });

    const fetched = await ucp("GET", `/ucp/orders/${order.id}`);
    expect(fetched.status).toBe(200);
    const ucpOrder = valid(orderResponse, fetched);
    expect(ucpOrder).toMatchObject({ id: order.id, checkout_id: session.id, currency: "DKK" });
    expect(ucpOrder.line_items[0]).toMatchObject({ quantity: { total: 2, fulfilled: 0 }, status: "processing" });
    expectError(await ucp("GET", `/ucp/orders/${order.id}`, undefined, { "UCP-Agent": OTHER }), 404, "not_found");
  });

  it("reports a declined payment as a business outcome and keeps the session open; fraud is refused", async () => {
    const [product] = await plainProducts(server, 1);
    const session = await newCheckout(product!.id);
    const orders = await prisma().order.count();
    const declined = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("fail_token"));
    expect(declined.status).toBe(200);
    const body = valid(checkoutResponse, declined);
    expect(body.status).toBe("ready_for_complete");
    expect(body.messages![0]).toMatchObject({ type: "error", code: "payment_failed", severity: "recoverable" });
    const fraud = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("fraud_token")));
    expect(fraud.messages![0]).toMatchObject({ code: "payment_refused", severity: "unrecoverable" });
    expect(await prisma().order.count()).toBe(orders);
  });

  it("answers an unknown item with the version's error response and creates nothing", async () => {
    const before = await prisma().checkoutSession.count();
    const reply = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: "bouquet_roses" }, quantity: 1 }] });
    expect(reply.status).toBe(200);
    expect(valid(errorResponse, reply).messages[0]).toMatchObject({ code: "item_unavailable", severity: "unrecoverable" });
    expect(await prisma().checkoutSession.count()).toBe(before);
  });

  it("refuses every change after cancel or completion (409), and hides sessions from other agents", async () => {
    const [product] = await plainProducts(server, 1);
    const session = await newCheckout(product!.id);
    expectError(await ucp("GET", `/ucp/checkout-sessions/${session.id}`, undefined, { "UCP-Agent": OTHER }), 404, "not_found");
    const canceled = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/cancel`));
    expect(canceled.status).toBe("canceled");
    expectError(await ucp("POST", `/ucp/checkout-sessions/${session.id}/cancel`), 409, "checkout_not_modifiable");
    expectError(await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: [{ item: { id: product!.id }, quantity: 2 }] }), 409, "checkout_not_modifiable");
    expectError(await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("success_token")), 409, "checkout_not_modifiable");

    const other = await newCheckout(product!.id);
    expect((await ucp("POST", `/ucp/checkout-sessions/${other.id}/complete`, pay("success_token"))).status).toBe(200);
    expectError(await ucp("POST", `/ucp/checkout-sessions/${other.id}/complete`, pay("success_token")), 409, "checkout_not_modifiable");
    expectError(await ucp("POST", `/ucp/checkout-sessions/${other.id}/cancel`), 409, "checkout_not_modifiable");
    expectError(await ucp("PUT", `/ucp/checkout-sessions/${other.id}`, { line_items: [{ item: { id: product!.id }, quantity: 1 }] }), 409, "checkout_not_modifiable");
  });
});

describe("UCP concurrent completion of one session", () => {
  it("places one order when the same session is completed five times at once", async () => {
    const [product] = await plainProducts(server, 1);
    const session = await newCheckout(product!.id);
    const replies = await Promise.all(Array.from({ length: 5 }, () => ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("success_token"))));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await prisma().checkoutSession.count({ where: { id: session.id, orderId: { not: null } } })).toBe(1);
  });
});

describe("UCP idempotency", () => {
  it("replays the identical response for the same key and body, and refuses the key for another body", async () => {
    const [product] = await plainProducts(server, 2);
    const body = { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER };
    const before = await prisma().checkoutSession.count();
    const first = await ucp("POST", "/ucp/checkout-sessions", body, { "Idempotency-Key": "key-create-1" });
    const again = await ucp("POST", "/ucp/checkout-sessions", body, { "Idempotency-Key": "key-create-1" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await prisma().checkoutSession.count()).toBe(before + 1);
    expectError(await ucp("POST", "/ucp/checkout-sessions", { ...body, line_items: [{ item: { id: product!.id }, quantity: 2 }] }, { "Idempotency-Key": "key-create-1" }), 409, "idempotency_key_reused");
    // Another agent's identical key is its own.
    expect((await ucp("POST", "/ucp/checkout-sessions", body, { "Idempotency-Key": "key-create-1", "UCP-Agent": OTHER })).status).toBe(201);
  });

  it("completes once under one key: the repeat replays the completion instead of refusing it", async () => {
    const [product] = await plainProducts(server, 1);
    const session = await newCheckout(product!.id);
    const first = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("success_token"), { "Idempotency-Key": "complete-1" });
    const again = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pay("success_token"), { "Idempotency-Key": "complete-1" });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.text).toBe(first.text);
    expect(await prisma().order.count({ where: { id: (first.body.order as { id: string }).id } })).toBe(1);
  });

  it("refuses a key whose first request is still running, and never stores a server error", async () => {
    const caller = `agent:${PROFILE}`;
    const [product] = await plainProducts(server, 1);
    const body = { line_items: [{ item: { id: product!.id }, quantity: 1 }] };
    await prisma().idempotencyRecord.create({ data: { caller, key: "in-flight", method: "POST", path: "/ucp/checkout-sessions", requestHash: "x" } });
    expectError(await ucp("POST", "/ucp/checkout-sessions", body, { "Idempotency-Key": "in-flight" }), 409, "idempotency_key_reused");
    const store = new IdempotencyStore(prisma(), () => new Date());
    const request = { caller, key: "running", method: "POST", path: "/ucp/checkout-sessions", body };
    const claim = await store.claim(request);
    expect(claim.kind).toBe("run");
    await expect(store.claim(request)).rejects.toMatchObject({ status: 409, code: "request_in_progress" });
    expectError(await ucp("POST", "/ucp/checkout-sessions", body, { "Idempotency-Key": "running" }), 409, "request_in_progress");
    await store.finish((claim as { recordId: string }).recordId, { status: 500, headers: {}, body: "{}" });
    expect(await prisma().idempotencyRecord.count({ where: { caller, key: "running" } })).toBe(0);
    expect((await ucp("POST", "/ucp/checkout-sessions", body, { "Idempotency-Key": "running" })).status).toBe(201);
    expectError(await ucp("POST", "/ucp/checkout-sessions", body, { "Idempotency-Key": "bad key with spaces" }), 400, "invalid_idempotency_key");
  });

  it("takes over a key whose first request died, and keeps records at least 24 hours", async () => {
    const caller = `agent:${PROFILE}`;
    const [product] = await plainProducts(server, 1);
    const body = { line_items: [{ item: { id: product!.id }, quantity: 1 }] };
    await prisma().idempotencyRecord.create({ data: { caller, key: "dead", method: "POST", path: "/ucp/checkout-sessions", requestHash: "x", createdAt: new Date(Date.now() - 120_000) } });
    expect((await ucp("POST", "/ucp/checkout-sessions", body, { "Idempotency-Key": "dead" })).status).toBe(201);
    const store = new IdempotencyStore(prisma(), () => new Date(Date.now() + 23 * 3600 * 1000));
    const replay = await store.claim({ caller, key: "dead", method: "POST", path: "/ucp/checkout-sessions", body });
    expect(replay.kind).toBe("replay");
  });
});

describe("UCP agent profiles", () => {
  it("fetches the profile: unreachable, redirected, broken or old profiles get the negotiation errors", async () => {
    const create = (agent: string) => ucp("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, { "UCP-Agent": agent });
    expectError(await create(agentAt("/profiles/down.json")), 424, "profile_unreachable");
    expectError(await create(agentAt("/profiles/moved.json")), 424, "profile_unreachable");
    expectError(await create(agentAt("/profiles/missing.json")), 424, "profile_unreachable");
    expectError(await create(agentAt("/profiles/broken.json")), 422, "profile_malformed");
    expectError(await create(agentAt("/profiles/ancient.json")), 422, "version_unsupported");
    expectError(await create('profile="http://127.0.0.1:1/profile.json"'), 424, "profile_unreachable");
  });

  it("bounds the whole fetch and how many run at once: trickling profiles are refused within the 3 s deadline on REST, MCP and search", async () => {
    const agent = (n: number) => agentAt(`/profiles/trickle.json?n=${n}`);
    const viaMcp = (n: number) =>
      sendJson(`${server.url}/ucp/mcp`, "POST", { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18" }, {
        jsonrpc: "2.0", id: n, method: "tools/call",
        params: { name: "get_checkout", arguments: { meta: { "ucp-agent": { profile: new URL(`/profiles/trickle.json?n=${n}`, PROFILE).href } }, id: "chk_0000000000000000" } },
      });
    const started = Date.now();
    // More requests than fetch slots, each naming its own profile URL, so neither the cache nor sharing a fetch helps.
    const requests = Array.from({ length: MAX_PROFILE_FETCHES + 4 }, (_, n) =>
      n % 3 === 0 ? viaMcp(n) : n % 3 === 1 ? ucp("POST", "/ucp/catalog/search", { query: "sol" }, { "UCP-Agent": agent(n) }) : ucp("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, { "UCP-Agent": agent(n) }),
    );
    const replies = await Promise.all(requests);
    expect(Date.now() - started).toBeLessThan(4500);
    replies.forEach((reply, n) => {
      if (n % 3 === 0) expect(reply.body, reply.text).toMatchObject({ error: { code: -32001, data: { code: "profile_unreachable" } } });
      else expectError(reply, 424, "profile_unreachable");
    });
    expect(trickling.most).toBeLessThanOrEqual(MAX_PROFILE_FETCHES);
    // The slots are free again: the next agent's profile is fetched at once.
    expect((await ucp("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, { "UCP-Agent": agentAt("/profiles/shopper.json?after") })).status).toBe(404);
  });

  it("refuses private, loopback and plain-http profile URLs unless local profiles are allowed", async () => {
    const strict = new ProfileFetcher(false, false);
    await expect(strict.get(PROFILE)).rejects.toMatchObject({ code: "invalid_profile_url", status: 400 });
    const refused = ["https://127.0.0.1/p.json", "https://[::1]/p.json", "https://10.0.0.8/p.json", "https://169.254.169.254/latest", "https://[::ffff:192.168.1.1]/p", "https://user:pw@agent.example/p"];
    // The same guard as webhook receivers: IPv4-compatible IPv6, NAT64 of a private address, local names with or without the dot.
    refused.push("https://[::127.0.0.1]/p", "https://[64:ff9b::a00:1]/p", "https://localhost./p", "https://agent.localhost/p");
    for (const url of refused) await expect(strict.get(url), url).rejects.toMatchObject({ code: "invalid_profile_url" });
    expect((await new ProfileFetcher(true, false).get(PROFILE)).name).toBe("Test Shopper");
  });

  it("keeps the order webhook URL a profile names only when the outbound guard allows it (WEBHOOKS_ALLOW_LOCAL off)", async () => {
    const [product] = await plainProducts(server, 1);
    const body = { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER, fulfillment };
    const stored = async (name: string) => {
      const session = valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", body, { "UCP-Agent": agentAt(`/profiles/hook-${name}.json`) }));
      return (await prisma().checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).webhookUrl;
    };
    expect(await stored("public")).toBe(HOOKS.public);
    for (const name of ["loopback", "metadata", "compatible", "localhost", "private"]) expect(await stored(name), name).toBeNull();
  });
});

describe("UCP capability negotiation", () => {
  it("narrows answers to the capabilities both sides declare, and refuses an operation outside them before it runs", async () => {
    const [product] = await plainProducts(server, 1);
    const body = { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER, fulfillment, discounts: { codes: ["NOPE"] } };
    const only = { "UCP-Agent": agentAt("/profiles/checkout-only.json") };
    const made = await ucp("POST", "/ucp/checkout-sessions", body, only);
    expect(made.status).toBe(201);
    const narrowed = valid(checkoutResponse, made);
    expect(Object.keys(narrowed.ucp.capabilities ?? {})).toEqual(["dev.ucp.shopping.checkout"]);
    expect(made.body).not.toHaveProperty("fulfillment");
    expect(made.body).not.toHaveProperty("discounts");
    // The whole set for an agent that declares it; orders and the catalog are outside what checkout-only declares.
    expect(Object.keys(valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", body)).ucp.capabilities ?? {})).toEqual(
      expect.arrayContaining(["dev.ucp.shopping.checkout", "dev.ucp.shopping.fulfillment", "dev.ucp.shopping.discount"]),
    );
    for (const [method, path, sent] of [["GET", "/ucp/orders/ord_x", undefined], ["POST", "/ucp/catalog/search", { query: "kaffe" }]] as const) {
      const refused = await ucp(method, path, sent, only);
      expect(refused.status).toBe(200);
      expect(valid(errorResponse, refused)).toMatchObject({ ucp: { status: "error", capabilities: {} }, messages: [{ code: "capabilities_incompatible", severity: "unrecoverable" }], continue_url: "https://shop.example.dk" });
    }
    // No checkout at a shared version: extensions of it are orphans, and nothing is created.
    const before = await prisma().checkoutSession.count();
    const orphan = await ucp("POST", "/ucp/checkout-sessions", body, { "UCP-Agent": agentAt("/profiles/orphans.json") });
    expect(valid(errorResponse, orphan).messages[0]!.code).toBe("capabilities_incompatible");
    expect(await prisma().checkoutSession.count()).toBe(before);
    // Over MCP the same outcome is a result.
    const mcp = await sendJson(`${server.url}/ucp/mcp`, "POST", { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18" }, {
      jsonrpc: "2.0", id: 1, method: "tools/call",
      params: { name: "create_checkout", arguments: { meta: { "ucp-agent": { profile: new URL("/profiles/orphans.json", PROFILE).href } }, checkout: body } },
    });
    expect(mcp.body).toMatchObject({ result: { structuredContent: { messages: [{ code: "capabilities_incompatible" }] } } });
  });
});

describe("UCP negotiation and hostile input", () => {
  it("refuses an unsupported version with version_unsupported (422)", async () => {
    expectError(await ucp("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, { "UCP-Agent": `${AGENT}, version="2024-01-01"` }), 422, "version_unsupported");
    expect((await ucp("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, { "UCP-Agent": `${AGENT}, version="2026-04-08"` })).status).toBe(404);
  });

  it("answers malformed headers, bodies and paths with the protocol's error, never a 500", async () => {
    const [product] = await plainProducts(server, 1);
    const line = { item: { id: product!.id }, quantity: 1 };
    for (const agent of ['profile=https://x', 'profile="ftp://x/y"', 'profile="not a url"', "profile=\"https://a\", ,", 'PROFILE="https://a"', 'profile="https://a"; =']) {
      expectError(await ucp("POST", "/ucp/checkout-sessions", { line_items: [line] }, { "UCP-Agent": agent }), 400, "invalid_profile_url");
    }
    expectError(await ucp("POST", "/ucp/checkout-sessions", "{not json"), 400, "invalid_json");
    expectError(await ucp("POST", "/ucp/checkout-sessions", "[1,2]"), 400, "invalid_request");
    expectError(await ucp("POST", "/ucp/checkout-sessions", { line_items: [] }), 400, "invalid_request");
    expectError(await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ ...line, quantity: -1 }] }), 400, "invalid_request");
    expectError(await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: "a\u0000b" }, quantity: 1 }] }), 400, "invalid_input");
    // The door's reading judges an e-mail as the core does (what the MCP binding's schema advertises).
    expectError(await ucp("POST", "/ucp/checkout-sessions", { line_items: [line], buyer: { email: "\ud800@x.dk" } }), 400, "invalid_request");
    expectError(await ucp("POST", "/ucp/checkout-sessions", { line_items: [line], padding: "x".repeat(300_000) }), 413, "payload_too_large");
    expectError(await ucp("PUT", "/ucp/checkout-sessions/%E0%A4%A", { line_items: [line] }), 400, "bad_request");
    expectError(await ucp("GET", "/ucp/checkout-sessions/chk_" + "z".repeat(300)), 400, "invalid_input");
    expectError(await ucp("DELETE", "/ucp/checkout-sessions/x"), 404, "not_found");
    expectError(await ucp("POST", `/ucp/checkout-sessions/chk_0000000000000000/complete`, { payment: { instruments: [] } }), 400, "invalid_request");
  });
});

describe("UCP racing completions", () => {
  it("50 completions racing for 10 units give exactly 10 orders", { timeout: 120_000 }, async () => {
    const [product] = await plainProducts(server, 1);
    await prisma().product.update({ where: { id: product!.id }, data: { stock: 10 } });
    const sessions: string[] = [];
    for (let i = 0; i < 50; i++) sessions.push((await newCheckout(product!.id)).id);
    const replies = await Promise.all(sessions.map((id) => ucp("POST", `/ucp/checkout-sessions/${id}/complete`, pay("success_token"))));
    const bodies = replies.map((reply) => valid(checkoutResponse, reply));
    expect(bodies.filter((body) => body.status === "completed")).toHaveLength(10);
    for (const body of bodies.filter((candidate) => candidate.status !== "completed")) expect(body.messages![0]!.code).toBe("out_of_stock");
    expect(await prisma().checkoutSession.count({ where: { id: { in: sessions }, orderId: { not: null } } })).toBe(10);
    expect((await prisma().product.findUniqueOrThrow({ where: { id: product!.id } })).stock).toBe(0n);
    expect(await prisma().checkoutSession.count({ where: { id: { in: sessions }, status: "completed" } })).toBe(10);
  });
});
