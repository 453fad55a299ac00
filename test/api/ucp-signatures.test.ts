// Signed agent requests at the UCP door through real HTTP (RFC 9421 + RFC 9530, keys from the agent profile's
// signing_keys): verified on REST and MCP with ES256 and ES384, each signature error with its status and code, and the
// shop's agent access (open, signed, key). The signer here is the test's own few lines, independent of the shop's code.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutResponse, errorResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { SIGNATURE_SKEW_SECONDS } from "../../src/api/ucp/request-signatures.ts";
import { valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { shoppingCapabilities } from "../support/ucp-profile.ts";

const p256 = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
const p384 = crypto.generateKeyPairSync("ec", { namedCurve: "P-384" });
const stranger = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
const jwk = (pair: crypto.KeyPairKeyObjectResult, kid: string) => ({ ...pair.publicKey.export({ format: "jwk" }), kid, use: "sig" });

let profiles: http.Server;
let PROFILE: string;
beforeAll(async () => {
  profiles = http.createServer((_req, res) =>
    res.end(JSON.stringify({ name: "Signing Agent", ucp: { version: "2026-04-08", capabilities: shoppingCapabilities() }, signing_keys: [jwk(p256, "agent-p256"), jwk(p384, "agent-p384"), { kid: "junk", kty: "OKP" }] })),
  );
  await new Promise<void>((resolve) => profiles.listen(0, "127.0.0.1", resolve));
  PROFILE = `http://127.0.0.1:${(profiles.address() as AddressInfo).port}/agent.json`;
});
afterAll(() => new Promise((resolve) => profiles.close(resolve)));
const { server } = useServer({ config: { ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" } });

interface Signing {
  key?: crypto.KeyObject;
  kid?: string;
  hash?: string;
  /** Covered components (default: what UCP requires for the request). */
  components?: string[];
  /** Change the body after signing. */
  tamper?: (body: string) => string;
  /** The `created` parameter in seconds (default: now); null leaves it out. */
  created?: number | null;
  /** An `expires` parameter in seconds. */
  expires?: number;
  /** Send this Content-Digest (and sign it) instead of the body's. */
  digest?: string;
}

/** Sends a request signed as UCP describes: Content-Digest of the raw body, RFC 9421 base, ECDSA r‖s. */
async function signed(method: string, path: string, body: unknown, signing: Signing | null, extra: Record<string, string> = {}): Promise<Reply> {
  const url = new URL(`${server.url}${path}`);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { "ucp-agent": `profile="${PROFILE}"`, ...extra };
  if (text !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-digest"] = signing?.digest ?? `sha-256=:${crypto.createHash("sha256").update(text).digest("base64")}:`;
  }
  if (signing) {
    const components = signing.components ?? ["@method", "@authority", "@path", "ucp-agent", ...(headers["idempotency-key"] ? ["idempotency-key"] : []), ...(text ? ["content-digest", "content-type"] : [])];
    const created = signing.created === undefined ? Math.floor(Date.now() / 1000) : signing.created;
    const times = `${created === null ? "" : `;created=${created}`}${signing.expires === undefined ? "" : `;expires=${signing.expires}`}`;
    const params = `(${components.map((name) => `"${name}"`).join(" ")})${times};keyid="${signing.kid ?? "agent-p256"}"`;
    const value = (name: string) => (name === "@method" ? method : name === "@authority" ? url.host : name === "@path" ? url.pathname : headers[name]!);
    const base = [...components.map((name) => `"${name}": ${value(name)}`), `"@signature-params": ${params}`].join("\n");
    const signature = crypto.sign(signing.hash ?? "sha256", Buffer.from(base), { key: signing.key ?? p256.privateKey, dsaEncoding: "ieee-p1363" });
    headers["signature-input"] = `sig1=${params}`;
    headers.signature = `sig1=:${signature.toString("base64")}:`;
  }
  const sent = text !== undefined && signing?.tamper ? signing.tamper(text) : text;
  const response = await fetch(url, { method, headers, ...(sent !== undefined ? { body: sent } : {}) });
  const answer = await response.text();
  return { status: response.status, headers: response.headers, text: answer, body: answer ? (JSON.parse(answer) as unknown) : undefined } as Reply;
}

function expectError(reply: Reply, status: number, code: string): void {
  if (reply.status !== status) throw new Error(`expected ${status} ${code}, got ${reply.status}: ${reply.text}`);
  expect(valid(errorResponse, reply).messages[0]!.code).toBe(code);
}

/** The shop's agent access, set as an owner sets it: settings.update_commerce. */
async function setAccess(agentAccess: "open" | "signed" | "key" | "off"): Promise<void> {
  const answer = await server.call("settings.update_commerce", { agentAccess }, { key: await server.key("settings:write") });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

let itemId: string;
beforeAll(async () => {
  itemId = (await plainProducts(server, 5))[0]!.id;
});
const create = () => ({ line_items: [{ item: { id: itemId }, quantity: 1 }] });

/** Verifies a signed response with the shop's published keys, rebuilding the RFC 9421 base by hand; returns the kid. */
async function verifyResponse(reply: Reply): Promise<string> {
  const keys = ((await (await fetch(`${server.url}/.well-known/ucp`)).json()) as { signing_keys: Array<crypto.JsonWebKey & { kid: string }> }).signing_keys;
  const header = (name: string) => reply.headers.get(name) ?? "";
  expect(header("content-digest")).toBe(`sha-256=:${crypto.createHash("sha256").update(reply.text).digest("base64")}:`);
  const params = /^sig1=(.+)$/.exec(header("signature-input"))![1]!;
  expect(params).toMatch(/^\("@status" "content-digest" "content-type"\);created=\d+;keyid="[^"]+"$/);
  const kid = /keyid="([^"]+)"/.exec(params)![1]!;
  const base = [`"@status": ${reply.status}`, `"content-digest": ${header("content-digest")}`, `"content-type": ${header("content-type")}`, `"@signature-params": ${params}`].join("\n");
  const signature = Buffer.from(/^sig1=:([^:]+):$/.exec(header("signature"))![1]!, "base64");
  const key = crypto.createPublicKey({ key: keys.find((entry) => entry.kid === kid)!, format: "jwk" });
  expect(crypto.verify("sha256", Buffer.from(base), { key, dsaEncoding: "ieee-p1363" }, signature)).toBe(true);
  return kid;
}

describe("signed UCP responses", () => {
  it("signs 2026-04-08 checkout answers (replays too) with the published key, not errors or 2026-01-11 answers", async () => {
    await setAccess("open");
    const idempotency = { "idempotency-key": crypto.randomUUID() };
    const made = await signed("POST", "/ucp/checkout-sessions", create(), null, idempotency);
    expect(made.status).toBe(201);
    await verifyResponse(made);
    const replay = await signed("POST", "/ucp/checkout-sessions", create(), null, idempotency);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await verifyResponse(replay);
    const missing = await signed("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, null);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("signature")).toBeNull();
    const older = await signed("POST", "/ucp/checkout-sessions", create(), null, { "ucp-agent": `profile="${PROFILE}", version="2026-01-11"` });
    expect(older.status).toBe(201);
    expect(older.headers.get("signature")).toBeNull();
  });
});

describe("agent checkout off", () => {
  it("refuses every checkout and cart with 403 agent_checkout_off on REST and MCP, keys and signatures alike; catalog and orders stay open", async () => {
    const key = await server.key("checkout:agent");
    await setAccess("open");
    const id = valid(checkoutResponse, await signed("POST", "/ucp/checkout-sessions", create(), null)).id;
    await setAccess("off");
    try {
      const sessions = await server.prisma.checkoutSession.count();
      const refusals: Reply[] = [
        await signed("POST", "/ucp/checkout-sessions", create(), null),
        await signed("POST", "/ucp/checkout-sessions", create(), {}),
        await signed("POST", "/ucp/checkout-sessions", create(), null, { authorization: `Bearer ${key}` }),
        await signed("GET", `/ucp/checkout-sessions/${id}`, undefined, null),
        await signed("PUT", `/ucp/checkout-sessions/${id}`, create(), null),
        await signed("POST", `/ucp/checkout-sessions/${id}/complete`, { payment: { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token: "success_token" } }] } }, null),
        await signed("POST", "/ucp/carts", create(), null, { "idempotency-key": crypto.randomUUID() }),
        // Refused before the agent's profile is fetched: an unreachable one is not even tried.
        await signed("POST", "/ucp/checkout-sessions", create(), null, { "ucp-agent": 'profile="http://127.0.0.1:1/agent.json"' }),
      ];
      for (const reply of refusals) expectError(reply, 403, "agent_checkout_off");
      const mcp = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
      const tool = (name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { meta: { "ucp-agent": { profile: PROFILE } }, ...args } } });
      for (const call of [tool("create_checkout", { checkout: create() }), tool("get_checkout", { id }), tool("create_cart", { cart: create() })]) {
        const refused = await signed("POST", "/ucp/mcp", call, null, mcp);
        expect(refused.status, refused.text).toBe(403);
        expect(refused.body).toMatchObject({ error: { code: -32000, data: { code: "agent_checkout_off" } } });
      }
      expect(await server.prisma.checkoutSession.count()).toBe(sessions);
      // Browsing is not buying: the catalog answers on both bindings.
      expect((await signed("POST", "/ucp/catalog/search", { query: "brille" }, null)).status).toBe(200);
      const search = await signed("POST", "/ucp/mcp", tool("search_catalog", { catalog: { query: "brille" } }), null, mcp);
      expect(search.status, search.text).toBe(200);
      expect(search.body).toHaveProperty("result.structuredContent.products");
    } finally {
      await setAccess("open");
    }
    expect((await signed("GET", `/ucp/checkout-sessions/${id}`, undefined, null)).status).toBe(200);
  });
});

describe("signed UCP requests", () => {
  it("verifies ES256 and ES384 signatures on bodies and on GETs; an unsigned request still passes while access is open", async () => {
    await setAccess("open");
    const made = await signed("POST", "/ucp/checkout-sessions", create(), {}, { "idempotency-key": crypto.randomUUID() });
    expect(made.status, made.text).toBe(201);
    const id = valid(checkoutResponse, made).id;
    expect((await signed("GET", `/ucp/checkout-sessions/${id}`, undefined, { kid: "agent-p384", key: p384.privateKey, hash: "sha384" })).status).toBe(200);
    expect((await signed("POST", "/ucp/checkout-sessions", create(), null)).status).toBe(201);
  });

  it("answers each signature error with its status and code, never a 500", async () => {
    await setAccess("open");
    expectError(await signed("POST", "/ucp/checkout-sessions", create(), { tamper: (text) => text.replace('"quantity":1', '"quantity":9') }), 400, "digest_mismatch");
    expectError(await signed("POST", "/ucp/checkout-sessions", create(), { key: stranger.privateKey }), 401, "signature_invalid");
    expectError(await signed("POST", "/ucp/checkout-sessions", create(), { kid: "nobody" }), 401, "key_not_found");
    expectError(await signed("POST", "/ucp/checkout-sessions", create(), { kid: "junk" }), 401, "key_not_found");
    expectError(await signed("POST", "/ucp/checkout-sessions", create(), { components: ["@method", "@authority", "@path", "ucp-agent"] }), 401, "signature_invalid");
    expectError(await signed("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, { kid: "agent-p384" }), 401, "signature_invalid");
    for (const [input, signature] of [["sig1=(", "sig1=:AA==:"], ['sig1=("@method");keyid="agent-p256"', "sig1=nope"], ['sig1=("@method");keyid="agent-p256";alg="rsa-v1_5-sha256"', "sig1=:AA==:"]]) {
      const reply = await signed("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, null, { "signature-input": input!, signature: signature! });
      expect([400, 401], reply.text).toContain(reply.status);
      valid(errorResponse, reply);
    }
  });

  it("refuses a Content-Digest whose sha-256 has the wrong length as digest_mismatch (400), on REST and MCP", async () => {
    await setAccess("open");
    for (const digest of ["sha-256=:AAAA:", `sha-256=:${Buffer.alloc(64).toString("base64")}:`, "sha-256=::"]) {
      expectError(await signed("POST", "/ucp/checkout-sessions", create(), { digest }), 400, "digest_mismatch");
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_checkout", arguments: { meta: { "ucp-agent": { profile: PROFILE } }, checkout: create() } } };
      const mcp = await signed("POST", "/ucp/mcp", call, { digest }, { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" });
      // The binding answers 400-class errors as JSON-RPC invalid params (−32602) in a 200.
      expect(mcp.status, mcp.text).toBe(200);
      expect(mcp.body).toMatchObject({ error: { code: -32602, data: { code: "digest_mismatch" } } });
    }
  });

  it("refuses a signature created more than 5 minutes from the shop's clock, or past its expires (401)", async () => {
    await setAccess("open");
    const now = Math.floor(Date.now() / 1000);
    const years = 2 * 365 * 24 * 3600;
    // Just outside the window: a few seconds' margin, read per request, so a slow run cannot drift
    // "301 s ahead" back inside it before the shop reads its clock.
    const skew = SIGNATURE_SKEW_SECONDS + 10;
    for (const offset of [-years, years, -skew, skew]) {
      const created = Math.floor(Date.now() / 1000) + offset;
      expectError(await signed("POST", "/ucp/checkout-sessions", create(), { created }), 401, "signature_invalid");
    }
    expectError(await signed("GET", "/ucp/checkout-sessions/chk_0000000000000000", undefined, { created: now - years }), 401, "signature_invalid");
    expectError(await signed("POST", "/ucp/checkout-sessions", create(), { created: now - 60, expires: now - 1 }), 401, "signature_invalid");
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_checkout", arguments: { meta: { "ucp-agent": { profile: PROFILE } }, checkout: create() } } };
    const mcp = await signed("POST", "/ucp/mcp", call, { created: now - years }, { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" });
    expect(mcp.status, mcp.text).toBe(401);
    expect(mcp.body).toMatchObject({ error: { code: -32000, data: { code: "signature_invalid" } } });
    // Within the window, with a future expires, or without created (UCP makes it optional): verified.
    for (const signing of [{ created: now - 240 }, { created: now + 240 }, { created: now, expires: now + 60 }, { created: null }]) {
      const made = await signed("POST", "/ucp/checkout-sessions", create(), signing);
      expect(made.status, made.text).toBe(201);
    }
  });

  it("requires a signature from keyless agents when access is signed, and a key when it is key", async () => {
    const key = await server.key("checkout:agent");
    await setAccess("signed");
    expectError(await signed("POST", "/ucp/checkout-sessions", create(), null), 401, "signature_missing");
    expect((await signed("POST", "/ucp/checkout-sessions", create(), {})).status).toBe(201);
    expect((await signed("POST", "/ucp/checkout-sessions", create(), null, { authorization: `Bearer ${key}` })).status).toBe(201);
    await setAccess("key");
    expectError(await signed("POST", "/ucp/checkout-sessions", create(), {}), 401, "unauthorized");
    expect((await signed("POST", "/ucp/checkout-sessions", create(), null, { authorization: `Bearer ${key}` })).status).toBe(201);
    await setAccess("open");
  });

  it("verifies the HTTP request of the MCP binding the same way", async () => {
    await setAccess("signed");
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "create_checkout", arguments: { meta: { "ucp-agent": { profile: PROFILE } }, checkout: create() } } });
    const mcp = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const ok = await signed("POST", "/ucp/mcp", call(1), {}, mcp);
    expect(ok.status, ok.text).toBe(200);
    expect((ok.body as { result: { structuredContent: { status: string } } }).result.structuredContent.status).toBe("incomplete");
    const refused = await signed("POST", "/ucp/mcp", call(2), null, mcp);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: -32000, data: { code: "signature_missing" } } });
    expect((await signed("POST", "/ucp/mcp", call(3), { tamper: (text) => text.replace('"id":3', '"id":4') }, mcp)).body).toMatchObject({ error: { data: { code: "digest_mismatch" } } });
    await setAccess("open");
  });
});
