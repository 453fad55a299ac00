// The buyer's hand-off page of an agent's checkout session (UCP continue_url, /checkout/agent/<id>?expires&token),
// without JavaScript: the agent's lines and totals, what is missing, the buyer's form, the order placed from there and
// seen by the agent as completed; expired and forged links answer a Danish error page; the order's permalink opens it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutResponse, orderResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { handoffUrl, hmacSigner } from "../../src/tools/checkout/handoff.ts";
import { sendJson, valid } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { serveProfiles, shoppingCapabilities, type ProfileServer } from "../support/ucp-profile.ts";
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";

let profiles: ProfileServer;
beforeAll(async () => {
  profiles = await serveProfiles({ "/agent.json": { name: "Indkoebsassistent", ucp: { version: "2026-04-08", capabilities: shoppingCapabilities() } } });
});
afterAll(() => profiles.close());
const { server } = useServer({ config: { ucpTestMode: true, ucpAllowLocalProfiles: true } });

const ucp = (method: string, path: string, body?: unknown) =>
  sendJson(`${server.url}${path}`, method, { "UCP-Agent": `profile="${profiles.base}/agent.json"`, "Content-Type": "application/json", ...(method === "POST" && path.endsWith("/complete") ? { "Idempotency-Key": crypto.randomUUID() } : {}) }, body);

/** A link's path and query, to fetch from the test server. */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function agentSession(quantity = 2) {
  const [product] = await plainProducts(server, 5);
  const created = valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", { line_items: [{ item: { id: product!.id }, quantity }] }));
  expect(created.status).toBe("incomplete");
  return { product: product!, session: created };
}

describe("the hand-off page", () => {
  it("opens the agent's session from continue_url, shows what is missing, and the buyer completes it there", async () => {
    const { product, session } = await agentSession();
    expect(session.continue_url).toMatch(/\/checkout\/agent\/chk_\w+\?expires=\d+&token=[\w-]{43}$/);
    const client = new WebClient(server);
    const page = await client.get(local(session.continue_url!));
    expectHtmlPage(page);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.html).toContain("Gennemfør dit køb");
    expect(page.html).toContain("Indkoebsassistent har lagt dette køb klar til dig");
    expect(page.html).toContain(`2 × ${product.name}`);
    expect(page.html).toContain("Det mangler");
    expect(page.html).toContain("Din e-mailadresse");
    expect(page.html).toContain("Leveringsadressen");

    // Ordering before the address is there: refused with the form again.
    const early = await client.post(local(session.continue_url!), { email: "kunde@example.dk", action: "complete" });
    expectHtmlPage(early, 422);
    expect(early.html).toContain("Udfyld det, der mangler");

    const saved = await client.post(local(session.continue_url!), { email: "kunde@example.dk", name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K", action: "save" });
    expectHtmlPage(saved);
    expect(saved.html).toContain("Alt er på plads");
    const option = /name="delivery" type="radio" value="([^"]+)"/.exec(saved.html)![1]!;

    const placed = await client.post(local(session.continue_url!), { email: "kunde@example.dk", name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K", delivery: option, action: "complete" });
    const paymentPage = expectRedirect(placed, /^\/orders\/[\w-]+\/pay\?token=[\w-]{43}$/);
    const pay = await client.get(paymentPage);
    expectHtmlPage(pay);
    expect(pay.html).toContain("Tak for din bestilling");

    // The agent sees the session completed with its order, and the order's permalink opens the same page.
    const done = valid(checkoutResponse, await ucp("GET", `/ucp/checkout-sessions/${session.id}`));
    expect(done.status).toBe("completed");
    expect(local(done.order!.permalink_url)).toBe(paymentPage);
    const order = valid(orderResponse, await ucp("GET", `/ucp/orders/${done.order!.id}`));
    expect(local(order.permalink_url)).toBe(paymentPage);
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: done.order!.id } });
    expect(row).toMatchObject({ channel: "ucp", status: "pending_payment", email: "kunde@example.dk", shippingZip: "1160" });

    // The link afterwards says the purchase is done; posting again changes nothing.
    const after = await client.get(local(session.continue_url!));
    expectHtmlPage(after);
    expect(after.html).toContain("Købet er gennemført");
    expectRedirect(await client.post(local(session.continue_url!), { email: "other@example.dk", action: "complete" }), /^\/checkout\/agent\//);
    expect(await server.prisma.order.count({ where: { email: "kunde@example.dk" } })).toBe(1);
    expect(await server.prisma.checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ status: "completed", orderId: done.order!.id });
  });

  it("answers an expired link with 410 and a forged or altered one with 403, in Danish", async () => {
    const { session } = await agentSession(1);
    const client = new WebClient(server);
    const sign = hmacSigner(server.runtime.secret);
    const expired = await client.get(local(handoffUrl("http://x", sign, session.id, new Date(Date.now() - 1000))));
    expectHtmlPage(expired, 410);
    expect(expired.html).toContain("Linket er udløbet");
    const link = new URL(session.continue_url!);
    const forged = await client.get(`${link.pathname}?expires=${link.searchParams.get("expires")}&token=${"A".repeat(43)}`);
    expectHtmlPage(forged, 403);
    expect(forged.html).toContain("Linket virker ikke");
    const stretched = await client.get(`${link.pathname}?expires=${Number(link.searchParams.get("expires")) + 3600}&token=${link.searchParams.get("token")}`);
    expectHtmlPage(stretched, 403);
    const other = await agentSession(1);
    const swapped = await client.get(`/checkout/agent/${other.session.id}${link.search}`);
    expectHtmlPage(swapped, 403);
    expectHtmlPage(await client.get(`/checkout/agent/${session.id}`), 403);
    // A forged link cannot post either.
    await client.get(local(session.continue_url!));
    const post = await client.post(`${link.pathname}?expires=${link.searchParams.get("expires")}&token=${"A".repeat(43)}`, { email: "x@example.dk", action: "complete" });
    expectHtmlPage(post, 403);
    expect(await server.prisma.checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ status: "incomplete" });
  });

  it("places one order when the agent and the buyer complete at the same moment", async () => {
    const { session } = await agentSession(1);
    const address = { email: "race@example.dk", name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K" };
    const client = new WebClient(server);
    await client.get(local(session.continue_url!));
    // Ready first (the buyer saves), then both complete at once: the session row lock lets one of them win.
    expectHtmlPage(await client.post(local(session.continue_url!), { ...address, action: "save" }));
    const payment = { payment: { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token: "success_token" } }] } };
    const [agent, buyer] = await Promise.all([ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, payment), client.post(local(session.continue_url!), { ...address, action: "complete" })]);
    expect([200, 409]).toContain(agent.status);
    expect(buyer.status).toBe(303);
    const row = await server.prisma.checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.status).toBe("completed");
    expect(await server.prisma.order.count({ where: { email: "race@example.dk" } })).toBe(1);
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: row.orderId! } });
    // Paid by the agent's card or waiting for the buyer's transfer, never both: at most one payment entry.
    expect(await server.prisma.paymentEntry.count({ where: { orderId: order.id, kind: "payment" } })).toBeLessThanOrEqual(1);
  });
});
