// The MCP door behind OAuth 2.1, driven by the MCP TypeScript SDK's own client: discovery from the 401, registration
// by Client ID Metadata Document and by dynamic registration, PKCE, the staff sign-in and consent over HTTP, tools/list
// and a call with the token, refresh (rotating), revocation. API keys keep working beside tokens.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auth,
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import listGrantsTool from "../../src/tools/keys/list_grants.ts";
import { TOOLSETS, toolsetOf } from "../../src/tools/toolsets.ts";
import { AdminClient, csrfOf, staffUser } from "../support/admin.ts";
import { MemoryProvider, REDIRECT } from "../support/oauth-client.ts";
import { freePort, useServer, type StartOptions } from "../support/server.ts";

const STAFF = "ejer@nordlys.test";
const STAFF_SCOPES = ["orders:read", "orders:write", "catalog:read", "products:write", "keys:read", "keys:write"];

const start: StartOptions = {};
let base = "";
beforeAll(async () => {
  start.port = await freePort();
  base = `http://127.0.0.1:${start.port}`;
});
const { server, keys } = useServer({
  config: () => ({ publicBaseUrl: base, mcpOAuthRequired: true, oauthLoopbackClientIds: true }),
  start,
  keys: { reader: ["orders:read"] },
});

// The metadata document a client publishes at its client id (MCP 2025-11-25).
let documentServer: http.Server;
let documentUrl = "";
beforeAll(async () => {
  documentServer = http.createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ client_id: documentUrl, client_name: "Claude (test)", client_uri: "https://claude.example", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }));
  });
  await new Promise<void>((resolve) => documentServer.listen(0, "127.0.0.1", resolve));
  documentUrl = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}/oauth/client.json`;
});
afterAll(() => new Promise<void>((resolve) => documentServer.close(() => resolve())));

const mcpUrl = () => new URL(`${base}/api/mcp`);

/**
 * Plays the browser: follows the authorization URL through the admin's sign-in and the consent page, unticking
 * `untick` and ticking only `toolsets` (all when not named), and returns the code the client's redirect URI receives.
 */
async function consent(browser: AdminClient, authorizationUrl: URL, untick: string[] = [], toolsets?: string[]): Promise<{ callback: URLSearchParams; consentHtml: string }> {
  let page = await browser.get(authorizationUrl.pathname + authorizationUrl.search);
  expect(page.status, page.html.slice(0, 300)).toBe(303);
  const interaction = new URL(page.location!, base).pathname;
  expect(interaction).toMatch(/^\/admin\/oauth\/[\w-]+$/);
  page = await browser.get(interaction);
  if (page.status === 303) {
    // Not signed in yet: the admin's own sign-in page, which comes back here.
    expect(page.location).toBe(`/admin/login?next=${encodeURIComponent(interaction)}`);
    const login = await browser.get(page.location!);
    const signedIn = await browser.request("POST", "/admin/login", { form: { _csrf: csrfOf(login.html), email: STAFF, password: "kaffe og wienerbrød", next: interaction } });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(interaction);
    page = await browser.get(interaction);
  }
  expect(page.status, page.html.slice(0, 500)).toBe(200);
  const consentHtml = page.html;
  const form = new URLSearchParams({ _csrf: csrfOf(page.html), decision: "allow" });
  for (const [, scope] of page.html.matchAll(/name="scopes" value="([^"]+)"/g)) if (!untick.includes(scope!)) form.append("scopes", scope!);
  for (const [, toolset] of page.html.matchAll(/name="toolsets" value="([^"]+)" checked/g)) if (!toolsets || toolsets.includes(toolset!)) form.append("toolsets", toolset!);
  return { callback: await followBack(browser, await browser.request("POST", interaction, { form })), consentHtml };
}

/** Follows the consent form's answer back to the client; returns the query its redirect URI receives (with a code). */
async function followBack(browser: AdminClient, first: Awaited<ReturnType<AdminClient["request"]>>): Promise<URLSearchParams> {
  let answer = first;
  expect(answer.status, answer.html.slice(0, 300)).toBe(303);
  // The provider resumes the authorization and sends the browser back to the client with a code.
  while (answer.location && !answer.location.startsWith(REDIRECT)) {
    const next = new URL(answer.location, base);
    answer = await browser.get(next.pathname + next.search);
    expect([302, 303], `${next.pathname} ${answer.html.slice(0, 800)}`).toContain(answer.status);
  }
  const back = new URL(answer.location!);
  expect(back.searchParams.get("error")).toBeNull();
  expect(back.searchParams.get("code")).toBeTruthy();
  expect(back.searchParams.get("iss")).toBe(base);
  return back.searchParams;
}

async function connect(provider: MemoryProvider, url: URL = mcpUrl()): Promise<Client> {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

/** Connects, signs in and consents through the SDK's flow; returns the connected client. */
async function authorize(provider: MemoryProvider, browser: AdminClient, untick: string[] = [], toolsets?: string[]): Promise<{ client: Client; consentHtml: string }> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  await expect(new Client({ name: "oauth-test", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).toBeDefined();
  const { callback, consentHtml } = await consent(browser, provider.authorizationUrl!, untick, toolsets);
  await transport.finishAuth(callback);
  expect(provider.saved?.access_token).toBeTruthy();
  return { client: await connect(provider), consentHtml };
}

const rpc = (token: string, body: unknown) =>
  fetch(`${base}/api/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

describe("the MCP door as an OAuth resource server", () => {
  beforeAll(async () => {
    await staffUser(server, STAFF, STAFF_SCOPES);
  });

  it("answers a request without credentials with 401 and the resource metadata to discover", async () => {
    const response = await fetch(`${base}/api/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate")!;
    expect(challenge).toMatch(new RegExp(`^Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`));
    expect(challenge).toContain('scope="');

    const resource = (await (await fetch(`${base}/.well-known/oauth-protected-resource/api/mcp`)).json()) as { scopes_supported: string[] };
    expect(resource).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base], bearer_methods_supported: ["header"] });
    expect(resource.scopes_supported).toContain("orders:read");

    const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as { grant_types_supported: string[] };
    expect(metadata).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
    });
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
    expect((await fetch(`${base}/.well-known/openid-configuration`)).status).toBe(200);
  });

  it("keeps API keys working beside tokens, and refuses a made-up token with invalid_token", async () => {
    const listed = await rpc(keys.reader, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(listed.status).toBe(200);
    const made = await rpc("not-a-token-at-all", { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(made.status).toBe(401);
    expect(made.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("registers by metadata document, signs the staff user in, narrows to the ticked scopes and acts as that user", async () => {
    const provider = new MemoryProvider({ clientName: "Testagent (DCR)", metadataUrl: documentUrl });
    const browser = new AdminClient(server);
    const { client, consentHtml } = await authorize(provider, browser, ["products:write", "keys:read", "keys:write"]);
    // The consent page names the app from its metadata document and the scopes as Danish sentences.
    expect(consentHtml).toContain("Claude (test) vil have adgang til butikken");
    expect(consentHtml).toContain("Læse ordrer og deres historik");
    expect(consentHtml).toContain("adgange, du ikke selv har");

    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("orders.list");
    expect(names).toContain("orders.add_note");
    expect(names).not.toContain("products.update");
    expect(names).not.toContain("keys.list");

    const listed = await client.callTool({ name: "orders.list", arguments: { limit: 2 } });
    expect(listed.isError).toBeFalsy();
    const noted = await client.callTool({ name: "orders.add_note", arguments: { orderId: "demo-order-19", body: "Noteret af en app." } });
    expect(noted.isError).toBeFalsy();
    const entry = await server.prisma.auditEntry.findFirstOrThrow({ where: { tool: "orders.add_note" }, orderBy: { createdAt: "desc" } });
    const staff = await server.prisma.adminUser.findUniqueOrThrow({ where: { email: STAFF } });
    expect(entry).toMatchObject({ actor: `staff:${staff.id}`, door: "mcp", agent: `oauth:${documentUrl}` });

    // A tool beyond the token's scopes: 403 insufficient_scope, naming the scope to ask for.
    const token = provider.saved!.access_token;
    const refused = await rpc(token, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "products.update", arguments: {} } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toMatch(/error="insufficient_scope"/);
    expect(refused.headers.get("www-authenticate")).toContain('scope="products:write"');
    await client.close();

    // The admin's "Forbundne apps" lists the grant with its app, user, scopes and last use.
    const apps = await browser.get("/admin/apps");
    expect(apps.status).toBe(200);
    expect(apps.html).toContain("Claude (test)");
    expect(apps.html).toContain(STAFF);
    expect(apps.html).toContain("orders:write");
    expect(apps.html).not.toMatch(/<span class="tag"[^>]*>products:write/);
  });

  it("registers dynamically (RFC 7591), refreshes with rotation, and a revoked token gets 401", async () => {
    const provider = new MemoryProvider({ clientName: "Testagent (DCR)" });
    const browser = new AdminClient(server);
    const { client } = await authorize(provider, browser);
    expect(provider.info?.client_id).toBeTruthy();
    expect(provider.info?.client_id).not.toBe(documentUrl);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("products.update");
    await client.close();

    // Refresh: a new access and refresh token; the old refresh token is spent.
    const first = provider.saved!;
    expect(first.refresh_token).toBeTruthy();
    provider.saved = { ...first, access_token: "expired-on-purpose" };
    const result = await auth(provider, { serverUrl: mcpUrl() });
    expect(result).toBe("AUTHORIZED");
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await rpc(second.access_token, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(200);

    // Revocation (RFC 7009): the token stops working at once.
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: second.access_token, client_id: provider.info!.client_id }),
    });
    expect(revoked.status).toBe(200);
    const after = await rpc(second.access_token, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');

    // The spent refresh token is refused, and its reuse ends the grant: the newer refresh token dies with it.
    const refresh = (token: string) =>
      fetch(`${base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: provider.info!.client_id }),
      });
    expect((await refresh(first.refresh_token!)).status).toBe(400);
    expect((await refresh(second.refresh_token!)).status).toBe(400);
  });

  it("revokes a whole grant from Forbundne apps, audited", async () => {
    const provider = new MemoryProvider({ clientName: "Testagent (DCR)" });
    const browser = new AdminClient(server);
    const { client } = await authorize(provider, browser);
    await client.close();
    const token = provider.saved!.access_token;
    const apps = await browser.get("/admin/apps");
    const grantIds = [...apps.html.matchAll(/action="\/admin\/apps\/([^/"]+)\/revoke"/g)].map((match) => match[1]!);
    expect(grantIds.length).toBeGreaterThan(0);
    for (const id of grantIds) {
      const done = await browser.request("POST", `/admin/apps/${id}/revoke`, { form: { _csrf: csrfOf(apps.html) } });
      expect(done.status).toBe(303);
    }
    expect((await rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(401);
    const entry = await server.prisma.auditEntry.findFirstOrThrow({ where: { tool: "keys.revoke_grant" }, orderBy: { createdAt: "desc" } });
    expect(entry).toMatchObject({ subjectType: "oauthGrant", door: "admin" });
    expect((await browser.get("/admin/apps")).html).toContain("Ingen forbundne apps");
  });

  it("refuses plain PKCE, a missing code challenge and another resource", async () => {
    const provider = new MemoryProvider({ clientName: "Testagent (DCR)", metadataUrl: documentUrl });
    const query = (extra: Record<string, string>) =>
      `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: provider.info!.client_id, redirect_uri: REDIRECT, scope: "orders:read", ...extra })}`;
    const browser = new AdminClient(server);
    const tries: Array<Record<string, string>> = [{}, { code_challenge: "a".repeat(43), code_challenge_method: "plain" }, { code_challenge: "a".repeat(43), code_challenge_method: "S256", resource: "https://elsewhere.example/mcp" }];
    for (const extra of tries) {
      const page = await browser.get(query(extra));
      const location = page.location ? new URL(page.location, base) : undefined;
      const error = location?.searchParams.get("error") ?? page.html;
      expect(error).toMatch(/invalid_request|invalid_target/);
    }
  });

  it("limits a grant to the toolsets ticked on the consent page, through refresh, narrowed further by ?toolsets", async () => {
    const provider = new MemoryProvider({ clientName: "Testagent (DCR)" });
    const browser = new AdminClient(server);
    const { client, consentHtml } = await authorize(provider, browser, [], ["orders", "products"]);
    // The consent page offers every toolset, all ticked.
    expect(consentHtml).toContain("Værktøjer appen må bruge");
    expect([...consentHtml.matchAll(/name="toolsets" value="([^"]+)" checked/g)].map((match) => match[1])).toEqual([...TOOLSETS]);

    const areas = async (listed: Client) => [...new Set((await listed.listTools()).tools.map((tool) => toolsetOf(tool.name)))].sort();
    expect(await areas(client)).toEqual(["orders", "products"]);
    // A tool of a scope the grant holds (keys:read) but outside its toolsets: the 403 problem of a limited key.
    const outside = await client.callTool({ name: "keys.list", arguments: {} });
    expect(outside.isError).toBe(true);
    expect(outside.structuredContent).toMatchObject({ status: 403, code: "forbidden", detail: "keys.list is outside this caller's toolsets (orders, products)." });
    await client.close();

    // ?toolsets= narrows within the grant's toolsets and never widens them.
    const narrowed = await connect(provider, new URL(`${base}/api/mcp?toolsets=orders,keys`));
    expect(await areas(narrowed)).toEqual(["orders"]);
    await narrowed.close();

    // A refreshed token is of the same grant: the same limit.
    provider.saved = { ...provider.saved!, access_token: "expired-on-purpose" };
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe("AUTHORIZED");
    const refreshed = await connect(provider);
    expect(await areas(refreshed)).toEqual(["orders", "products"]);
    await refreshed.close();

    // Forbundne apps shows the limit; keys.list_grants (internal) carries it.
    const apps = await browser.get("/admin/apps");
    expect(apps.html).toContain("Kun værktøjssæt: orders, products");
    const grantId = (await server.prisma.oAuthRecord.findFirstOrThrow({ where: { kind: "GrantToolsets" }, orderBy: { createdAt: "desc" } })).id;
    const grants = await server.runtime.executor.call(listGrantsTool, {}, { caller: { kind: "system", actor: "system:test", scopes: new Set(["*"]) }, door: "system" });
    expect(grants.find((grant) => grant.id === grantId)?.toolsets).toEqual(["orders", "products"]);

    // Ending the grant ends its limit record too.
    expect((await browser.request("POST", `/admin/apps/${grantId}/revoke`, { form: { _csrf: csrfOf(apps.html) } })).status).toBe(303);
    expect(await server.prisma.oAuthRecord.count({ where: { kind: "GrantToolsets", id: grantId } })).toBe(0);
  });

  it("refuses a consent with no toolset ticked with a Danish 400 on the consent page, and takes the next answer", async () => {
    const provider = new MemoryProvider({ clientName: "Testagent (DCR)" });
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await expect(new Client({ name: "oauth-test", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const browser = new AdminClient(server);
    await browser.signIn(STAFF);
    const url = provider.authorizationUrl!;
    const interaction = new URL((await browser.get(url.pathname + url.search)).location!, base).pathname;
    const page = await browser.get(interaction);
    const refused = await browser.request("POST", interaction, { form: new URLSearchParams({ _csrf: csrfOf(page.html), decision: "allow", scopes: "orders:read" }) });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("Vælg mindst ét område under “Værktøjer appen må bruge”");
    // The staff user's ticks are kept: orders:read ticked, orders:write not, no toolset.
    expect(refused.html).toMatch(/value="orders:read" checked/);
    expect(refused.html).not.toMatch(/value="orders:write" checked/);
    expect(refused.html).not.toMatch(/name="toolsets" value="[^"]+" checked/);
    expect(await server.prisma.oAuthRecord.count({ where: { kind: "Grant", payload: { path: ["clientId"], equals: provider.info!.client_id } } })).toBe(0);

    const answer = await browser.request("POST", interaction, { form: new URLSearchParams([["_csrf", csrfOf(refused.html)], ["decision", "allow"], ["scopes", "orders:read"], ["toolsets", "orders"]]) });
    await transport.finishAuth(await followBack(browser, answer));
    const client = await connect(provider);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("orders.list");
    expect(names.every((name) => toolsetOf(name) === "orders")).toBe(true);
    await client.close();
  });

  it("refuses a denied consent with access_denied", async () => {
    const provider = new MemoryProvider({ clientName: "Testagent (DCR)", metadataUrl: documentUrl });
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await expect(new Client({ name: "oauth-test", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const browser = new AdminClient(server);
    await browser.signIn(STAFF);
    const url = provider.authorizationUrl!;
    const first = await browser.get(url.pathname + url.search);
    const interaction = new URL(first.location!, base).pathname;
    const page = await browser.get(interaction);
    let answer = await browser.request("POST", interaction, { form: { _csrf: csrfOf(page.html), decision: "deny" } });
    while (answer.location && !answer.location.startsWith(REDIRECT)) {
      const next = new URL(answer.location, base);
      answer = await browser.get(next.pathname + next.search);
    }
    expect(new URL(answer.location!).searchParams.get("error")).toBe("access_denied");
  });
});

describe("Client ID Metadata Documents at http://127.0.0.1 without OAUTH_LOOPBACK_CLIENT_IDS", () => {
  const plain = useServer();

  it("are refused as unknown clients", async () => {
    const url = `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: documentUrl, redirect_uri: REDIRECT, scope: "orders:read", code_challenge: "a".repeat(43), code_challenge_method: "S256" })}`;
    const response = await fetch(`${plain.server.url}${url}`, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("invalid_client");
  });
});
