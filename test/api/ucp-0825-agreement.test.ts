// What a 2026-08-25 buyer agreed to, through real HTTP: consent per purpose and segment kept as given and answered back,
// the policies snapshotted on the order when it is placed (a later change of the shop's terms leaves the order's as they
// were), both shown to staff on the admin order page and through the internal checkout.agreement tool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import checkoutAgreement, { agreement } from "../../src/tools/checkout/agreement.ts";
import { checkoutResponse, orderResponse } from "../../src/api/ucp/v2026-08-25.ts";
import type { Caller } from "../../src/tools/context.ts";
import { AdminClient, staffUser } from "../support/admin.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { serveProfiles, type ProfileServer } from "../support/ucp-profile.ts";

let profiles: ProfileServer;
beforeAll(async () => {
  profiles = await serveProfiles({ "/agent.json": { name: "Agent Samtykke", ucp: { version: "2026-08-25" } } });
});
afterAll(async () => {
  await profiles.close();
});
const { server } = useServer({ config: () => ({ ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" }) });

function ucp(method: string, path: string, body?: unknown): Promise<Reply> {
  return sendJson(`${server.url}${path}`, method, { "UCP-Agent": `profile="${profiles.base}/agent.json"`, "Content-Type": "application/json" }, body);
}

const CONSENT = {
  "dev.ucp.consent.marketing": {
    granted: true,
    source: "platform",
    segments: { "dev.ucp.consent.marketing.email": { granted: true, source: "platform" }, "dev.ucp.consent.marketing.sms": { granted: false, source: "platform" } },
  },
  "dev.ucp.consent.analytics": { granted: false, source: "business" },
  "com.example.consent.loyalty": { granted: true },
};
const BUYER = { email: "samtykke@example.dk", first_name: "Sofie", last_name: "Lund", consent: CONSENT };
const HOME = { methods: [{ type: "shipping", destinations: [{ id: "a1", street_address: "Vestergade 3", postal_code: "8000", address_locality: "Aarhus C", address_country: "DK" }], selected_destination_id: "a1" }] };
const PAY = { payment: { instruments: [{ id: "i1", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token: "success_token" } }] } };

async function lineItems() {
  const [product] = await plainProducts(server, 1);
  return [{ item: { id: product!.id }, quantity: 1 }];
}

/** A staff caller of the admin door, with these scopes. */
const staff = (...scopes: string[]): Caller => ({ kind: "staff", actor: "staff:test", scopes: new Set(scopes) });

describe("consent at 2026-08-25", () => {
  it("keeps every purpose and segment as given and answers them back with the shop's descriptions", async () => {
    const created = await ucp("POST", "/ucp/checkout-sessions", { line_items: await lineItems(), buyer: BUYER });
    expect(created.status).toBe(201);
    const session = valid(checkoutResponse, created);
    expect(session.buyer!.consent).toEqual({
      "dev.ucp.consent.marketing": {
        granted: true,
        source: "platform",
        description: "Nyhedsbreve og tilbud",
        segments: {
          "dev.ucp.consent.marketing.email": { granted: true, source: "platform", description: expect.stringContaining("e-mail") },
          "dev.ucp.consent.marketing.sms": { granted: false, source: "platform", description: expect.stringContaining("sms") },
        },
      },
      "dev.ucp.consent.analytics": { granted: false, source: "business", description: expect.any(String) },
      "com.example.consent.loyalty": { granted: true, source: "platform", description: "Samtykke: com.example.consent.loyalty" },
    });
    const row = await server.prisma.checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.consent).toMatchObject({ "dev.ucp.consent.marketing": { segments: { "dev.ucp.consent.marketing.sms": { granted: false } } }, "com.example.consent.loyalty": { source: "platform" } });
    // The core's flags still follow the well-known purposes.
    expect(row.buyer).toMatchObject({ consent: { marketing: true, analytics: false } });
    // A GET answers the same.
    expect(valid(checkoutResponse, await ucp("GET", `/ucp/checkout-sessions/${session.id}`)).buyer!.consent).toEqual(session.buyer!.consent);

    // An update's buyer replaces the consent: a new decision is kept, a buyer without consent keeps none.
    const changed = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: await lineItems(), buyer: { ...BUYER, consent: { "dev.ucp.consent.marketing": { granted: false } } } }));
    expect(changed.buyer!.consent).toEqual({ "dev.ucp.consent.marketing": { granted: false, source: "platform", description: expect.any(String) } });
    const cleared = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: await lineItems(), buyer: { email: BUYER.email } }));
    expect(cleared.buyer!.consent).toBeUndefined();
    expect((await server.prisma.checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).consent).toBeNull();
  });

  it("refuses consent that does not read (400) and writes nothing", async () => {
    const before = await server.prisma.checkoutSession.count();
    for (const consent of [
      { "dev.ucp.consent.marketing": { granted: "yes" } },
      { "Not A Name": { granted: true } },
      { "dev.ucp.consent.marketing": { granted: true, segments: { "dev.ucp.consent.marketing.email": { granted: 1 } } } },
      { "dev.ucp.consent.marketing": { granted: true, source: "agent" } },
    ]) {
      const reply = await ucp("POST", "/ucp/checkout-sessions", { line_items: await lineItems(), buyer: { ...BUYER, consent } });
      expect(reply.status, JSON.stringify(consent)).toBe(400);
      expect(reply.body).toMatchObject({ ucp: { version: "2026-08-25", status: "error" }, messages: [{ code: "invalid_request" }] });
    }
    // The tool's own door reads consentRecord as strictly (a name that is not reverse-DNS, another source).
    const [product] = await plainProducts(server, 1);
    for (const consentRecord of [{ "Bad Name": { granted: true } }, { "dev.ucp.consent.marketing": { granted: true, source: "agent" } }]) {
      const reply = await server.call("checkout.create", { lines: [{ itemId: product!.id, quantity: 1 }], consentRecord });
      expect(reply.status, JSON.stringify(consentRecord)).toBe(400);
      expect(reply.body.code).toBe("invalid_input");
    }
    expect(await server.prisma.checkoutSession.count()).toBe(before);
  });
});

describe("the order's policies at 2026-08-25", () => {
  it("are the ones the order was placed under, whatever the shop's terms say later", async () => {
    const key = await server.key("settings:write");
    const set = (terms: string, returns: string) => server.call("settings.update_policies", { terms, returns }, { key });
    expect((await set("Handelsbetingelser, version 1.", "Returret i 30 dage, version 1.")).status).toBe(200);

    const session = valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", { line_items: await lineItems(), buyer: BUYER, fulfillment: HOME }));
    expect(session.status).toBe("ready_for_complete");
    const done = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, PAY));
    expect(done.status).toBe("completed");
    const orderId = done.order!.id;
    const placed = valid(orderResponse, await ucp("GET", `/ucp/orders/${orderId}`));
    const text = (answer: { policies?: Array<{ type: string; description: { plain?: string | undefined } }> | undefined }, type: string) => answer.policies!.find((entry) => entry.type === type)!.description.plain;
    expect(text(placed, "dk.shop.policy.terms")).toBe("Handelsbetingelser, version 1.");
    expect(text(placed, "dev.ucp.shopping.policy.return")).toBe("Returret i 30 dage, version 1.");
    expect((await server.prisma.order.findUniqueOrThrow({ where: { id: orderId } })).policySnapshot).toMatchObject({ terms: "Handelsbetingelser, version 1.", capturedAt: expect.any(String) });

    // The shop changes its terms: new checkouts show the new ones, the order keeps the old.
    expect((await set("Handelsbetingelser, version 2.", "Returret i 14 dage, version 2.")).status).toBe(200);
    const later = valid(orderResponse, await ucp("GET", `/ucp/orders/${orderId}`));
    expect(later.policies).toEqual(placed.policies);
    const fresh = valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", { line_items: await lineItems(), buyer: BUYER }));
    expect(text(fresh, "dk.shop.policy.terms")).toBe("Handelsbetingelser, version 2.");

    // Staff see what the buyer agreed to on the admin order page.
    await staffUser(server, "ordrer@example.dk", ["orders:read"]);
    const admin = new AdminClient(server);
    await admin.signIn("ordrer@example.dk");
    const page = await admin.get(`/admin/orders/${orderId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Samtykke og betingelser");
    expect(page.html).toContain("dev.ucp.consent.marketing.sms");
    expect(page.html).toContain("Handelsbetingelser, version 1.");
    expect(page.html).not.toContain("Handelsbetingelser, version 2.");
  });

  it("an order placed before snapshots were kept shows no policies rather than today's", async () => {
    const session = valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", { line_items: await lineItems(), buyer: BUYER, fulfillment: HOME }));
    const done = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, PAY));
    await server.database.exec(`UPDATE "Order" SET "policySnapshot" = NULL WHERE id = '${done.order!.id}'`);
    const order = valid(orderResponse, await ucp("GET", `/ucp/orders/${done.order!.id}`));
    expect(order.policies).toBeUndefined();
  });
});

describe("checkout.agreement (internal)", () => {
  const run = (input: object, caller: Caller) => server.runtime.executor.call(checkoutAgreement, input as never, { caller, door: "admin", requestId: "agreement-test" });

  it("answers by order or session id in its output shape; null when unknown", async () => {
    const session = valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", { line_items: await lineItems(), buyer: BUYER, fulfillment: HOME }));
    const open = z.nullable(agreement).parse(await run({ checkoutId: session.id }, staff("orders:read")));
    expect(open).toMatchObject({ checkoutId: session.id, orderId: null, policies: null, consent: { "dev.ucp.consent.marketing": { granted: true } } });
    const done = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, PAY));
    const byOrder = agreement.parse(await run({ orderId: done.order!.id }, staff("orders:read")));
    expect(byOrder).toMatchObject({ checkoutId: session.id, orderId: done.order!.id, policies: { terms: expect.any(String) } });
    expect(await run({ orderId: "unknown-order" }, staff("orders:read"))).toBeNull();
  });

  it("refuses a caller without orders:read, input naming neither or both ids, and is not a public tool", async () => {
    await expect(run({ orderId: "x" }, staff("catalog:read"))).rejects.toMatchObject({ status: 403 });
    await expect(run({}, staff("orders:read"))).rejects.toMatchObject({ status: 400, code: "invalid_input" });
    await expect(run({ orderId: "x", checkoutId: "chk_0000000000000000" }, staff("orders:read"))).rejects.toMatchObject({ status: 400 });
    await expect(run({ checkoutId: "not-a-checkout" }, staff("orders:read"))).rejects.toMatchObject({ status: 400 });
    const key = await server.key("orders:read");
    expect((await server.call("checkout.agreement", { orderId: "x" }, { key })).status).toBe(404);
  });
});
