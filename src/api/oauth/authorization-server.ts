// The shop as an OAuth 2.1 authorization server for its own MCP door, on oidc-provider (OpenID-certified; no protocol
// code here): authorization code with PKCE (S256), refresh tokens that rotate, revocation, RFC 8414/OpenID discovery,
// clients by Client ID Metadata Document or dynamic registration (RFC 7591), and resource indicators (RFC 8707) that
// bind every access token to /api/mcp. Its records live in the database (OAuthRecord), so any process may answer.
// Staff sign in and consent on the admin's pages (src/web/admin/pages/oauth.ts) through OAuthInteractions; shoppers on the
// storefront's (src/web/storefront/pages/connected-apps.ts), by their e-mail code. Which one an authorization request is
// its scopes and resource decide (isShopperRequest): shopper scopes only, or the UCP resource, make it a shopper's.
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
// oidc-provider (~90 ms of CPU and ~10 MB to load) loads with the first OAuth request or token check, not at start-up.
import type Provider from "oidc-provider";
import type { Adapter, AdapterPayload, ClientInstance, errors as OidcErrors, KoaContext } from "oidc-provider";
import type { Config } from "../../core/config.ts";
import type { Logger } from "../../core/log.ts";
import type { OAuthStore } from "../../tools/keys/oauth-store.ts";
import type { SigningKeys } from "../../tools/keys/signing-keys.ts";
import type { OAuthInteractions, PendingAuthorization } from "../../http/oauth-interactions.ts";
import { SCOPES } from "../../tools/scopes.ts";
import { customerAccount, customerOfAccount, isShopperRequest, SHOPPER_SCOPES, UCP_IDENTITY_SCOPES } from "../../tools/keys/shopper-scopes.ts";

/** Where the provider's endpoints live (the discovery documents name them). */
export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
  userinfo: "/oauth/userinfo",
  end_session: "/oauth/logout",
  introspection: "/oauth/introspect",
  pushed_authorization_request: "/oauth/par",
} as const;

/** The scopes a token for the MCP door may carry: the shop's own, as API keys and staff users carry them. */
export const MCP_SCOPES: readonly string[] = SCOPES;

/** How often the current signing key is looked up (a rotation makes a new provider with it). */
const KEY_CHECK_MS = 60_000;

const DAY_S = 86_400;

/** The shop scopes and shopper scopes a token for the MCP door may carry. */
const MCP_RESOURCE_SCOPES: readonly string[] = [...MCP_SCOPES, ...SHOPPER_SCOPES];

/** A valid access token, as a resource server acts on it: a staff user's, or a shopper's (a storefront customer). */
export type VerifiedToken =
  | { kind: "staff"; staffId: string; clientId: string; grantId: string; scopes: string[]; toolsets?: string[] }
  | { kind: "shopper"; customerId: string; sessionId: string; clientId: string; grantId: string; scopes: string[] };

export interface AuthorizationServerDeps {
  config: Config;
  log: Logger;
  store: OAuthStore;
  signingKeys: SigningKeys;
  /** Signs the provider's cookies. */
  secret: string;
}

export class AuthorizationServer implements OAuthInteractions {
  readonly issuer: string;
  /** The resource every token is bound to: this shop's MCP endpoint. */
  readonly resource: string;
  /** The UCP REST and MCP endpoints' resource (identity linking): shopper tokens only. */
  readonly ucpResource: string;
  private readonly deps: AuthorizationServerDeps;
  private current: { provider: Provider; kid: string } | undefined;
  private building: Promise<Provider> | undefined;
  private checkedAt = 0;

  constructor(deps: AuthorizationServerDeps) {
    this.deps = deps;
    this.issuer = deps.config.publicBaseUrl;
    this.resource = `${deps.config.publicBaseUrl}/api/mcp`;
    this.ucpResource = `${deps.config.publicBaseUrl}/ucp`;
  }

  /** The provider signing with the shop's current key (rebuilt after a rotation; its state is all in the database). */
  provider(): Promise<Provider> {
    const now = Date.now();
    if (this.current && now - this.checkedAt < KEY_CHECK_MS) return Promise.resolve(this.current.provider);
    this.building ??= this.build().finally(() => {
      this.building = undefined;
    });
    return this.building;
  }

  /** Answers a request to one of the provider's endpoints (or discovery documents). */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const provider = await this.provider();
    provider.callback()(req, res);
  }

  async pending(req: IncomingMessage, res: ServerResponse): Promise<PendingAuthorization> {
    const provider = await this.provider();
    const details = await provider.interactionDetails(req, res);
    const clientId = String(details.params.client_id ?? "");
    const client = await provider.Client.find(clientId);
    const asked = new Set(String(details.params.scope ?? "").split(" ").filter(Boolean));
    const shopper = isShopperRequest(details.params.scope, details.params.resource, this.ucpResource);
    const resource = typeof details.params.resource === "string" ? details.params.resource : this.defaultResourceOf(details.params.scope);
    const known = resource === this.ucpResource ? UCP_IDENTITY_SCOPES : shopper ? SHOPPER_SCOPES : MCP_SCOPES;
    return {
      uid: details.uid,
      audience: shopper ? "shopper" : "staff",
      clientId,
      clientName: client?.clientName ?? null,
      clientUri: client?.clientUri ?? null,
      redirectUri: typeof details.params.redirect_uri === "string" ? details.params.redirect_uri : null,
      resource,
      scopes: known.filter((scope) => asked.has(scope)),
    };
  }

  /** The resource an authorization without a resource indicator is for: UCP's when it asks for UCP scopes, else MCP's. */
  private defaultResourceOf(scope: unknown): string {
    const asked = String(scope ?? "").split(" ");
    return asked.some((name) => (UCP_IDENTITY_SCOPES as readonly string[]).includes(name)) ? this.ucpResource : this.resource;
  }

  approve(req: IncomingMessage, res: ServerResponse, staffId: string, scopes: readonly string[], toolsets?: readonly string[]): Promise<string> {
    return this.grant(req, res, "staff", staffId, scopes, toolsets);
  }

  approveShopper(req: IncomingMessage, res: ServerResponse, customerId: string, scopes: readonly string[]): Promise<string> {
    return this.grant(req, res, "shopper", customerAccount(customerId), scopes);
  }

  /** Grants the ticked scopes of the pending authorization to its client, for this account; refuses every other one asked. */
  private async grant(req: IncomingMessage, res: ServerResponse, audience: "staff" | "shopper", accountId: string, scopes: readonly string[], toolsets?: readonly string[]): Promise<string> {
    const provider = await this.provider();
    const details = await provider.interactionDetails(req, res);
    const clientId = String(details.params.client_id ?? "");
    const pending = await this.pending(req, res);
    if (pending.audience !== audience) throw new Error(`This authorization is a ${pending.audience}'s, not a ${audience}'s.`);
    const granted = pending.scopes.filter((scope) => scopes.includes(scope));
    const asked = String(details.params.scope ?? "").split(" ").filter((scope) => scope && scope !== "openid" && scope !== "offline_access");
    const rejected = asked.filter((scope) => !granted.includes(scope));
    // An earlier grant of this client is extended only when the same account signed in before.
    const earlier = details.grantId && details.session?.accountId === accountId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = earlier ?? new provider.Grant({ accountId, clientId });
    // Each scope is granted (or refused) for the resource, and as the request's own scope (the provider checks both).
    if (granted.length) {
      grant.addResourceScope(pending.resource, granted.join(" "));
      grant.addOIDCScope(granted.join(" "));
    }
    if (rejected.length) {
      grant.rejectResourceScope(pending.resource, rejected.join(" "));
      grant.rejectOIDCScope(rejected.join(" "));
    }
    const other = String(details.params.scope ?? "").split(" ").filter((scope) => scope === "openid" || scope === "offline_access");
    if (other.length) grant.addOIDCScope(other.join(" "));
    const grantId = await grant.save();
    // The consent's toolsets (a staff grant's); a grant given again takes the newer choice.
    if (audience === "staff") await this.deps.store.setGrantToolsets(grantId, toolsets);
    const client = await provider.Client.find(clientId);
    await this.deps.store.rememberClient(clientId, client?.clientName);
    return provider.interactionResult(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  async deny(req: IncomingMessage, res: ServerResponse): Promise<string> {
    const provider = await this.provider();
    return provider.interactionResult(req, res, { error: "access_denied", error_description: "The user did not allow access." }, { mergeWithLastSubmission: false });
  }

  /**
   * The staff user or shopper and scopes an access token acts with, or undefined when it is unknown, expired, revoked or
   * meant for another resource than `resource` (the MCP door's unless named). A staff token's scopes are narrowed to the
   * user's scopes as they are now, and carries the toolsets its grant was limited to; a deleted user's or customer's token
 * is void.
   */
  async verify(token: string, resource: string = this.resource): Promise<VerifiedToken | undefined> {
    const provider = await this.provider();
    let found;
    try {
      found = await provider.AccessToken.find(token);
    } catch {
      return undefined;
    }
    if (!found || found.isExpired || !found.accountId || !found.clientId || !found.grantId) return undefined;
    const audiences = Array.isArray(found.aud) ? found.aud : found.aud ? [found.aud] : [];
    if (!audiences.includes(resource)) return undefined;
    const customerId = customerOfAccount(found.accountId);
    if (customerId !== undefined) {
      const sessionId = await this.deps.store.shopperSession(found.grantId, customerId);
      if (!sessionId) return undefined;
      const known = resource === this.ucpResource ? UCP_IDENTITY_SCOPES : SHOPPER_SCOPES;
      const scopes = String(found.scope ?? "").split(" ").filter((scope) => (known as readonly string[]).includes(scope));
      this.touch(found.grantId);
      return { kind: "shopper", customerId, sessionId, clientId: found.clientId, grantId: found.grantId, scopes };
    }
    if (resource !== this.resource) return undefined;
    const [held, toolsets] = await Promise.all([this.deps.store.staffScopes(found.accountId), this.deps.store.grantToolsets(found.grantId)]);
    if (!held) return undefined;
    const wildcard = held.includes("*");
    const scopes = String(found.scope ?? "")
      .split(" ")
      .filter((scope) => MCP_SCOPES.includes(scope) && (wildcard || held.includes(scope)));
    this.touch(found.grantId);
    return { kind: "staff", staffId: found.accountId, clientId: found.clientId, grantId: found.grantId, scopes, ...(toolsets ? { toolsets } : {}) };
  }

  private touch(grantId: string): void {
    this.deps.store.touchGrant(grantId).catch((error: unknown) => this.deps.log.warn("grant use not recorded", { error: String(error) }));
  }

  private async build(): Promise<Provider> {
    const key = await this.deps.signingKeys.current();
    this.checkedAt = Date.now();
    if (this.current?.kid === key.kid) return this.current.provider;
    const jwk = { ...key.privateKey.export({ format: "jwk" }), kid: key.kid, alg: "ES256", use: "sig" };
    const oidc = await import("oidc-provider");
    const provider = new oidc.default(this.issuer, this.configuration(jwk, oidc.errors));
    provider.proxy = this.deps.config.trustProxy !== "" && this.deps.config.trustProxy !== "false";
    provider.on("server_error", (_ctx: unknown, error: unknown) => this.deps.log.error("oauth server error", { error: String(error) }));
    this.current = { provider, kid: key.kid };
    return provider;
  }

  private configuration(jwk: Record<string, unknown>, errors: typeof OidcErrors): Record<string, unknown> {
    const { store, config, secret } = this.deps;
    const resource = this.resource;
    const ucpResource = this.ucpResource;
    const defaultResourceOf = (scope: unknown) => this.defaultResourceOf(scope);
    const adapter = (name: string): Adapter => {
      const model = store.model(name);
      if (name !== "Client" || !config.oauthLoopbackClientIds) return model;
      return new LoopbackClients(model);
    };
    return {
      adapter: function OAuthAdapter(name: string) {
        return adapter(name);
      },
      clients: [],
      cookies: { keys: [crypto.createHmac("sha256", secret).update("oauth cookies").digest("base64url")] },
      findAccount: async (_ctx: unknown, id: string) => {
        const customerId = customerOfAccount(id);
        const known = customerId !== undefined ? await store.customerExists(customerId) : Boolean(await store.staffScopes(id));
        return known ? { accountId: id, claims: async () => ({ sub: id }) } : undefined;
      },
      // Shoppers sign in and consent on the storefront, staff on the admin.
      interactions: {
        url: (_ctx: unknown, interaction: { uid: string; params: Record<string, unknown> }) =>
          isShopperRequest(interaction.params.scope, interaction.params.resource, ucpResource) ? `/account/oauth/${interaction.uid}` : `/admin/oauth/${interaction.uid}`,
      },
      routes: OAUTH_ROUTES,
      // The shop scopes are the resource's (getResourceServerInfo); listed here too, registration may name them.
      scopes: [...MCP_RESOURCE_SCOPES, ...UCP_IDENTITY_SCOPES, "openid", "offline_access"],
      claims: { openid: ["sub"] },
      responseTypes: ["code"],
      pkce: { required: () => true },
      jwks: { keys: [jwk] },
      enabledJWA: { idTokenSigningAlgValues: ["ES256"], requestObjectSigningAlgValues: ["ES256"] },
      clientDefaults: { id_token_signed_response_alg: "ES256", grant_types: ["authorization_code", "refresh_token"], token_endpoint_auth_method: "none" },
      // Refresh tokens for every client allowed them (not only on offline_access), rotated on each use, outliving the sign-in.
      issueRefreshToken: async (_ctx: unknown, client: ClientInstance) => client.grantTypeAllowed("refresh_token"),
      rotateRefreshToken: true,
      expiresWithSession: async () => false,
      ttl: { AccessToken: 3600, AuthorizationCode: 60, Interaction: 3600, Session: 14 * DAY_S, Grant: 365 * DAY_S, RefreshToken: 30 * DAY_S, IdToken: 3600 },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true, initialAccessToken: false },
        revocation: { enabled: true },
        userinfo: { enabled: false },
        clientIdMetadataDocument: { enabled: true, ack: "draft-02" },
        resourceIndicators: {
          enabled: true,
          defaultResource: async (ctx: KoaContext, _client: unknown, oneOf?: string) => oneOf ?? defaultResourceOf(ctx.oidc.params?.scope),
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx: KoaContext, indicator: string) => {
            if (indicator === ucpResource) return { scope: UCP_IDENTITY_SCOPES.join(" "), audience: ucpResource, accessTokenFormat: "opaque", accessTokenTTL: 3600 };
            if (indicator !== resource) throw new errors.InvalidTarget(`This server issues tokens for ${resource} and ${ucpResource} only.`);
            return { scope: MCP_RESOURCE_SCOPES.join(" "), audience: resource, accessTokenFormat: "opaque", accessTokenTTL: 3600 };
          },
        },
      },
      renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
        ctx.type = "html";
        ctx.body = errorPage(out);
      },
    };
  }
}

/**
 * Client ID Metadata Documents at http://127.0.0.1 (OAUTH_LOOPBACK_CLIENT_IDS, for tests and local development only):
 * the library accepts https client ids alone, so such a document is fetched here and handed over as a registered client.
 */
class LoopbackClients implements Adapter {
  private readonly inner: Adapter;

  constructor(inner: Adapter) {
    this.inner = inner;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const stored = await this.inner.find(id);
    if (stored || !/^http:\/\/127\.0\.0\.1(:\d+)?\/[^#]*$/.test(id)) return stored;
    const response = await fetch(id, { headers: { accept: "application/json" }, redirect: "manual" });
    if (response.status !== 200) return undefined;
    const document = (await response.json()) as AdapterPayload;
    if (document.client_id !== id || "client_secret" in document) return undefined;
    return { token_endpoint_auth_method: "none", ...document };
  }

  upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    return this.inner.upsert(id, payload, expiresIn);
  }
  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.inner.findByUserCode(userCode);
  }
  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.inner.findByUid(uid);
  }
  consume(id: string): Promise<void> {
    return this.inner.consume(id);
  }
  destroy(id: string): Promise<void> {
    return this.inner.destroy(id);
  }
  revokeByGrantId(grantId: string): Promise<void> {
    return this.inner.revokeByGrantId(grantId);
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The provider's error page (a bad authorization request that cannot be sent back to the client), in Danish. */
function errorPage(out: Record<string, string>): string {
  const detail = out.error_description ?? out.error ?? "ukendt fejl";
  return `<!doctype html><html lang="da"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Forbindelsen kunne ikke oprettes</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>Forbindelsen kunne ikke oprettes</h1>
<p>Appen bad om adgang på en måde, butikken ikke kan godkende.</p><p><code>${escape(out.error ?? "")}</code>: ${escape(detail)}</p>
<p><a href="/admin">Til administrationen</a></p></body></html>`;
}
