// The AP2 Mandates extension of UCP 2026-04-08 through the real HTTP door (REST and MCP): the capability in discovery,
// merchant_authorization on every checkout while AP2 is negotiated (verified here with only the published JWK and our
// own few lines of JCS), completion with the buyer's checkout mandate (an SD-JWT + KB-JWT made here with jose), each
// error code as a message on the session with nothing ordered, and agents that do not negotiate AP2 as before.
import crypto from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutWithAp2 } from "../../src/api/ucp/ap2.ts";
import { checkoutResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { type ProfileServer, serveProfiles, shoppingCapabilities } from "../support/ucp-profile.ts";

const AP2 = "dev.ucp.shopping.ap2_mandate";
const SHOP = "https://shop.example.dk";
const platform = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
const holder = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
const stranger = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
const publicJwk = (pair: crypto.KeyPairKeyObjectResult) => pair.publicKey.export({ format: "jwk" });

const withAp2 = { ...shoppingCapabilities(), [AP2]: [{ version: "2026-04-08" }] };
const PROFILES: Record<string, unknown> = {
  "/ap2.json": { name: "AP2 Agent", ucp: { version: "2026-04-08", capabilities: withAp2 }, signing_keys: [{ ...publicJwk(platform), kid: "platform-1", use: "sig" }] },
  "/keyless.json": { name: "Keyless AP2 Agent", ucp: { version: "2026-04-08", capabilities: withAp2 } },
  "/plain.json": { name: "Plain Agent", ucp: { version: "2026-04-08", capabilities: shoppingCapabilities() }, signing_keys: [{ ...publicJwk(platform), kid: "platform-1" }] },
  "/old.json": { ucp: { version: "2026-01-11" } },
  // 2026-08-25: capabilities at that version, the key in keys[] (a JWK set).
  "/ap2-0825.json": {
    name: "AP2 Agent 0825",
    ucp: { version: "2026-08-25", capabilities: Object.fromEntries(["checkout", "fulfillment", "discount", "buyer_consent", "order", "ap2_mandate"].map((name) => [`dev.ucp.shopping.${name}`, [{ version: "2026-08-25" }]])) },
    keys: [{ ...publicJwk(platform), kid: "platform-1", use: "sig" }],
  },
};

let profiles: ProfileServer;
let base: string;
beforeAll(async () => {
  profiles = await serveProfiles(PROFILES);
  base = profiles.base;
});
afterAll(() => profiles.close());
const { server } = useServer({ config: { ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: SHOP } });
const prisma = () => server.prisma;

let itemId: string;
beforeAll(async () => {
  itemId = (await plainProducts(server, 20))[0]!.id;
});

type Checkout = Record<string, unknown> & { id: string; status: string; ap2?: { merchant_authorization: string }; messages?: Array<{ code: string; severity?: string }> };
const BUYER = { email: "ap2.buyer@example.dk", first_name: "Mette", last_name: "Hansen" };
const DESTINATION = { id: "addr_1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const session = (quantity = 1) => ({ line_items: [{ item: { id: itemId }, quantity }], buyer: BUYER, fulfillment: { methods: [{ type: "shipping", destinations: [DESTINATION], selected_destination_id: "addr_1" }] } });
const payment = { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token: "success_token" } }] };

const ucp = (method: string, path: string, profile: string, body?: unknown, version?: string): Promise<Reply> =>
  sendJson(`${server.url}/ucp${path}`, method, { "content-type": "application/json", "ucp-agent": `profile="${base}/${profile}.json"${version ? `, version="${version}"` : ""}` }, body);

async function created(profile = "ap2", quantity = 1): Promise<Checkout> {
  const reply = await ucp("POST", "/checkout-sessions", profile, session(quantity));
  expect(reply.status, reply.text).toBe(201);
  return reply.body as Checkout;
}

// ---------- the agent's side, independent of the shop's code ----------

/** RFC 8785 for the JSON here (strings, integers, booleans, null): members sorted by UTF-16 code units, no whitespace. */
function jcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jcs).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${jcs(member)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The platform's check of merchant_authorization, as the spec's pseudo-code does it, with the published JWK only. */
async function merchantSigned(checkout: Checkout): Promise<boolean> {
  const keys = ((await (await fetch(`${server.url}/.well-known/ucp`)).json()) as { signing_keys: Array<crypto.JsonWebKey & { kid: string }> }).signing_keys;
  const [header, empty, signature] = checkout.ap2!.merchant_authorization.split(".");
  expect(empty).toBe("");
  const { alg, kid } = JSON.parse(Buffer.from(header!, "base64url").toString()) as { alg: string; kid: string };
  expect(alg).toBe("ES256");
  const { ap2: _ap2, ...payload } = checkout;
  const input = `${header}.${Buffer.from(jcs(payload)).toString("base64url")}`;
  const jwk = keys.find((entry) => entry.kid === kid);
  if (!jwk) return false;
  return crypto.verify("sha256", Buffer.from(input), { key: crypto.createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url"));
}

interface MandateOptions {
  signer?: crypto.KeyObject;
  kid?: string;
  exp?: number;
  audience?: string;
  kbIat?: number;
  /** Change the presented SD-JWT after the KB-JWT signed its hash: another disclosure, or none. */
  swapDisclosure?: string;
  dropDisclosure?: boolean;
}

const sha = (text: string) => crypto.createHash("sha256").update(text).digest("base64url");
const now = () => Math.floor(Date.now() / 1000);
const disclosureOf = (name: string, value: unknown) => Buffer.from(JSON.stringify([crypto.randomBytes(16).toString("base64url"), name, value])).toString("base64url");

/** A checkout mandate: SD-JWT (the checkout as a disclosure) signed by the platform key, with a KB-JWT by the holder. */
async function mandate(checkout: unknown, options: MandateOptions = {}): Promise<string> {
  const disclosure = disclosureOf("checkout", checkout);
  const jwt = await new SignJWT({ vct: "mandate.checkout.1", _sd: [sha(disclosure)], _sd_alg: "sha-256", cnf: { jwk: publicJwk(holder) }, iat: now(), exp: options.exp ?? now() + 600 })
    .setProtectedHeader({ alg: "ES256", typ: "dc+sd-jwt", kid: options.kid ?? "platform-1" })
    .sign(options.signer ?? platform.privateKey);
  const presented = `${jwt}~${disclosure}~`;
  const kb = await new SignJWT({ nonce: crypto.randomUUID(), aud: options.audience ?? SHOP, iat: options.kbIat ?? now(), sd_hash: sha(presented) })
    .setProtectedHeader({ alg: "ES256", typ: "kb+jwt" })
    .sign(holder.privateKey);
  const shown = options.dropDisclosure ? `${jwt}~` : options.swapDisclosure ? `${jwt}~${options.swapDisclosure}~` : presented;
  return `${shown}${kb}`;
}

const complete = (id: string, profile: string, ap2?: unknown) => ucp("POST", `/checkout-sessions/${id}/complete`, profile, { payment, ...(ap2 === undefined ? {} : { ap2 }) });

/** A refused completion: 200 with the session as it stands, signed, the refusal first, nothing ordered. */
async function expectRefused(id: string, ap2: unknown, code: string, profile = "ap2"): Promise<void> {
  const orders = await prisma().order.count();
  const reply = await complete(id, profile, ap2);
  expect(reply.status, reply.text).toBe(200);
  const body = reply.body as Checkout;
  expect(body.messages?.[0], reply.text).toMatchObject({ type: "error", code, severity: "recoverable" });
  expect(body.status).toBe("ready_for_complete");
  expect(await merchantSigned(body)).toBe(true);
  expect(await prisma().order.count()).toBe(orders);
}

describe("AP2 mandates: the business side", () => {
  it("advertises the extension of checkout in the 2026-04-08 profile with its presentation format", async () => {
    const profile = (await (await fetch(`${server.url}/.well-known/ucp`)).json()) as { ucp: { capabilities: Record<string, Array<Record<string, unknown>>> } };
    expect(profile.ucp.capabilities[AP2]).toEqual([
      {
        version: "2026-04-08",
        spec: "https://ucp.dev/2026-04-08/specification/ap2-mandates",
        schema: "https://ucp.dev/2026-04-08/schemas/shopping/ap2_mandate.json",
        extends: "dev.ucp.shopping.checkout",
        config: { vp_formats_supported: { "dc+sd-jwt": {} } },
      },
    ]);
  });

  it("signs every checkout answer of an AP2 agent (create, get, update) verifiably with the published key", async () => {
    const made = await created();
    valid(checkoutWithAp2, { status: 200, body: made } as unknown as Reply);
    expect(Object.keys((made.ucp as { capabilities: object }).capabilities)).toContain(AP2);
    expect(await merchantSigned(made)).toBe(true);
    expect(await merchantSigned({ ...made, status: "incomplete" })).toBe(false);
    const got = await ucp("GET", `/checkout-sessions/${made.id}`, "ap2");
    expect(await merchantSigned(got.body as Checkout)).toBe(true);
    const updated = await ucp("PUT", `/checkout-sessions/${made.id}`, "ap2", session(2));
    expect(await merchantSigned(updated.body as Checkout)).toBe(true);
  });

  it("leaves agents that do not negotiate AP2 as before: no ap2, completion without a mandate", async () => {
    const made = await created("plain");
    expect(made.ap2).toBeUndefined();
    expect(Object.keys((made.ucp as { capabilities: object }).capabilities)).not.toContain(AP2);
    const done = await complete(made.id, "plain");
    expect(valid(checkoutResponse, done).status).toBe("completed");
    expect((done.body as Checkout).ap2).toBeUndefined();
  });

  it("ignores ap2 from a 2026-01-11 agent, which does not negotiate it (the conformance suite's ap2 test)", async () => {
    const made = await ucp("POST", "/checkout-sessions", "old", session(), "2026-01-11");
    expect(made.status, made.text).toBe(201);
    expect((made.body as Checkout).ap2).toBeUndefined();
    const body = { payment_data: { id: "instr_1", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token: "success_token" } }, risk_signals: {}, ap2: { checkout_mandate: "header.payload.signature~kb_signature" } };
    const done = await ucp("POST", `/checkout-sessions/${(made.body as Checkout).id}/complete`, "old", body, "2026-01-11");
    expect(done.status, done.text).toBe(200);
    expect((done.body as Checkout).status).toBe("completed");
  });
});

describe("AP2 mandates: completing", () => {
  it("completes with a mandate over the signed checkout, and answers the order signed", async () => {
    const made = await created();
    const reply = await complete(made.id, "ap2", { checkout_mandate: await mandate(made) });
    expect(reply.status, reply.text).toBe(200);
    const done = valid(checkoutWithAp2, reply);
    expect(done.status).toBe("completed");
    expect(await merchantSigned(reply.body as Checkout)).toBe(true);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } })).toMatchObject({ status: "paid", channel: "ucp" });
  });

  it("accepts the checkout as a plain claim too (not selectively disclosed) and a mandate made after an update", async () => {
    const made = await created();
    const updated = (await ucp("PUT", `/checkout-sessions/${made.id}`, "ap2", session(2))).body as Checkout;
    const jwt = await new SignJWT({ checkout: updated, cnf: { jwk: publicJwk(holder) }, exp: now() + 60 }).setProtectedHeader({ alg: "ES256", kid: "platform-1" }).sign(platform.privateKey);
    const kb = await new SignJWT({ nonce: "n", aud: `${SHOP}/.well-known/ucp`, iat: now(), sd_hash: sha(`${jwt}~`) }).setProtectedHeader({ alg: "ES256", typ: "kb+jwt" }).sign(holder.privateKey);
    const reply = await complete(made.id, "ap2", { checkout_mandate: `${jwt}~${kb}` });
    expect((reply.body as Checkout).status, reply.text).toBe("completed");
  });

  it("refuses without a mandate, and without a key in the agent's profile", async () => {
    const made = await created();
    await expectRefused(made.id, undefined, "mandate_required");
    await expectRefused(made.id, {}, "mandate_required");
    const keyless = await created("keyless");
    await expectRefused(keyless.id, { checkout_mandate: await mandate(keyless) }, "agent_missing_key", "keyless");
    await expectRefused(made.id, { checkout_mandate: await mandate(made, { kid: "someone-else" }) }, "agent_missing_key");
  });

  it("refuses bad signatures, key bindings and disclosures as mandate_invalid_signature, and old ones as mandate_expired", async () => {
    const made = await created();
    await expectRefused(made.id, { checkout_mandate: await mandate(made, { signer: stranger.privateKey }) }, "mandate_invalid_signature");
    await expectRefused(made.id, { checkout_mandate: await mandate(made, { audience: "https://other-shop.example" }) }, "mandate_invalid_signature");
    await expectRefused(made.id, { checkout_mandate: await mandate(made, { swapDisclosure: disclosureOf("checkout", made) }) }, "mandate_invalid_signature");
    await expectRefused(made.id, { checkout_mandate: await mandate(made, { dropDisclosure: true }) }, "mandate_invalid_signature");
    await expectRefused(made.id, { checkout_mandate: "header.payload.signature~kb_signature" }, "mandate_invalid_signature");
    await expectRefused(made.id, { checkout_mandate: 42 }, "mandate_invalid_signature");
    await expectRefused(made.id, { checkout_mandate: await mandate(made, { exp: now() - 10 }) }, "mandate_expired");
    await expectRefused(made.id, { checkout_mandate: await mandate(made, { kbIat: now() - 3600 }) }, "mandate_expired");
  });

  it("refuses a checkout the shop did not sign (merchant_authorization_invalid)", async () => {
    const made = await created();
    const cheaper = { ...made, totals: (made.totals as Array<{ type: string; amount: number }>).map((entry) => ({ ...entry, amount: 1 })) };
    await expectRefused(made.id, { checkout_mandate: await mandate(cheaper) }, "merchant_authorization_invalid");
    const { ap2: _ap2, ...unsigned } = made;
    await expectRefused(made.id, { checkout_mandate: await mandate(unsigned) }, "merchant_authorization_invalid");
  });

  it("refuses a mandate for another session or for terms the session no longer has (mandate_scope_mismatch)", async () => {
    const made = await created();
    const other = await created();
    await expectRefused(made.id, { checkout_mandate: await mandate(other) }, "mandate_scope_mismatch");
    const agreed = await mandate(made);
    await ucp("PUT", `/checkout-sessions/${made.id}`, "ap2", session(3));
    await expectRefused(made.id, { checkout_mandate: agreed }, "mandate_scope_mismatch");
    expect(((await ucp("GET", `/checkout-sessions/${other.id}`, "ap2")).body as Checkout).status).toBe("ready_for_complete");
  });
});

describe("AP2 mandates over MCP", () => {
  const rpc = async (name: string, args: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/ucp/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { meta: { "ucp-agent": { profile: `${base}/ap2.json` }, "idempotency-key": crypto.randomUUID() }, ...args } } }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { result: { structuredContent: Checkout; isError?: boolean } }).result;
  };

  it("signs create_checkout and completes through complete_checkout's checkout.ap2; refuses without it as a result", async () => {
    const made = (await rpc("create_checkout", { checkout: session() })).structuredContent;
    expect(await merchantSigned(made)).toBe(true);
    const refused = await rpc("complete_checkout", { id: made.id, checkout: { payment } });
    expect(refused.isError).toBeUndefined();
    expect(refused.structuredContent.messages?.[0]?.code).toBe("mandate_required");
    const done = await rpc("complete_checkout", { id: made.id, checkout: { payment, ap2: { checkout_mandate: await mandate(made) } } });
    expect(done.structuredContent.status).toBe("completed");
    expect(await merchantSigned(done.structuredContent)).toBe(true);
  });
});

describe("AP2 mandates at 2026-08-25", () => {
  it("advertises AP2 in the 2026-08-25 profile and, negotiated there, signs checkouts and takes a mandate as at 2026-04-08", async () => {
    const profile = (await (await fetch(`${server.url}/ucp/2026-08-25/.well-known/ucp`)).json()) as { ucp: { capabilities: Record<string, unknown> } };
    expect(profile.ucp.capabilities[AP2]).toEqual([
      {
        version: "2026-08-25",
        spec: "https://ucp.dev/2026-08-25/specification/ap2-mandates",
        schema: "https://ucp.dev/2026-08-25/schemas/shopping/ap2_mandate.json",
        extends: "dev.ucp.shopping.checkout",
        config: { vp_formats_supported: { "dc+sd-jwt": {} } },
      },
    ]);
    const made = await created("ap2-0825");
    expect(made.ucp).toMatchObject({ version: "2026-08-25", capabilities: { [AP2]: [{ version: "2026-08-25" }] } });
    expect(await merchantSigned(made)).toBe(true);
    // Without a mandate: refused, nothing ordered; with the buyer's mandate over the signed checkout: completed.
    await expectRefused(made.id, undefined, "mandate_required", "ap2-0825");
    const done = await complete(made.id, "ap2-0825", { checkout_mandate: await mandate(made) });
    expect(done.status, done.text).toBe(200);
    expect((done.body as Checkout).status).toBe("completed");
    expect(await merchantSigned(done.body as Checkout)).toBe(true);
  });
});
