// The MCP door as an OAuth resource server (RFC 9728, the MCP authorization spec): its protected-resource metadata, the
// WWW-Authenticate challenges of a missing, bad or too narrow token, and the caller an access token acts as.
import type { Request, Response } from "express";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { hasScope, SESSION_SCOPES } from "../tools/scopes.ts";
import { SHOPPER_SCOPES, shopperToolsets } from "../tools/keys/shopper-scopes.ts";
import { storedToolsets, toolsetsAllow } from "../tools/toolsets.ts";

/** A valid access token as the authorization server vouches for it: a staff user's, or a storefront customer's. */
export type McpToken =
  | { kind: "staff"; staffId: string; clientId: string; scopes: readonly string[]; toolsets?: readonly string[] }
  | { kind: "shopper"; customerId: string; sessionId: string; clientId: string; scopes: readonly string[] };

/** What the MCP door needs of the shop's authorization server (src/api/oauth/authorization-server.ts). */
export interface McpOAuth {
  /** The authorization server's issuer. */
  issuer: string;
  /** This resource: the MCP endpoint's URL, the audience of its tokens. */
  resource: string;
  /** The staff scopes a token for this resource may carry (a 401's challenge asks for them). */
  scopes: readonly string[];
  /** The shopper scopes it may carry besides (listed in the metadata). */
  shopperScopes?: readonly string[];
  /** MCP_OAUTH_REQUIRED: a request with neither key nor token is refused with 401 (so OAuth clients start their flow). */
  required: boolean;
  verify(token: string): Promise<McpToken | undefined>;
}

/** The RFC 9728 document at /.well-known/oauth-protected-resource/api/mcp. */
export function resourceMetadata(oauth: McpOAuth): Record<string, unknown> {
  return {
    resource: oauth.resource,
    authorization_servers: [oauth.issuer],
    scopes_supported: [...oauth.scopes, ...(oauth.shopperScopes ?? [])],
    bearer_methods_supported: ["header"],
    resource_name: "Butikkens MCP-server",
    resource_documentation: `${oauth.issuer}/docs/mcp`,
  };
}

export function resourceMetadataUrl(oauth: McpOAuth): string {
  return `${new URL(oauth.resource).origin}/.well-known/oauth-protected-resource${new URL(oauth.resource).pathname}`;
}

/** The Bearer credential of a request, if its Authorization header is one. */
export function bearerOf(req: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
}

/**
 * The caller an access token acts as, by its client. A staff token: its staff user (the audit's actor), within the token's
 * scopes and the toolsets its grant was limited to on the consent page. A shopper token: the storefront session of its grant, signed in to the customer, as a signed-in shopper is,
 * limited to the toolsets its shopper scopes open.
 */
export function tokenCaller(token: McpToken, address: string): Caller {
  if (token.kind === "shopper") return shopperCaller(token, address);
  const caller: Caller = { kind: "staff", actor: `staff:${token.staffId}`, scopes: new Set(token.scopes), staffId: token.staffId, oauthClient: token.clientId, address };
  const toolsets = storedToolsets(token.toolsets);
  if (toolsets) caller.toolsets = toolsets;
  return caller;
}

export function shopperCaller(token: { sessionId: string; customerId: string; clientId: string; scopes: readonly string[] }, address: string): Caller {
  return {
    kind: "session",
    actor: `session:${token.sessionId}`,
    scopes: new Set(SESSION_SCOPES),
    toolsets: shopperToolsets(token.scopes),
    session: { id: token.sessionId, customerId: token.customerId, persistent: true },
    oauthClient: token.clientId,
    address,
  };
}

/** The scope a tools/call needs that this token lacks, or undefined (an unknown tool is the SDK's to answer). */
export function missingScope(executor: Executor, caller: Caller, name: unknown): string | undefined {
  const tool = typeof name === "string" ? executor.registry.get(name) : undefined;
  if (!tool) return undefined;
  if (caller.kind === "session") {
    // A shopper token: the shopper scope that would open this tool to a shopper (none for a staff tool).
    if (executor.allows(tool, caller)) return undefined;
    return SHOPPER_SCOPES.find((scope) => executor.allows(tool, { ...caller, toolsets: shopperToolsets([scope]) }));
  }
  // A tool outside the grant's toolsets is refused as such (403 problem): a wider scope would not open it.
  if (tool.anonymous || hasScope(caller.scopes, tool.scope) || !toolsetsAllow(caller.toolsets, tool.name)) return undefined;
  return tool.scope;
}

/**
 * Answers 401 (no or bad token) or 403 (insufficient_scope) with the WWW-Authenticate challenge MCP clients follow:
 * the resource metadata's URL, the error, and the scope to ask for (the tool's, else every scope of the resource).
 */
export function challenge(res: Response, oauth: McpOAuth, status: 401 | 403, error: string | undefined, description: string, scope?: string): void {
  const parts = [`resource_metadata="${resourceMetadataUrl(oauth)}"`, `scope="${scope ?? oauth.scopes.join(" ")}"`];
  if (error) parts.push(`error="${error}"`, `error_description="${description.replace(/["\\]/g, "")}"`);
  res.set("WWW-Authenticate", `Bearer ${parts.join(", ")}`);
  res.status(status).type("application/json").send(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: description } }));
}

/** GET /.well-known/oauth-protected-resource/api/mcp (and without the path): the resource's metadata, for any origin. */
export function protectedResourceHandler(oauth: McpOAuth) {
  return (_req: Request, res: Response): void => {
    res.set({ "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" }).json(resourceMetadata(oauth));
  };
}
