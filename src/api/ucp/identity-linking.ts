// UCP identity linking (dev.ucp.common.identity_linking, 2026-04-08): the business profile names the capability with the
// scopes it accepts, and the shop's own OAuth authorization server (RFC 8414 discovery at the shop's base URL) issues
// shopper tokens for the UCP resource (<base>/ucp). A request to the UCP REST or MCP door with such a token acts as the
// linked customer's storefront session: checkouts offer the customer's saved addresses as destinations and the orders
// they place belong to the customer. Without a token nothing changes; an API key goes on as before.
import type { Request, Response } from "express";
import { RateLimited, Unauthorized } from "../../core/errors.ts";
import { requestAddress } from "../../http/address.ts";
import { admit, admitCaller, type Gate } from "../../http/requests.ts";
import type { Caller } from "../../tools/context.ts";
import { SESSION_SCOPES } from "../../tools/scopes.ts";
import { UCP_IDENTITY_SCOPES } from "../../tools/keys/shopper-scopes.ts";

export const IDENTITY_LINKING = "dev.ucp.common.identity_linking";

/** What the UCP doors need of the shop's authorization server (src/api/oauth/authorization-server.ts). */
export interface UcpIdentity {
  issuer: string;
  /** The resource UCP tokens are bound to. */
  ucpResource: string;
  verify(token: string, resource: string): Promise<{ kind: "staff" | "shopper"; clientId: string; customerId?: string; sessionId?: string } | undefined>;
}

/**
 * The capability's entry in a business profile of `version`: nothing is gated (config.scopes is empty: guest checkout
 * and orders work without a user); the scopes a platform may ask for to link a customer (UCP_IDENTITY_SCOPES) are the
 * optional layer the spec describes, listed in the authorization server's scopes_supported.
 */
export function identityLinkingEntry(version: string): Record<string, unknown> {
  return {
    version,
    // The cut of 2026-08-25 moved the page under common/, beside the schema.
    spec: `https://ucp.dev/${version}/specification/${version >= "2026-08-25" ? "common/" : ""}identity-linking`,
    schema: `https://ucp.dev/${version}/schemas/common/identity_linking.json`,
    config: { scopes: {} },
  };
}

/** Adds the capability to a profile's capabilities map (a new entry; the others stay as they are). */
export function withIdentityLinking<P extends { ucp: { version: string; capabilities: Record<string, unknown> } }>(profile: P): P {
  profile.ucp.capabilities[IDENTITY_LINKING] = [identityLinkingEntry(profile.ucp.version)];
  return profile;
}

/** The Bearer credential of a request that is not an API key (keys start with shop_), if any. */
function tokenOf(req: Request): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
  return bearer && !bearer.startsWith("shop_") ? bearer : undefined;
}

/**
 * The caller of a UCP request: a linked customer's storefront session for a valid shopper token of the UCP resource;
 * 401 with a WWW-Authenticate challenge for any other token; else the door's usual admission (keys, anonymous).
 */
export async function admitLinked(gate: Gate, req: Request, res: Response, identity: UcpIdentity | undefined): Promise<Caller> {
  const token = identity ? tokenOf(req) : undefined;
  if (!identity || token === undefined) return admit(gate, req, res);
  // A wrong token counts against the address's failed-authentication budget, as a wrong key does.
  const address = requestAddress(req);
  const blocked = await gate.limiter.authBlocked(address);
  if (blocked !== null) throw new RateLimited(blocked);
  const found = await identity.verify(token, identity.ucpResource);
  if (found?.kind !== "shopper" || !found.customerId || !found.sessionId) {
    await gate.limiter.authFailed(address);
    res.set("WWW-Authenticate", `Bearer realm="${identity.issuer}", error="invalid_token", resource_metadata="${identity.issuer}/.well-known/oauth-protected-resource/ucp"`);
    throw new Unauthorized("The API key or access token is invalid, expired, revoked or meant for another resource.");
  }
  const caller: Caller = {
    kind: "session",
    actor: `session:${found.sessionId}`,
    scopes: new Set(SESSION_SCOPES),
    session: { id: found.sessionId, customerId: found.customerId, persistent: true },
    oauthClient: found.clientId,
    address,
  };
  await admitCaller(gate.limiter, caller, res);
  return caller;
}

/** The RFC 9728 metadata of the UCP resource: the shop's authorization server and the identity-linking scopes. */
export function ucpResourceMetadata(identity: UcpIdentity): Record<string, unknown> {
  return {
    resource: identity.ucpResource,
    authorization_servers: [identity.issuer],
    scopes_supported: [...UCP_IDENTITY_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Butikkens UCP-endpoints",
    resource_documentation: `${identity.issuer}/docs/ucp`,
  };
}
