// Shoppers over OAuth, driven by the MCP TypeScript SDK's own client: /api/mcp?as=shopper challenges for the shopper
// scopes, the storefront's e-mail code signs the shopper in and a Danish consent page asks, then tools/list is exactly
// the shopper tools and each call acts on that customer's own data; refresh, "Forbundne apps" on /account, revoke -> 401.
// UCP identity linking: the profile advertises dev.ucp.common.identity_linking, and a shopper token at the UCP door
// offers the customer's saved addresses as destinations and attributes the order; without one nothing changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auth,
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import crypto from "node:crypto";
import { checkoutResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { sendJson, valid } from "../support/protocol.ts";
import { MemoryProvider, REDIRECT } from "../support/oauth-client.ts";
import { freePort, useServer, type StartOptions } from "../support/server.ts";
import { startSmtp, type SmtpCapture } from "../support/smtp-capture.ts";
import { poll } from "../support/wait.ts";
import { WebClient, type WebResponse } from "../support/web.ts";

const SHOPPER_SCOPES = ["shopper:cart", "shopper:orders", "shopper:returns", "shopper:addresses", "shopper:support"];

let smtp: SmtpCapture;
const start: StartOptions = {};
let base = "";
beforeAll(async () => {
  smtp = await startSmtp();
  start.port = await freePort();
  base = `http://127.0.0.1:${start.port}`;
});
afterAll(async () => {
  await smtp.close();
});
// UCP test mode: its mock payment handler completes checkouts (and, as the samples behave, an e-mail claims a buyer).
const { server } = useServer({ config: () => ({ publicBaseUrl: base, smtpUrl: smtp.url, ucpTestMode: true }), start });

const shopperUrl = () => new URL(`${base}/api/mcp?as=shopper`);

/** Follows redirects within the shop until one leaves it (the client's redirect URI) or a page answers. */
async function follow(browser: WebClient, answer: WebResponse): Promise<WebResponse> {
  while (answer.location && !answer.location.startsWith(REDIRECT)) {
    const next = new URL(answer.location, base);
    answer = await browser.get(next.pathname + next.search);
  }
  return answer;
}

/** Signs in by the e-mailed code from a page that shows the storefront's login form (its `next` comes back). */
async function signIn(browser: WebClient, page: WebResponse, email: string): Promise<WebResponse> {
  const next = /name="next" value="([^"]+)"/.exec(page.html)?.[1];
  expect(next).toBeTruthy();
  const seen = new Set(smtp.messages.filter((message) => message.to.includes(email)));
  await browser.post("/account/login", { email, next: next! });
  const mail = await smtp.waitFor((message) => message.to.includes(email) && message.raw.includes("Din login-kode") && !seen.has(message));
  const code = /Din login-kode: (\d{6})/.exec(mail.raw)![1]!;
  const verified = await browser.post("/account/verify", { email, code, next: next! });
  expect(verified.status, verified.html.slice(0, 300)).toBe(303);
  expect(verified.location).toBe(next === "/account" ? "/account?notice=logged-in" : next);
  return browser.get(next!);
}

/** Plays the shopper's browser from the authorization URL to the code; `untick` scopes are left out. */
async function consent(browser: WebClient, url: URL, email: string, untick: string[] = []): Promise<{ callback: URLSearchParams; consentHtml: string }> {
  let page = await browser.get(url.pathname + url.search);
  expect(page.status, page.html.slice(0, 300)).toBe(303);
  const interaction = new URL(page.location!, base).pathname;
  expect(interaction).toMatch(/^\/account\/oauth\/[\w-]+$/);
  page = await browser.get(interaction);
  expect(page.status).toBe(200);
  if (page.html.includes('action="/account/login"')) {
    expect(page.html).toContain("beder om adgang til din konto");
    page = await signIn(browser, page, email);
  }
  expect(page.status, page.html.slice(0, 500)).toBe(200);
  const consentHtml = page.html;
  const form: Record<string, string> = { decision: "allow" };
  const body = new URLSearchParams({ _csrf: browser.token, ...form });
  for (const [, scope] of page.html.matchAll(/name="scopes" value="([^"]+)"/g)) if (!untick.includes(scope!)) body.append("scopes", scope!);
  const response = await fetch(`${base}${interaction}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: browser.cookie }, body, redirect: "manual" });
  expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(303);
  const answer = await follow(browser, { status: 303, headers: response.headers, html: "", location: response.headers.get("location") });
  const back = new URL(answer.location!);
  expect(back.searchParams.get("error")).toBeNull();
  expect(back.searchParams.get("iss")).toBe(base);
  return { callback: back.searchParams, consentHtml };
}

const rpc = (token: string, body: unknown, path = "/api/mcp") =>
  fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

async function callTool(token: string, name: string, args: Record<string, unknown>) {
  const response = await rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> } } };
}

/** Two customers with an order each (from the demo shop), the first with a saved address. */
async function customers() {
  const orders = await server.prisma.order.findMany({ where: { userId: { not: null } }, orderBy: { createdAt: "desc" }, select: { id: true, userId: true } });
  const mine = orders[0]!;
  const theirs = orders.find((order) => order.userId !== mine.userId)!;
  const customer = await server.prisma.customer.findUniqueOrThrow({ where: { id: mine.userId! } });
  await server.prisma.address.create({ data: { customerId: customer.id, name: customer.name ?? "Kunde", address: "Nørregade 7", zip: "8000", city: "Aarhus C", country: "DK", isDefault: true } });
  return { customer, mine: mine.id, theirs: theirs.id };
}

let data: Awaited<ReturnType<typeof customers>>;

describe("a shopper connects an app over OAuth", () => {
  beforeAll(async () => {
    data = await customers();
  });

  it("challenges /api/mcp?as=shopper for the shopper scopes, and the resource metadata lists them", async () => {
    const response = await fetch(shopperUrl(), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain(`scope="${SHOPPER_SCOPES.join(" ")}"`);
    // Without ?as=shopper and without MCP_OAUTH_REQUIRED, nothing changed: the public tools.
    expect((await fetch(`${base}/api/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) })).status).toBe(200);
    const resource = (await (await fetch(`${base}/.well-known/oauth-protected-resource/api/mcp`)).json()) as { scopes_supported: string[] };
    expect(resource.scopes_supported).toEqual(expect.arrayContaining([...SHOPPER_SCOPES, "orders:read"]));
  });

  it("signs the shopper in by e-mail code, consents, and the token sees exactly the shopper tools on their own data", async () => {
    const provider = new MemoryProvider({ clientName: "Indkøbsagent" });
    const transport = new StreamableHTTPClientTransport(shopperUrl(), { authProvider: provider });
    await expect(new Client({ name: "shopper-test", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const browser = new WebClient(server);
    const { callback, consentHtml } = await consent(browser, provider.authorizationUrl!, data.customer.email, ["shopper:support"]);
    expect(consentHtml).toContain("Indkøbsagent vil have adgang til din konto");
    expect(consentHtml).toContain("Se dine ordrer");
    expect(consentHtml).toContain(data.customer.email);
    await transport.finishAuth(callback);
    const client = new Client({ name: "shopper-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(shopperUrl(), { authProvider: provider }));

    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["cart.add", "checkout.create", "orders.get", "user.list_orders", "returns.request", "customer.list_addresses", "products.search"]));
    for (const staffTool of ["orders.list", "orders.refund", "keys.list", "staff.set_password", "support.create_ticket", "user.sign_out", "user.verify_login_code", "marketing.subscribe"]) {
      expect(names, staffTool).not.toContain(staffTool);
    }

    const token = provider.saved!.access_token;
    const own = await callTool(token, "orders.get", { orderId: data.mine });
    expect(own.body.result?.isError).toBeFalsy();
    expect(own.body.result?.structuredContent).toMatchObject({ id: data.mine });
    const listed = await callTool(token, "user.list_orders", { limit: 50 });
    expect(JSON.stringify(listed.body.result?.structuredContent)).toContain(data.mine);
    const other = await callTool(token, "orders.get", { orderId: data.theirs });
    expect(other.body.result?.isError).toBe(true);
    expect(other.body.result?.structuredContent).toMatchObject({ status: 404 });
    const addresses = await callTool(token, "customer.list_addresses", {});
    expect(JSON.stringify(addresses.body.result?.structuredContent)).toContain("Nørregade 7");

    // A tool of a scope not given: 403 insufficient_scope naming the shopper scope to ask for.
    const support = await callTool(token, "support.create_ticket", { email: data.customer.email, subject: "Hej", body: "Hej" });
    expect(support.status).toBe(403);
    expect(support.headers.get("www-authenticate")).toContain('scope="shopper:support"');
    // A staff tool stays refused as outside the token's tools.
    const staffCall = await callTool(token, "orders.list", {});
    expect(staffCall.body.result?.structuredContent).toMatchObject({ status: 403 });

    // Changes are made as the grant's storefront session, by the app.
    const product = await server.prisma.product.findFirstOrThrow({ where: { variants: { none: {} }, stock: { gt: 5 } }, select: { slug: true } });
    const added = await callTool(token, "cart.add", { productSlug: product.slug, quantity: 1 });
    expect(added.body.result?.isError, JSON.stringify(added.body)).toBeFalsy();
    await client.close();

    // Refresh rotates; the new access token works.
    const first = provider.saved!;
    provider.saved = { ...first, access_token: "expired-on-purpose" };
    expect(await auth(provider, { serverUrl: shopperUrl() })).toBe("AUTHORIZED");
    expect(provider.saved!.refresh_token).not.toBe(first.refresh_token);
    expect((await rpc(provider.saved!.access_token, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(200);

    // "Forbundne apps" on /account lists the app; disconnecting it ends its tokens (401).
    const account = await browser.get("/account");
    expect(account.html).toContain("Forbundne apps");
    expect(account.html).toContain("Indkøbsagent");
    const grantId = /action="\/account\/apps\/([^/"]+)\/revoke"/.exec(account.html)![1]!;
    // Using the app is a visit to its session: the retention pass keeps the app's cart while the app is in use.
    const sessionId = `oauth_${grantId}`;
    await server.prisma.storefrontSession.update({ where: { id: sessionId }, data: { lastSeenAt: new Date(Date.now() - 100 * 24 * 3600_000) } });
    await server.prisma.oAuthRecord.updateMany({ where: { kind: "Grant", id: grantId }, data: { lastUsedAt: new Date(Date.now() - 120_000) } });
    expect((await rpc(provider.saved!.access_token, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(200);
    const seen = await poll(() => server.prisma.storefrontSession.findUniqueOrThrow({ where: { id: sessionId } }), (row) => Date.now() - row.lastSeenAt.getTime() < 60_000, 10_000);
    expect(Date.now() - seen.lastSeenAt.getTime()).toBeLessThan(60_000);
    const revoked = await browser.post(`/account/apps/${grantId}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe("/account?notice=app-revoked#apps");
    const after = await rpc(provider.saved!.access_token, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await browser.get("/account")).html).not.toContain("Indkøbsagent");
    const entry = await server.prisma.auditEntry.findFirstOrThrow({ where: { tool: "user.revoke_app" }, orderBy: { createdAt: "desc" } });
    expect(entry).toMatchObject({ subjectType: "oauthGrant", subjectId: grantId });
  });

  it("revokes a token at /oauth/revoke, and another customer cannot disconnect a shopper's app", async () => {
    const provider = new MemoryProvider({ clientName: "Indkøbsagent" });
    const transport = new StreamableHTTPClientTransport(shopperUrl(), { authProvider: provider });
    await expect(new Client({ name: "shopper-test", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const browser = new WebClient(server);
    const { callback } = await consent(browser, provider.authorizationUrl!, data.customer.email);
    await transport.finishAuth(callback);
    const token = provider.saved!.access_token;
    expect((await rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(200);

    const grantId = /action="\/account\/apps\/([^/"]+)\/revoke"/.exec((await browser.get("/account")).html)![1]!;
    const stranger = new WebClient(server);
    const otherCustomer = await server.prisma.order.findUniqueOrThrow({ where: { id: data.theirs }, select: { email: true } });
    const page = await stranger.get("/account");
    await signIn(stranger, { ...page, html: page.html.replace('action="/account/login" method="post">', 'action="/account/login" method="post"><input type="hidden" name="next" value="/account">') }, otherCustomer.email);
    const refused = await stranger.post(`/account/apps/${grantId}/revoke`, {});
    expect(refused.status).toBe(404);
    expect((await rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(200);

    const revoked = await fetch(`${base}/oauth/revoke`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token, client_id: provider.info!.client_id }) });
    expect(revoked.status).toBe(200);
    expect((await rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(401);
  });

  it("answers an unknown authorization as expired, and refuses a guest's disconnect", async () => {
    const browser = new WebClient(server);
    const page = await browser.get("/account/oauth/does-not-exist");
    expect(page.status).toBe(400);
    expect(page.html).toContain("Forespørgslen er udløbet");
    // A guest disconnecting an app: refused (no customer), never a 500; a malformed id is not found.
    await browser.get("/");
    await browser.get("/account");
    const guest = await browser.post("/account/apps/some-grant/revoke", {});
    expect(guest.status).toBe(422);
    expect((await browser.post("/account/apps/bad%20id/revoke", {})).status).toBe(404);
  });
});

describe("UCP identity linking", () => {
  const UCP_SCOPES = "dev.ucp.shopping.checkout:manage dev.ucp.shopping.order:read";
  const STRANGER = "agent.buyer@example.dk";
  const pay = { payment: { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token: "success_token" } }] } };

  /** A UCP platform's account linking (RFC 8414 discovery, DCR, authorization code with PKCE, no resource indicator). */
  async function link(email: string): Promise<string> {
    const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as { scopes_supported: string[]; registration_endpoint: string; token_endpoint: string; authorization_response_iss_parameter_supported: boolean };
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(UCP_SCOPES.split(" ")));
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    const registered = (await (await fetch(metadata.registration_endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "UCP-platform", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }) })).json()) as { client_id: string };
    const verifier = crypto.randomBytes(32).toString("base64url");
    const challenge = crypto.createHash("sha256").update(verifier).digest("base64url");
    const url = new URL(`${base}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: registered.client_id, redirect_uri: REDIRECT, scope: UCP_SCOPES, code_challenge: challenge, code_challenge_method: "S256", state: "s1" })}`);
    const { callback, consentHtml } = await consent(new WebClient(server), url, email);
    expect(consentHtml).toContain("Bestille for dig med dine gemte adresser");
    expect(callback.get("state")).toBe("s1");
    const token = (await (await fetch(metadata.token_endpoint, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "authorization_code", code: callback.get("code")!, redirect_uri: REDIRECT, code_verifier: verifier, client_id: registered.client_id }) })).json()) as { access_token: string; scope: string };
    expect(token.scope).toBe(UCP_SCOPES);
    return token.access_token;
  }

  const checkout = (headers: Record<string, string>, body: unknown) => sendJson(`${base}/ucp/checkout-sessions`, "POST", { "content-type": "application/json", ...headers }, body);

  it("is advertised in the business profiles, with the UCP resource's metadata", async () => {
    const profile = (await (await fetch(`${base}/.well-known/ucp`)).json()) as { ucp: { capabilities: Record<string, unknown> } };
    expect(profile.ucp.capabilities["dev.ucp.common.identity_linking"]).toEqual([
      { version: "2026-04-08", spec: "https://ucp.dev/2026-04-08/specification/identity-linking", schema: "https://ucp.dev/2026-04-08/schemas/common/identity_linking.json", config: { scopes: {} } },
    ]);
    const resource = (await (await fetch(`${base}/.well-known/oauth-protected-resource/ucp`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: `${base}/ucp`, authorization_servers: [base], scopes_supported: UCP_SCOPES.split(" ") });
  });

  it("offers the linked customer's saved addresses and attributes the order; without a token nothing changes", async () => {
    const [product] = await server.prisma.product.findMany({ where: { variants: { none: {} }, stock: { gt: 5 } }, take: 1, select: { id: true } });
    const body = { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: { email: STRANGER } };

    // Without a token: an e-mail that is not the customer's gets no saved address, and the order is not theirs.
    const guest = valid(checkoutResponse, await checkout({}, body));
    expect(JSON.stringify(guest.fulfillment ?? {})).not.toContain("Nørregade 7");

    const token = await link(data.customer.email);
    const linked = await checkout({ authorization: `Bearer ${token}` }, body);
    expect(linked.status, linked.text).toBe(201);
    const session = valid(checkoutResponse, linked);
    expect(JSON.stringify(session.fulfillment)).toContain("Nørregade 7");

    // Pick the saved address, pay, and the order belongs to the linked customer.
    const method = session.fulfillment!.methods[0]!;
    const saved = method.destinations!.find((destination) => destination.street_address === "Nørregade 7")!;
    const picked = await sendJson(`${base}/ucp/checkout-sessions/${session.id}`, "PUT", { "content-type": "application/json", authorization: `Bearer ${token}` }, {
      id: session.id,
      line_items: body.line_items,
      buyer: body.buyer,
      fulfillment: { methods: [{ id: method.id, type: "shipping", selected_destination_id: saved.id }] },
    });
    expect(picked.status, picked.text).toBe(200);
    const ready = valid(checkoutResponse, picked);
    const options = ready.fulfillment!.methods[0]!.groups?.[0]?.options ?? [];
    if (ready.status !== "ready_for_complete" && options.length) {
      const chosen = await sendJson(`${base}/ucp/checkout-sessions/${session.id}`, "PUT", { "content-type": "application/json", authorization: `Bearer ${token}` }, {
        id: session.id, line_items: body.line_items, buyer: body.buyer,
        fulfillment: { methods: [{ id: method.id, type: "shipping", selected_destination_id: saved.id, groups: [{ id: ready.fulfillment!.methods[0]!.groups![0]!.id, selected_option_id: options[0]!.id }] }] },
      });
      expect(chosen.status, chosen.text).toBe(200);
    }
    const completed = await sendJson(`${base}/ucp/checkout-sessions/${session.id}/complete`, "POST", { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": `link-${session.id}` }, pay);
    expect(completed.status, completed.text).toBe(200);
    const orderId = valid(checkoutResponse, completed).order!.id;
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order).toMatchObject({ userId: data.customer.id, email: STRANGER, shippingAddress: "Nørregade 7" });

    // A made-up token is refused with a challenge, never served as a guest.
    const bad = await checkout({ authorization: "Bearer not-a-token" }, body);
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });
});
