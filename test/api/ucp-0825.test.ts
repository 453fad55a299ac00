// UCP 2026-08-25 beside 2026-04-08 and 2026-01-11, through real HTTP: its business profile (keys[]), negotiation per
// request by the agent's profile, checkout to the door and to a parcel shop (business_location destinations), policies,
// consent by purpose, PAN and network-token credentials, 3-D Secure as a payment-authentication action, the order with
// its policies — over REST and the MCP binding, every answer against our zod reading of the version.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as v0111 from "../../src/api/ucp/v2026-01-11.ts";
import * as v0408 from "../../src/api/ucp/v2026-04-08.ts";
import { checkoutResponse, errorResponse, orderResponse } from "../../src/api/ucp/v2026-08-25.ts";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { serveProfiles, shoppingCapabilities, type ProfileServer } from "../support/ucp-profile.ts";

const V = [{ version: "2026-08-25" }];
const CAPABILITIES_0825 = {
  "dev.ucp.shopping.checkout": V,
  "dev.ucp.shopping.fulfillment": V,
  "dev.ucp.shopping.discount": V,
  "dev.ucp.shopping.buyer_consent": V,
  "dev.ucp.shopping.payment_authentication": V,
  "dev.ucp.shopping.order": V,
};

let profiles: ProfileServer;
let stripe: FakeStripe;
beforeAll(async () => {
  profiles = await serveProfiles({
    "/new.json": { name: "Agent 0825", ucp: { version: "2026-08-25", capabilities: CAPABILITIES_0825 }, keys: [] },
    "/bare.json": { ucp: { version: "2026-08-25" } },
    "/wrong-version-caps.json": { ucp: { version: "2026-08-25", capabilities: shoppingCapabilities() } },
    "/mid.json": { ucp: { version: "2026-04-08", capabilities: shoppingCapabilities() } },
    "/old.json": { ucp: { version: "2026-01-11" } },
  });
  stripe = await startFakeStripe();
});
afterAll(async () => {
  await profiles.close();
  await stripe.close();
});
const { server } = useServer({
  config: () => ({ ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk", stripeSecretKey: "sk_test_0825", stripeApiUrl: stripe.url, stripePublishableKey: "pk_test_0825" }),
});
const prisma = () => server.prisma;
const agent = (name = "new") => `profile="${profiles.base}/${name}.json"`;

function ucp(method: string, path: string, body?: unknown, profile = "new", headers: Record<string, string> = {}): Promise<Reply> {
  return sendJson(`${server.url}${path}`, method, { "UCP-Agent": agent(profile), "Content-Type": "application/json", ...headers }, body);
}

const BUYER = {
  email: "agent.0825@example.dk",
  first_name: "Mette",
  last_name: "Hansen",
  consent: { "dev.ucp.consent.marketing": { granted: true, source: "platform" }, "dev.ucp.consent.analytics": { granted: false, source: "platform" } },
};
const HOME = { id: "addr_1", type: "shipping_address", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const home = { methods: [{ type: "shipping", destinations: [HOME], selected_destination_id: "addr_1" }] };
const parcelShop = (id: string, option?: string) => ({ methods: [{ type: "pickup", selected_destination_id: id, ...(option ? { groups: [{ id: "fg_pickup", selected_option_id: option }] } : {}) }] });
const LUHN = "4242424242424242";
const pan = { payment: { instruments: [{ id: "instr_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "pan", number: LUHN, expiry_month: 12, expiry_year: 2030, cvc: "123" } }] } };
const networkToken = { payment: { instruments: [{ id: "instr_2", handler_id: "mock_payment_handler", type: "card", credential: { type: "network_token", number: "5555555555554444", cryptogram: "gXc5UCLnM6ckD7pjM1TdPA==" } }] } };

async function item(index = 0) {
  return (await plainProducts(server, 3))[index]!;
}

async function created(itemId: string, extra: Record<string, unknown> = {}, profile = "new") {
  const reply = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: itemId }, quantity: 1 }], buyer: BUYER, ...extra }, profile);
  if (reply.status !== 201) throw new Error(`create answered ${reply.status}: ${reply.text}`);
  return valid(checkoutResponse, reply);
}

describe("UCP 2026-08-25 discovery", () => {
  it("serves the 2026-08-25 profile with keys[] (a JWK set) and names it from the 2026-04-08 profile", async () => {
    const reply = await ucp("GET", "/ucp/2026-08-25/.well-known/ucp");
    expect(reply.status).toBe(200);
    const entity = z.object({ version: z.literal("2026-08-25"), spec: z.url(), schema: z.url() });
    const profile = valid(
      z.object({
        ucp: z.object({
          version: z.literal("2026-08-25"),
          supported_versions: z.record(z.string(), z.url()),
          services: z.object({ "dev.ucp.shopping": z.array(entity.extend({ transport: z.enum(["rest", "mcp"]), endpoint: z.url() })) }),
          capabilities: z.record(z.string(), z.array(entity.extend({ extends: z.string().optional() }))),
          payment_handlers: z.record(z.string(), z.array(z.object({ id: z.string(), version: z.literal("2026-08-25") }).loose())),
        }),
        keys: z.array(z.object({ kid: z.string(), kty: z.literal("EC"), alg: z.literal("ES256") }).loose()).min(1),
      }),
      reply,
    );
    expect(reply.body).not.toHaveProperty("signing_keys");
    expect(profile.ucp.services["dev.ucp.shopping"].map((service) => [service.transport, service.endpoint])).toEqual([
      ["rest", "https://shop.example.dk/ucp"],
      ["mcp", "https://shop.example.dk/ucp/mcp"],
    ]);
    expect(Object.keys(profile.ucp.capabilities).sort()).toEqual([...Object.keys(CAPABILITIES_0825), "dev.ucp.shopping.ap2_mandate"].sort());
    expect(profile.ucp.capabilities["dev.ucp.shopping.payment_authentication"]![0]!.extends).toBe("dev.ucp.shopping.checkout");
    expect(profile.ucp.supported_versions).toEqual({ "2026-04-08": "https://shop.example.dk/.well-known/ucp", "2026-01-11": "https://shop.example.dk/ucp/.well-known/ucp" });
    const latest = (await ucp("GET", "/.well-known/ucp")).body as { ucp: { supported_versions: Record<string, string> } };
    expect(latest.ucp.supported_versions["2026-08-25"]).toBe("https://shop.example.dk/ucp/2026-08-25/.well-known/ucp");
  });
});

describe("UCP 2026-08-25 negotiation", () => {
  it("answers each agent in its profile's version: 2026-08-25, 2026-04-08 and 2026-01-11 side by side", async () => {
    const product = await item();
    const newer = await created(product.id);
    expect(newer.ucp.version).toBe("2026-08-25");
    const mid = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product.id }, quantity: 1 }] }, "mid");
    expect(valid(v0408.checkoutResponse, mid).ucp.version).toBe("2026-04-08");
    const old = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product.id }, quantity: 1 }], currency: "DKK" }, "old");
    expect(old.status).toBe(201);
    expect(valid(v0111.checkoutResponse, old).ucp.version).toBe("2026-01-11");
    // The version named in UCP-Agent wins over the profile's (one that declares no capabilities: all at every version).
    const bare = await created(product.id, {}, "bare");
    const named = await sendJson(`${server.url}/ucp/checkout-sessions/${bare.id}`, "GET", { "UCP-Agent": `${agent("bare")}, version="2026-04-08"` });
    expect(valid(v0408.checkoutResponse, named).ucp.version).toBe("2026-04-08");
    // A profile whose capabilities are all at 2026-08-25 has none at 2026-04-08.
    const narrowed = await sendJson(`${server.url}/ucp/checkout-sessions/${newer.id}`, "GET", { "UCP-Agent": `${agent("new")}, version="2026-04-08"` });
    expect(valid(v0408.errorResponse.extend({ continue_url: z.url() }), narrowed).messages[0]!.code).toBe("capabilities_incompatible");
    const row = await prisma().checkoutSession.findUniqueOrThrow({ where: { id: newer.id } });
    expect(row).toMatchObject({ protocol: "ucp", protocolVersion: "2026-08-25", agentName: "Agent 0825" });
  });

  it("negotiates capabilities at 2026-08-25: a profile declaring them only at 2026-04-08 is incompatible", async () => {
    const product = await item();
    const reply = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product.id }, quantity: 1 }] }, "wrong-version-caps");
    expect(reply.status).toBe(200);
    const body = valid(errorResponse.extend({ continue_url: z.url() }), reply);
    expect(body).toMatchObject({ ucp: { version: "2026-08-25", capabilities: {} }, messages: [{ code: "capabilities_incompatible" }] });
    // A profile that declares none gets all of the shop's.
    expect((await created(product.id, {}, "bare")).ucp.capabilities).toHaveProperty(["dev.ucp.shopping.payment_authentication"]);
  });

  it("refuses a 2026-08-25 body that does not read (400 in the version's error response)", async () => {
    const reply = await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: "x" }, quantity: 0 }] });
    expect(reply.status).toBe(400);
    expect(valid(errorResponse, reply).messages[0]!.code).toBe("invalid_request");
    const badCard = await ucp("POST", `/ucp/checkout-sessions/chk_0000000000000000/complete`, { payment: { instruments: [{ handler_id: "mock_payment_handler", credential: { type: "pan" } }] } });
    expect(badCard.status).toBe(400);
  });
});

describe("UCP 2026-08-25 checkout over REST", () => {
  it("home delivery: create → update → complete with a PAN credential → order with policies", async () => {
    const product = await item();
    const session = await created(product.id);
    expect(session.status).toBe("incomplete");
    expect(session.buyer!.consent).toEqual({
      "dev.ucp.consent.analytics": { granted: false, source: "platform", description: expect.any(String) },
      "dev.ucp.consent.marketing": { granted: true, source: "platform", description: expect.any(String) },
    });
    // Policies from the shop's settings (the return policy text) and pages.
    expect(session.policies!.map((policy) => policy.type)).toEqual(["dev.ucp.shopping.policy.return", "dk.shop.policy.privacy", "dk.shop.policy.terms"]);
    expect(session.policies![0]!.description.plain).toMatch(/returret/);
    // Both methods on offer: home and parcel shops (PostNord and GLS) as business locations.
    const [shipping, pickup] = session.fulfillment!.methods;
    expect(shipping!.type).toBe("shipping");
    expect(pickup).toMatchObject({ type: "pickup", selected_destination_id: null });
    expect(pickup!.type === "pickup" && pickup!.destinations.map((entry) => entry.type)).toContain("business_location");
    expect(pickup!.groups[0]!.options.map((option) => option.id)).toEqual(["pickup_postnord-pakkeshop", "pickup_gls-pakkeshop"]);
    expect(session.fulfillment!.available_methods!.map((entry) => entry.type)).toEqual(["shipping", "pickup"]);

    const ready = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: [{ item: { id: product.id }, quantity: 1 }], buyer: BUYER, fulfillment: home }));
    expect(ready.status).toBe("ready_for_complete");
    const method = ready.fulfillment!.methods[0]!;
    expect(method.type === "shipping" && method.destinations![0]).toMatchObject({ id: "addr_1", type: "shipping_address", street_address: "Strøget 12" });
    expect(method.groups[0]!.selected_option_id).toBe("ship_postnord");

    const completed = await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, pan, "new", { "Idempotency-Key": "pan-1" });
    expect(completed.status).toBe(200);
    expect(completed.headers.get("signature")).toBeTruthy();
    const done = valid(checkoutResponse, completed);
    expect(done.status).toBe("completed");
    const order = await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } });
    expect(order).toMatchObject({ status: "paid", channel: "ucp", aiAgentSource: "Agent 0825", shippingAddress: "Strøget 12", deliveryMethodId: null });
    expect((await prisma().checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).payment).toMatchObject({ lastDigits: "4242" });

    const got = valid(orderResponse, await ucp("GET", `/ucp/orders/${order.id}`));
    expect(got).toMatchObject({ ucp: { version: "2026-08-25" }, id: order.id, checkout_id: session.id });
    expect(got.fulfillment.expectations![0]).toMatchObject({ method_type: "shipping", destination: { street_address: "Strøget 12" } });
    expect(got.policies!.map((policy) => policy.type)).toContain("dev.ucp.shopping.policy.return");
  });

  it("parcel shop: a business location chosen → its carrier's pickup option, priced as the storefront's → order with the parcel shop", async () => {
    const product = await item(1);
    const session = await created(product.id);
    // A GLS parcel shop with PostNord's option is refused as a message on the session.
    const wrong = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: [{ item: { id: product.id }, quantity: 1 }], buyer: BUYER, fulfillment: parcelShop("gls-kbh-shell-amager", "pickup_postnord-pakkeshop") }));
    expect(wrong.status).toBe("incomplete");
    expect(wrong.messages!.find((entry) => entry.code === "invalid_pickup_point")).toMatchObject({ path: "$.fulfillment.methods[1].selected_destination_id" });
    // The parcel shop alone: no address of the buyer's needed, GLS's option taken.
    const ready = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: [{ item: { id: product.id }, quantity: 1 }], buyer: BUYER, fulfillment: parcelShop("gls-kbh-shell-amager") }));
    expect(ready.status).toBe("ready_for_complete");
    const pickup = ready.fulfillment!.methods[1]!;
    expect(pickup).toMatchObject({ type: "pickup", selected_destination_id: "gls-kbh-shell-amager", groups: [{ selected_option_id: "pickup_gls-pakkeshop" }] });
    expect(ready.fulfillment!.methods[0]!.groups[0]!.selected_option_id).toBeNull();
    const location = pickup.type === "pickup" ? pickup.destinations.find((entry) => entry.id === "gls-kbh-shell-amager") : undefined;
    expect(location).toMatchObject({ type: "business_location", address: { street_address: "Amagerbrogade 100", postal_code: "2300", address_country: "DK" } });
    const subtotal = ready.totals.find((entry) => entry.type === "subtotal")!.amount;
    expect(ready.totals.find((entry) => entry.type === "fulfillment")!.amount).toBe(subtotal >= 49900 ? 0 : 3500);

    const done = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, networkToken, "new", { "Idempotency-Key": "nt-1" }));
    expect(done.status).toBe("completed");
    const order = await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } });
    expect(order).toMatchObject({ status: "paid", deliveryMethodId: "gls-pakkeshop", deliveryCarrier: "GLS", shippingAddress: "Amagerbrogade 100", shippingZip: "2300", shippingName: "Mette Hansen" });
    expect(order.pickupPoint).toMatchObject({ id: "gls-kbh-shell-amager", name: "Shell Amagerbrogade" });
    expect(Number(order.shippingDkk)).toBe(ready.totals.find((entry) => entry.type === "fulfillment")!.amount);

    const got = valid(orderResponse, await ucp("GET", `/ucp/orders/${order.id}`));
    expect(got.fulfillment.expectations![0]).toMatchObject({ method_type: "pickup", destination: { street_address: "Amagerbrogade 100", postal_code: "2300" } });
  });

  it("switches back from a parcel shop to home delivery", async () => {
    const product = await item();
    const session = await created(product.id, { fulfillment: parcelShop("pn-aarhus-foetex") });
    expect(session.fulfillment!.methods[1]!.groups[0]!.selected_option_id).toBe("pickup_postnord-pakkeshop");
    const back = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: [{ item: { id: product.id }, quantity: 1 }], buyer: BUYER, fulfillment: home }));
    expect(back.fulfillment!.methods[0]!.groups[0]!.selected_option_id).toBe("ship_postnord");
    expect(back.fulfillment!.methods[1]).toMatchObject({ selected_destination_id: null, groups: [{ selected_option_id: null }] });
  });

  it("shows 3-D Secure as a payment-authentication action, then completes", async () => {
    const product = await item(2);
    const session = await created(product.id, { fulfillment: home });
    const card = { payment: { instruments: [{ id: "instr_3ds", handler_id: "stripe", type: "card", credential: { type: "stripe_token", token: "pm_card_threeDSecureRequired" } }] } };
    const challenged = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, card));
    const [intent] = [...stripe.intents.values()].filter((entry) => entry.metadata.checkoutSessionId === session.id);
    const url = `https://hooks.stripe.test/3d_secure_2/hosted?payment_intent=${intent!.id}`;
    expect(challenged).toMatchObject({ status: "requires_escalation", continue_url: url, actions: { "dev.ucp.payment.three_ds_challenge": [{ config: { payment_instrument_id: "instr_3ds", url } }] } });
    stripe.authenticate(intent!.id);
    const done = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, card));
    expect(done.status).toBe("completed");
    expect(done.actions).toBeUndefined();
  });
});

describe("Parcel shops at 2026-04-08", () => {
  it("offers them as a pickup method with retail locations; a chosen one is delivered to", async () => {
    const product = await item();
    const body = { line_items: [{ item: { id: product.id }, quantity: 1 }], buyer: { email: "mid@example.dk", first_name: "Ole", last_name: "Berg" } };
    const session = valid(v0408.checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", body, "mid"));
    expect(session.fulfillment!.methods.map((method) => method.type)).toEqual(["shipping", "pickup"]);
    expect(session.fulfillment!.methods[0]!.groups![0]!.options.every((option) => !option.id.startsWith("pickup_"))).toBe(true);
    expect(session.fulfillment!.methods[1]!.destinations!.find((entry) => entry.id === "pn-odense-rema")).toMatchObject({ name: "PostNord Pakkeshop Rema 1000 Odense", address: { postal_code: "5000" } });
    const ready = valid(v0408.checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { ...body, fulfillment: parcelShop("pn-odense-rema") }, "mid"));
    expect(ready).toMatchObject({ status: "ready_for_complete", fulfillment: { methods: [{ groups: [{ selected_option_id: null }] }, { selected_destination_id: "pn-odense-rema", groups: [{ selected_option_id: "pickup_postnord-pakkeshop" }] }] } });
    const done = valid(v0408.checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, { payment: { instruments: [{ id: "i", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token: "success_token" } }] } }, "mid"));
    expect(done.status).toBe("completed");
    expect(await prisma().order.findUniqueOrThrow({ where: { id: done.order!.id } })).toMatchObject({ deliveryMethodId: "postnord-pakkeshop", shippingCity: "Odense C" });
    const order = valid(v0408.orderResponse, await ucp("GET", `/ucp/orders/${done.order!.id}`, undefined, "mid"));
    expect(order.fulfillment.expectations![0]).toMatchObject({ method_type: "pickup", destination: { postal_code: "5000" } });
  });
});

describe("UCP 2026-08-25 over the MCP binding", () => {
  it("create → update to a parcel shop → complete → get_order", async () => {
    const client = new Client({ name: "vitest-ucp-0825", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/ucp/mcp`)));
    try {
      const meta = (extra: Record<string, unknown> = {}) => ({ "ucp-agent": { profile: `${profiles.base}/new.json` }, ...extra });
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })).structuredContent;
      const product = await item();
      const session = checkoutResponse.parse(await call("create_checkout", { meta: meta(), checkout: { line_items: [{ item: { id: product.id }, quantity: 1 }], buyer: BUYER } }));
      expect(session.ucp.version).toBe("2026-08-25");
      const ready = checkoutResponse.parse(await call("update_checkout", { meta: meta(), id: session.id, checkout: { line_items: [{ item: { id: product.id }, quantity: 1 }], buyer: BUYER, fulfillment: parcelShop("pn-kbh-netto-nansensgade") } }));
      expect(ready).toMatchObject({ status: "ready_for_complete", fulfillment: { methods: [{ type: "shipping" }, { type: "pickup", selected_destination_id: "pn-kbh-netto-nansensgade" }] } });
      const done = checkoutResponse.parse(await call("complete_checkout", { meta: meta({ "idempotency-key": "mcp-0825-1" }), id: session.id, checkout: pan }));
      expect(done.status).toBe("completed");
      const order = orderResponse.parse(await call("get_order", { meta: meta(), id: done.order!.id }));
      expect(order.fulfillment.expectations![0]).toMatchObject({ method_type: "pickup", destination: { street_address: "Nansensgade 19" } });
      expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ deliveryMethodId: "postnord-pakkeshop" });
    } finally {
      await client.close();
    }
  });
});
