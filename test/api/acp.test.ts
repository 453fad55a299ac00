// The ACP REST door (2026-04-17) through real HTTP: each endpoint against our zod reading of the version's schemas,
// authentication and scope, API-Version, Idempotency-Key rules (replay, conflict, in flight, scoping), signatures
// (good, bad, stale), lifecycle refusals (405), business outcomes as messages, hostile input, racing completions
// (50 for 10 units).
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoveryDocument } from "../../src/api/acp/discovery.ts";
import { checkoutSession, checkoutSessionWithOrder, errorBody } from "../../src/api/acp/v2026-04-17.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { findActiveKey } from "../../src/tools/keys/key-secrets.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts, variantProduct } from "../support/session.ts";

let receiver: WebhookReceiver;
const SECRET = "platform-signing-secret-0123456789";
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
const { server, keys: { KEY, OTHER, SIGNED } } = useServer({
  config: { ucpTestMode: true, publicBaseUrl: "https://shop.example.dk", webhooksAllowLocal: true },
  keys: { KEY: ["checkout:agent"], OTHER: ["checkout:agent"], SIGNED: ["checkout:agent"] },
});
beforeAll(async () => {
  const id = (await findActiveKey(prisma(), SIGNED))!.id;
  await prisma().apiKey.update({ where: { id }, data: { acpSigningSecret: SECRET, acpWebhookUrl: `${receiver.url}/acp/events` } });
});
const prisma = () => server.prisma;

let counter = 0;
const newKey = () => `idem-${Date.now()}-${++counter}`;

/** One ACP request: Bearer KEY, API-Version and a fresh Idempotency-Key on POST unless the headers say otherwise. */
async function acp(method: string, path: string, body?: unknown, headers: Record<string, string | undefined> = {}): Promise<Reply> {
  const base: Record<string, string | undefined> = { Authorization: `Bearer ${KEY}`, "API-Version": "2026-04-17", "Content-Type": "application/json" };
  if (method === "POST") base["Idempotency-Key"] = newKey();
  const merged = Object.fromEntries(Object.entries({ ...base, ...headers }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return sendJson(`${server.url}${path}`, method, merged, body);
}

/** Our ACP request signature as docs/acp.md publishes it, made here without the shop's code. */
function signature(secret: string, timestamp: string, method: string, path: string, body: unknown): string {
  const canonical = (value: unknown): string =>
    value === null || typeof value !== "object"
      ? JSON.stringify(value)
      : Array.isArray(value)
        ? `[${value.map(canonical).join(",")}]`
        : `{${Object.keys(value).sort().map((name) => `${JSON.stringify(name)}:${canonical((value as Record<string, unknown>)[name])}`).join(",")}}`;
  const payload = `${timestamp}\n${method}\n${path}\n${body === undefined ? "" : canonical(body)}`;
  return crypto.createHmac("sha256", secret).update(payload).digest("base64url");
}

function expectError(reply: Reply, status: number, code: string) {
  if (reply.status !== status) throw new Error(`expected ${status} ${code}, got ${reply.status}: ${reply.text}`);
  const body = valid(errorBody, reply);
  expect(body.code).toBe(code);
  return body;
}

const BUYER = { first_name: "Mette", last_name: "Hansen", email: "acp.buyer@example.dk", phone_number: "+45 12 34 56 78" };
const DETAILS = { name: "Mette Hansen", address: { name: "Mette Hansen", line_one: "Strøget 12", city: "København K", state: "", country: "DK", postal_code: "1160" } };
const pay = (token: string) => ({ payment_data: { handler_id: "mock_payment_handler", instrument: { type: "card", credential: { type: "token", token } } } });

async function newSession(itemId: string, units = 1, extra: Record<string, unknown> = { buyer: BUYER, fulfillment_details: DETAILS }) {
  const reply = await acp("POST", "/acp/checkout_sessions", { line_items: Array.from({ length: units }, () => ({ id: itemId })), currency: "dkk", capabilities: {}, ...extra });
  if (reply.status !== 201) throw new Error(`create answered ${reply.status}: ${reply.text}`);
  return valid(checkoutSession, reply);
}

describe("ACP discovery", () => {
  it("serves /.well-known/acp.json without a key: versions, the REST base URL, services; cacheable", async () => {
    const response = await fetch(`${server.url}/.well-known/acp.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("max-age=3600");
    const body = discoveryDocument.parse(await response.json());
    expect(body.protocol).toMatchObject({ name: "acp", version: "2026-04-17", supported_versions: ["2026-04-17"] });
    expect(body.api_base_url).toBe("https://shop.example.dk/acp");
    expect(body.capabilities.services).toContain("checkout");
  });
});

describe("ACP checkout sessions", () => {
  it("create (201), get, update, complete (order with a permalink that works without a cookie) in the version's shapes", async () => {
    const [product] = await plainProducts(server, 5);
    const created = await acp("POST", "/acp/checkout_sessions", { line_items: [{ id: product!.id }, { id: product!.id }], currency: "dkk", capabilities: {} }, { "Request-Id": "req-create-1" });
    expect(created.status).toBe(201);
    expect(created.headers.get("request-id")).toBe("req-create-1");
    expect(created.headers.get("idempotency-key")).toMatch(/^idem-/);
    const session = valid(checkoutSession, created);
    expect(session.status).toBe("not_ready_for_payment");
    expect(session.currency).toBe("dkk");
    expect(session.line_items).toHaveLength(1);
    expect(session.line_items[0]).toMatchObject({ id: product!.id, item: { id: product!.id }, quantity: 2, unit_amount: product!.priceDkk });
    expect(session.messages.some((message) => message.type === "error" && message.code === "missing" && message.param === "$.buyer.email")).toBe(true);
    expect(session.fulfillment_options.length).toBeGreaterThan(0);
    const total = session.totals.find((entry) => entry.type === "total")!;
    expect(total.display_text).toBeTruthy();

    const got = await acp("GET", `/acp/checkout_sessions/${session.id}`);
    expect(got.status).toBe(200);
    expect(valid(checkoutSession, got).id).toBe(session.id);
    expect(got.headers.get("idempotency-key")).toBeNull();

    const option = session.fulfillment_options.at(-1)!;
    const updated = await acp("POST", `/acp/checkout_sessions/${session.id}`, {
      buyer: BUYER,
      fulfillment_details: DETAILS,
      selected_fulfillment_options: [{ type: "shipping", option_id: option.id, item_ids: [product!.id] }],
    });
    expect(updated.status).toBe(200);
    const ready = valid(checkoutSession, updated);
    expect(ready.status).toBe("ready_for_payment");
    expect(ready.selected_fulfillment_options![0]!.option_id).toBe(option.id);
    expect(ready.buyer).toMatchObject({ email: BUYER.email, first_name: "Mette" });
    expect(ready.fulfillment_details!.address).toMatchObject({ line_one: "Strøget 12", postal_code: "1160", country: "DK" });

    const completed = await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, pay("success_token"));
    expect(completed.status).toBe(200);
    const done = valid(checkoutSessionWithOrder, completed);
    expect(done.status).toBe("completed");
    expect(done.order.checkout_session_id).toBe(session.id);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: done.order.id } });
    expect(order).toMatchObject({ acpSessionId: session.id, channel: "acp", status: "paid" });
    // The permalink opens the order's page without any cookie.
    const permalink = new URL(done.order.permalink_url);
    expect(permalink.origin).toBe("https://shop.example.dk");
    const page = await fetch(`${server.url}${permalink.pathname}${permalink.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`#${order.number}`);
  });

  it("names variants by their own id, and refuses unknown items with a flat 400 pointing at the item", async () => {
    const product = await variantProduct(server);
    const variant = product.variants.find((candidate) => candidate.stock > 0n)!;
    const session = await newSession(variant.id);
    expect(session.line_items[0]).toMatchObject({ id: variant.id, variant_id: variant.id, product_id: product.id });
    expectError(await acp("POST", "/acp/checkout_sessions", { line_items: [{ id: "nope" }], currency: "dkk", capabilities: {} }), 400, "item_unavailable");
    const bare = await acp("POST", "/acp/checkout_sessions", { line_items: [{ id: product.id }], currency: "dkk", capabilities: {} });
    expect(expectError(bare, 400, "variant_required").param).toBe("$.line_items[0].id");
  });

  it("answers 404 for unknown sessions and for another key's session", async () => {
    const [product] = await plainProducts(server, 1);
    const session = await newSession(product!.id);
    expectError(await acp("GET", "/acp/checkout_sessions/chk_00000000000000000000000000000000"), 404, "not_found");
    expectError(await acp("GET", "/acp/checkout_sessions/not-an-id"), 404, "not_found");
    expectError(await acp("GET", `/acp/checkout_sessions/${session.id}`, undefined, { Authorization: `Bearer ${OTHER}` }), 404, "not_found");
  });

  it("cancels (200), then 405 for cancel again and after completion; updates after that are refused", async () => {
    const [product] = await plainProducts(server, 2);
    const open = await newSession(product!.id);
    const canceled = await acp("POST", `/acp/checkout_sessions/${open.id}/cancel`, { intent_trace: { reason_code: "shipping_cost", trace_summary: "too expensive" } });
    expect(canceled.status).toBe(200);
    expect(valid(checkoutSession, canceled).status).toBe("canceled");
    const again = await acp("POST", `/acp/checkout_sessions/${open.id}/cancel`);
    expectError(again, 405, "not_cancelable");
    expect(again.headers.get("allow")).toBe("GET");
    expectError(await acp("POST", `/acp/checkout_sessions/${open.id}`, { buyer: BUYER }), 409, "checkout_not_modifiable");

    const paid = await newSession(product!.id);
    expect((await acp("POST", `/acp/checkout_sessions/${paid.id}/complete`, pay("success_token"))).status).toBe(200);
    expectError(await acp("POST", `/acp/checkout_sessions/${paid.id}/cancel`, {}), 405, "not_cancelable");
    expectError(await acp("POST", `/acp/checkout_sessions/${open.id}/cancel`, { intent_trace: { reason_code: "bored" } }), 400, "invalid");
  });

  it("reports business outcomes as messages: payment_declined and out_of_stock keep the session open", async () => {
    const [product] = await plainProducts(server, 3);
    const session = await newSession(product!.id);
    const declined = await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, pay("fail_token"));
    expect(declined.status).toBe(200);
    const body = valid(checkoutSession, declined);
    expect(body.status).toBe("ready_for_payment");
    expect(body.messages[0]).toMatchObject({ type: "error", code: "payment_declined" });
    expect(await prisma().order.count({ where: { acpSessionId: session.id } })).toBe(0);

    await prisma().product.update({ where: { id: product!.id }, data: { stock: 0 } });
    const soldOut = await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, pay("success_token"));
    expect(soldOut.status).toBe(200);
    expect(valid(checkoutSession, soldOut).messages[0]).toMatchObject({ type: "error", code: "out_of_stock" });
    await prisma().product.update({ where: { id: product!.id }, data: { stock: BigInt(product!.stock) } });
  });
});

describe("ACP headers and trust", () => {
  it("needs a Bearer key (401) with the checkout:agent scope (403)", async () => {
    const reader = await server.key("catalog:read");
    const body = { line_items: [{ id: "x" }], currency: "dkk", capabilities: {} };
    const none = await acp("POST", "/acp/checkout_sessions", body, { Authorization: undefined });
    expectError(none, 401, "unauthorized");
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expectError(await acp("POST", "/acp/checkout_sessions", body, { Authorization: "Bearer shop_nope_nope" }), 401, "unauthorized");
    expectError(await acp("GET", "/acp/checkout_sessions/chk_00000000000000000000000000000000", undefined, { Authorization: `Bearer ${reader}` }), 403, "forbidden");
  });

  it("needs a supported API-Version (400 with supported_versions)", async () => {
    const missing = expectError(await acp("GET", "/acp/checkout_sessions/chk_00000000000000000000000000000000", undefined, { "API-Version": undefined }), 400, "missing_api_version");
    expect(missing.supported_versions).toEqual(["2026-04-17"]);
    const old = expectError(await acp("POST", "/acp/checkout_sessions", {}, { "API-Version": "2025-09-29" }), 400, "unsupported_api_version");
    expect(old.supported_versions).toEqual(["2026-04-17"]);
  });

  it("needs an Idempotency-Key on every POST; replays, conflicts and scopes it per caller and path", async () => {
    const [product] = await plainProducts(server, 1);
    const body = { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} };
    const missing = expectError(await acp("POST", "/acp/checkout_sessions", body, { "Idempotency-Key": undefined }), 400, "idempotency_key_required");
    expect(missing.type).toBe("invalid_request");
    for (const path of ["/acp/checkout_sessions/chk_00000000000000000000000000000000", "/acp/checkout_sessions/chk_00000000000000000000000000000000/complete", "/acp/checkout_sessions/chk_00000000000000000000000000000000/cancel"]) {
      expectError(await acp("POST", path, {}, { "Idempotency-Key": undefined }), 400, "idempotency_key_required");
    }

    const key = newKey();
    const first = await acp("POST", "/acp/checkout_sessions", body, { "Idempotency-Key": key });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotency-key")).toBe(key);
    const again = await acp("POST", "/acp/checkout_sessions", body, { "Idempotency-Key": key });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("idempotency-key")).toBe(key);
    expect(await prisma().checkoutSession.count({ where: { id: (first.body as { id: string }).id } })).toBe(1);

    const conflict = expectError(await acp("POST", "/acp/checkout_sessions", { ...body, line_items: [{ id: product!.id }, { id: product!.id }] }, { "Idempotency-Key": key }), 422, "idempotency_conflict");
    expect(conflict.type).toBe("invalid_request");
    // Another caller, or another path, with the same key is another key.
    expect((await acp("POST", "/acp/checkout_sessions", body, { "Idempotency-Key": key, Authorization: `Bearer ${OTHER}` })).status).toBe(201);
    const id = (first.body as { id: string }).id;
    expect((await acp("POST", `/acp/checkout_sessions/${id}`, { buyer: BUYER }, { "Idempotency-Key": key })).status).toBe(200);
  });

  it("treats key order and number spelling as the same body", async () => {
    const [product] = await plainProducts(server, 1);
    const key = newKey();
    const first = await acp("POST", "/acp/checkout_sessions", `{"line_items":[{"id":${JSON.stringify(product!.id)},"quantity":1}],"currency":"dkk","capabilities":{}}`, { "Idempotency-Key": key });
    expect(first.status).toBe(201);
    const replay = await acp("POST", "/acp/checkout_sessions", `{"capabilities":{},"currency":"dkk","line_items":[{"quantity":1.0,"id":${JSON.stringify(product!.id)}}]}`, { "Idempotency-Key": key });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
  });

  it("answers 409 idempotency_in_flight with Retry-After while the first request runs", async () => {
    const id = (await findActiveKey(prisma(), KEY))!.id;
    const path = "/acp/checkout_sessions";
    await prisma().idempotencyRecord.create({ data: { caller: `acp:key:${id}:${path}`, key: "in-flight", method: "POST", path, requestHash: "x" } });
    const reply = await acp("POST", path, { line_items: [{ id: "x" }], currency: "dkk", capabilities: {} }, { "Idempotency-Key": "in-flight" });
    // Another body under an unfinished claim is a conflict; the in-flight answer needs the same body: use its hash.
    expect([409, 422]).toContain(reply.status);
    const { requestHash } = await import("../../src/http/idempotency.ts");
    const body = { line_items: [{ id: "x" }], currency: "dkk", capabilities: {} };
    await prisma().idempotencyRecord.updateMany({ where: { key: "in-flight" }, data: { requestHash: requestHash({ caller: "", key: "", method: "POST", path, body }, true) } });
    const inFlight = await acp("POST", path, body, { "Idempotency-Key": "in-flight" });
    expectError(inFlight, 409, "idempotency_in_flight");
    expect(inFlight.headers.get("retry-after")).toBeTruthy();
  });

  it("verifies Signature + Timestamp for a key with a signing secret: good passes, bad, missing and stale are refused", async () => {
    const [product] = await plainProducts(server, 1);
    const body = { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} };
    const path = "/acp/checkout_sessions";
    const signed = (timestamp: string, payload: unknown, method = "POST", at = path) => ({ Authorization: `Bearer ${SIGNED}`, Timestamp: timestamp, Signature: signature(SECRET, timestamp, method, at, payload) });
    const now = new Date().toISOString();
    const good = await acp("POST", path, body, signed(now, body));
    expect(good.status).toBe(201);
    const id = (good.body as { id: string }).id;
    // A GET signs the empty body.
    expect((await acp("GET", `${path}/${id}`, undefined, signed(now, undefined, "GET", `${path}/${id}`))).status).toBe(200);
    expectError(await acp("POST", path, body, { ...signed(now, body), Signature: signature("another-secret-0123456789", now, "POST", path, body) }), 401, "signature_invalid");
    expectError(await acp("POST", path, { ...body, currency: "eur" }, signed(now, body)), 401, "signature_invalid");
    expectError(await acp("POST", path, body, { Authorization: `Bearer ${SIGNED}` }), 401, "signature_missing");
    expectError(await acp("POST", path, body, signed(new Date(Date.now() - 600_000).toISOString(), body)), 401, "timestamp_stale");
    expectError(await acp("POST", path, body, signed("yesterday", body)), 401, "timestamp_invalid");
    // A key without a secret needs no signature.
    expect((await acp("POST", path, body)).status).toBe(201);
  });

  it("binds a signature to its method and path: a signed cancel of one session, replayed, cancels no other", async () => {
    const [product] = await plainProducts(server, 1);
    const body = { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} };
    const now = new Date().toISOString();
    const headers = (method: string, path: string, payload: unknown) => ({ Authorization: `Bearer ${SIGNED}`, Timestamp: now, Signature: signature(SECRET, now, method, path, payload) });
    const create = (): Promise<string> =>
      acp("POST", "/acp/checkout_sessions", body, headers("POST", "/acp/checkout_sessions", body)).then((reply) => valid(checkoutSession, reply).id);
    const [a, b] = [await create(), await create()];
    const cancel = { intent_trace: { reason_code: "price_sensitivity" } };
    const cancelA = headers("POST", `/acp/checkout_sessions/${a}/cancel`, cancel);
    expectError(await acp("POST", `/acp/checkout_sessions/${b}/cancel`, cancel, cancelA), 401, "signature_invalid");
    expectError(await acp("POST", `/acp/checkout_sessions/${a}`, cancel, cancelA), 401, "signature_invalid");
    // The same signed content under another method: a GET of A signed with A's cancel signature.
    expectError(await acp("GET", `/acp/checkout_sessions/${a}`, undefined, headers("POST", `/acp/checkout_sessions/${a}`, undefined)), 401, "signature_invalid");
    const sessionB = await acp("GET", `/acp/checkout_sessions/${b}`, undefined, headers("GET", `/acp/checkout_sessions/${b}`, undefined));
    expect(valid(checkoutSession, sessionB).status).not.toBe("canceled");
    expect(valid(checkoutSession, await acp("POST", `/acp/checkout_sessions/${a}/cancel`, cancel, cancelA)).status).toBe("canceled");
  });
});

describe("ACP with agent checkout off", () => {
  it("refuses every operation with 403 agent_checkout_off, signed or not, and keeps no idempotent answer of it", async () => {
    const [product] = await plainProducts(server, 1);
    const session = await newSession(product!.id);
    const settings = await server.key("settings:write");
    const access = (agentAccess: string) => server.call("settings.update_commerce", { agentAccess }, { key: settings });
    const body = { line_items: [{ id: product!.id }], currency: "dkk", capabilities: {} };
    const retried = { "Idempotency-Key": newKey() };
    expect((await access("off")).status).toBe(200);
    try {
      const sessions = await prisma().checkoutSession.count();
      const now = new Date().toISOString();
      const signedCreate = { Authorization: `Bearer ${SIGNED}`, Timestamp: now, Signature: signature(SECRET, now, "POST", "/acp/checkout_sessions", body) };
      const replies = [
        await acp("POST", "/acp/checkout_sessions", body, retried),
        await acp("POST", "/acp/checkout_sessions", body, signedCreate),
        await acp("GET", `/acp/checkout_sessions/${session.id}`),
        await acp("POST", `/acp/checkout_sessions/${session.id}`, { buyer: BUYER }),
        await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, pay("success_token")),
        await acp("POST", `/acp/checkout_sessions/${session.id}/cancel`, {}),
      ];
      for (const reply of replies) expect(expectError(reply, 403, "agent_checkout_off").type).toBe("invalid_request");
      expect(await prisma().checkoutSession.count()).toBe(sessions);
      // Authentication still comes first.
      expectError(await acp("GET", `/acp/checkout_sessions/${session.id}`, undefined, { Authorization: undefined }), 401, "unauthorized");
    } finally {
      expect((await access("open")).status).toBe(200);
    }
    // The refused request was not stored under its key: the same request now creates a session.
    expect((await acp("POST", "/acp/checkout_sessions", body, retried)).status).toBe(201);
  });
});

describe("ACP hostile input", () => {
  it("answers bad input with the flat error, never a 500, and writes nothing", async () => {
    const [product] = await plainProducts(server, 1);
    const before = await prisma().checkoutSession.count();
    const cases: Array<[unknown, string?]> = [
      ["{not json"],
      ["[1,2]"],
      ['"text"'],
      [{}],
      [{ line_items: [], currency: "dkk", capabilities: {} }],
      [{ line_items: [{ id: product!.id }], capabilities: {} }],
      [{ line_items: [{ id: product!.id }], currency: "dkk" }],
      [{ line_items: [{ id: product!.id, quantity: -1 }], currency: "dkk", capabilities: {} }],
      [{ line_items: [{ id: product!.id }], currency: "dkk", capabilities: {}, surprise: true }],
      [{ line_items: Array.from({ length: 5000 }, (_, index) => ({ id: `p${index}` })), currency: "dkk", capabilities: {} }],
      [{ line_items: [{ id: "a\u0000b" }], currency: "dkk", capabilities: {} }],
      [`{"line_items":[{"id":"\\ud800"}],"currency":"dkk","capabilities":{}}`],
      [{ line_items: [{ id: product!.id }], currency: "dkk", capabilities: {}, buyer: { email: "not-an-email" } }],
      [{ line_items: [{ id: product!.id }], currency: "dkk", capabilities: {}, fulfillment_details: { address: { line_one: "x" } } }],
    ];
    for (const [body] of cases) {
      const reply = await acp("POST", "/acp/checkout_sessions", body);
      expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
      expect(reply.status, reply.text).toBeLessThan(500);
      valid(errorBody, reply);
    }
    expect(await prisma().checkoutSession.count()).toBe(before);
    const session = await newSession(product!.id);
    for (const body of [{}, { payment_data: {} }, { payment_data: { handler_id: "x" } }, { payment_data: { handler_id: "nope", instrument: { type: "card", credential: { type: "t", token: "t" } } } }]) {
      const reply = await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, body);
      expect(reply.status, reply.text).toBe(400);
      valid(errorBody, reply);
    }
    expect(await prisma().order.count({ where: { acpSessionId: session.id } })).toBe(0);
    expectError(await acp("GET", "/acp/nothing-here"), 404, "not_found");
    const huge = await acp("POST", "/acp/checkout_sessions", JSON.stringify({ line_items: [{ id: "x".repeat(300_000) }], currency: "dkk", capabilities: {} }), { "Idempotency-Key": "huge-1" });
    expect(huge.status).toBe(413);
    valid(errorBody, huge);
    expect(huge.headers.get("idempotency-key")).toBe("huge-1");
    const broken = await acp("POST", "/acp/checkout_sessions", "{not json", { "Idempotency-Key": "broken-1" });
    expect(broken.status).toBe(400);
    expect(broken.headers.get("idempotency-key")).toBe("broken-1");
  });
});

describe("ACP racing completions", () => {
  it("50 completions racing for 10 units give exactly 10 orders", { timeout: 240_000 }, async () => {
    const [product] = await plainProducts(server, 1);
    await prisma().product.update({ where: { id: product!.id }, data: { stock: 10 } });
    const sessions = [];
    for (let index = 0; index < 50; index++) sessions.push(await newSession(product!.id));
    const replies = await Promise.all(sessions.map((session) => acp("POST", `/acp/checkout_sessions/${session.id}/complete`, pay("success_token"))));
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    const bodies = replies.map((reply) => valid(checkoutSession, reply));
    expect(bodies.filter((body) => body.status === "completed")).toHaveLength(10);
    for (const body of bodies.filter((candidate) => candidate.status !== "completed")) expect(body.messages[0]).toMatchObject({ type: "error", code: "out_of_stock" });
    expect(await prisma().order.count({ where: { acpSessionId: { in: sessions.map((session) => session.id) } } })).toBe(10);
    expect((await prisma().product.findUniqueOrThrow({ where: { id: product!.id } })).stock).toBe(0n);
  });
});
