// UCP 2026-04-08 capability negotiation: the capabilities active for a request are the intersection of the shop's with
// those the agent's profile declares, at a version both name, without extensions whose parent fell out. An operation
// whose capability is not active answers capabilities_incompatible (200, before anything runs); a response declares
// only the active capabilities and leaves out the fields of inactive extensions.
import { CART } from "./v2026-04-08-cart.ts";
import { LOOKUP, SEARCH } from "./v2026-04-08-catalog.ts";
import { VERSION } from "./v2026-04-08.ts";
import { VERSION as V0825 } from "./v2026-08-25.ts";

export const CHECKOUT = "dev.ucp.shopping.checkout";
export const ORDER = "dev.ucp.shopping.order";
export const FULFILLMENT = "dev.ucp.shopping.fulfillment";
export const DISCOUNT = "dev.ucp.shopping.discount";
export const BUYER_CONSENT = "dev.ucp.shopping.buyer_consent";
export const AP2 = "dev.ucp.shopping.ap2_mandate";
export const PAYMENT_AUTHENTICATION = "dev.ucp.shopping.payment_authentication";

/** The checkout extensions: each extends checkout, and which field of a checkout it adds. */
export const CHECKOUT_EXTENSIONS: Record<string, string> = { [FULFILLMENT]: "fulfillment", [DISCOUNT]: "discount", [BUYER_CONSENT]: "buyer_consent", [AP2]: "ap2" };

/** Every capability the shop has at 2026-04-08. AP2 is active only when negotiated (never for an agent that declares none). */
export const SHOP_CAPABILITIES: readonly string[] = [CHECKOUT, ORDER, ...Object.keys(CHECKOUT_EXTENSIONS), SEARCH, LOOKUP, CART];

/**
 * What the shop has at 2026-08-25: checkout and order with fulfilment (parcel shops), discounts, consent, 3-D Secure
 * actions and AP2 mandates (active only when negotiated, as at 2026-04-08).
 */
export const SHOP_CAPABILITIES_0825: readonly string[] = [CHECKOUT, ORDER, FULFILLMENT, DISCOUNT, BUYER_CONSENT, PAYMENT_AUTHENTICATION, AP2];

/** The capabilities a profile declares (2026-04-08: keyed by name, each a list of {version}), or null when it declares none. */
export function declaredCapabilities(value: unknown): Map<string, string[]> | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const declared = new Map<string, string[]>();
  for (const [name, entries] of Object.entries(value as Record<string, unknown>).slice(0, 100)) {
    if (!Array.isArray(entries)) continue;
    const versions = entries.flatMap((entry) => {
      const version = (entry as { version?: unknown } | null)?.version;
      return typeof version === "string" ? [version] : [];
    });
    declared.set(name, versions);
  }
  return declared;
}

/** UCP's intersection algorithm over the shop's capabilities at `version`: shared name and version, no orphans. */
export function intersection(declared: ReadonlyMap<string, readonly string[]>, version: string = VERSION): Set<string> {
  const shop = version === V0825 ? SHOP_CAPABILITIES_0825 : SHOP_CAPABILITIES;
  const active = new Set(shop.filter((name) => declared.get(name)?.includes(version)));
  for (const extension of [...Object.keys(CHECKOUT_EXTENSIONS), PAYMENT_AUTHENTICATION]) if (!active.has(CHECKOUT)) active.delete(extension);
  return active;
}

/** The version's answer when the operation's capability is not one both sides support. */
export function incompatible(capability: string, continueUrl: string, version: string = VERSION) {
  return {
    ucp: { version, status: "error" as const, capabilities: {} },
    messages: [
      {
        type: "error" as const,
        code: "capabilities_incompatible",
        content: `The agent's profile does not declare ${capability} at version ${version}, which this operation needs.`,
        severity: "unrecoverable" as const,
      },
    ],
    continue_url: continueUrl,
  };
}

/** A response narrowed to the active capabilities: its envelope lists only those; a checkout loses inactive extensions' fields. */
export function narrow(body: unknown, active: ReadonlySet<string>, capability: string): unknown {
  if (!body || typeof body !== "object") return body;
  const out = { ...(body as Record<string, unknown>) };
  const ucp = out.ucp as { capabilities?: Record<string, unknown> } | undefined;
  if (ucp?.capabilities) {
    out.ucp = { ...ucp, capabilities: Object.fromEntries(Object.entries(ucp.capabilities).filter(([name]) => active.has(name))) };
  }
  if (capability !== CHECKOUT) return out;
  if (!active.has(FULFILLMENT)) delete out.fulfillment;
  if (!active.has(DISCOUNT)) delete out.discounts;
  if (!active.has(BUYER_CONSENT) && out.buyer && typeof out.buyer === "object") {
    const { consent: _consent, ...buyer } = out.buyer as Record<string, unknown>;
    out.buyer = buyer;
  }
  return out;
}
