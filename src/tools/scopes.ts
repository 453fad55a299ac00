// Scopes are data: every tool names one of these, and API keys carry a list of them (or the admin wildcard "*").
import { Forbidden } from "../core/errors.ts";

export const SCOPES = [
  "analytics:read",
  "audit:read",
  "audit:revert",
  "cart:write",
  "catalog:read",
  "categories:read",
  "categories:write",
  "checkout:agent",
  "customer:read",
  "customer:write",
  "discounts:read",
  "discounts:write",
  "features:read",
  "features:write",
  "giftcards:read",
  "giftcards:write",
  "keys:read",
  "keys:write",
  "marketing:write",
  "metrics:read",
  "orders:read",
  "orders:write",
  "pages:read",
  "pages:write",
  "products:read",
  "products:write",
  "returns:read",
  "returns:write",
  "settings:read",
  "settings:write",
  "support:read",
  "support:write",
  "staff:read",
  "staff:write",
  "webhooks:read",
  "webhooks:write",
] as const;

/** The scope no tool requires: GET /metrics (the Prometheus exposition) checks it itself. */
export const METRICS_SCOPE: GrantableScope = "metrics:read";

/**
 * Scopes no key, staff user or session is ever given: only one door's system caller and the `*` wildcard hold them.
 * payments:write is the payment provider's webhook applying a verified payment event (orders.apply_payment_event).
 */
export const SYSTEM_SCOPES = ["payments:write"] as const;

/** A scope a key or a staff user may carry. */
export type GrantableScope = (typeof SCOPES)[number];
/** A scope a tool may require. */
export type Scope = GrantableScope | (typeof SYSTEM_SCOPES)[number];

/**
 * The scopes the machine description lists (SPEC.md, Authentication 4): every grantable scope but `products:read`, which
 * keys may still carry but no tool requires (catalogue reads use catalog:read); system scopes no key can carry.
 */
export const ADVERTISED_SCOPES: readonly GrantableScope[] = SCOPES.filter((scope) => scope !== "products:read");
export const WILDCARD = "*";

/** The fixed scopes of a storefront (cookie) session; never the wildcard. */
export const SESSION_SCOPES: readonly Scope[] = ["catalog:read", "cart:write", "customer:read", "customer:write"];

/** Whether a key or staff user may be given this scope (system scopes never). */
export function isScope(value: string): value is GrantableScope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Whether a tool may require this scope. */
export function isToolScope(value: string): value is Scope {
  return isScope(value) || (SYSTEM_SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: ReadonlySet<string>, needed: Scope): boolean {
  return granted.has(needed) || granted.has(WILDCARD);
}

/** What an API key or a staff user may carry: a scope or the wildcard. */
export type Grant = Scope | typeof WILDCARD;

/** Whether a caller holding `granted` may hand `scope` to a key or a staff user: only what it holds itself, `*` only from `*`. */
export function mayGrant(granted: ReadonlySet<string>, scope: string): boolean {
  if (scope === WILDCARD) return granted.has(WILDCARD);
  return isScope(scope) && hasScope(granted, scope);
}

/** Refuses (403) to hand out, or to manage a holder of, scopes the caller does not hold itself. */
export function checkGrant(granted: ReadonlySet<string>, scopes: readonly string[], what: string): void {
  const beyond = scopes.filter((scope) => !mayGrant(granted, scope));
  if (beyond.length) throw new Forbidden(`${what} scopes you do not have yourself: ${beyond.join(", ")}.`);
}
