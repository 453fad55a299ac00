// Shoppers' OAuth grants: the scopes a storefront customer may give an app (their own cart, orders, returns, address
// book, support), the toolsets each opens at the MCP door, the UCP identity-linking scopes, and how an authorization
// request is told apart from a staff user's (by its scopes and resource: see docs/mcp.md).

/** The shopper scopes of the MCP door, in the order the consent page lists them. */
export const SHOPPER_SCOPES = ["shopper:cart", "shopper:orders", "shopper:returns", "shopper:addresses", "shopper:support"] as const;

/**
 * UCP identity linking (dev.ucp.common.identity_linking): the scopes a platform may ask for at the UCP resource. None
 * gates an operation (guest checkout and order reads work without a user); a token of either links the customer.
 */
export const UCP_IDENTITY_SCOPES = ["dev.ucp.shopping.checkout:manage", "dev.ucp.shopping.order:read"] as const;

/** What each shopper scope lets the app do, as the consent page and "Forbundne apps" say it. */
export const SHOPPER_SCOPE_TEXT: Record<string, string> = {
  "shopper:cart": "Se varer og lægge dem i din kurv, og bestille med dine gemte adresser",
  "shopper:orders": "Se dine ordrer, og ændre eller annullere dem, mens det kan lade sig gøre",
  "shopper:returns": "Se og anmode om returneringer af dine ordrer",
  "shopper:addresses": "Se og ændre din adressebog",
  "shopper:support": "Skrive til butikkens kundeservice for dig",
  "dev.ucp.shopping.checkout:manage": "Bestille for dig med dine gemte adresser",
  "dev.ucp.shopping.order:read": "Knytte de ordrer, appen afgiver, til din konto",
};

/**
 * The toolsets (areas, or single tools of the user area) each shopper scope opens. The user area's sign-in tools are
 * never among them: a token's storefront session stays signed in to its customer.
 */
const SCOPE_TOOLSETS: Record<(typeof SHOPPER_SCOPES)[number], readonly string[]> = {
  "shopper:cart": ["cart", "checkout", "discounts", "products", "categories", "address"],
  "shopper:orders": ["orders", "user.list_orders", "user.get_order_status", "user.get_last_shipping", "products", "categories"],
  "shopper:returns": ["returns"],
  "shopper:addresses": ["customer", "address"],
  "shopper:support": ["support"],
};

/** The account id of a customer's grant (a staff user's is the staff user's id). */
export const CUSTOMER_ACCOUNT = "customer:";

export function customerAccount(customerId: string): string {
  return `${CUSTOMER_ACCOUNT}${customerId}`;
}

/** The customer of a grant's account id, or undefined for a staff user's. */
export function customerOfAccount(accountId: string): string | undefined {
  return accountId.startsWith(CUSTOMER_ACCOUNT) ? accountId.slice(CUSTOMER_ACCOUNT.length) : undefined;
}

export function isShopperScope(scope: string): boolean {
  return (SHOPPER_SCOPES as readonly string[]).includes(scope) || (UCP_IDENTITY_SCOPES as readonly string[]).includes(scope);
}

/**
 * Whether an authorization request is a shopper's: it is bound to the UCP resource, or the shop scopes it asks for are
 * all shopper scopes (and there is one). Anything else is a staff user's, as before.
 */
export function isShopperRequest(scope: unknown, resource: unknown, ucpResource: string): boolean {
  if (resource === ucpResource) return true;
  const asked = String(scope ?? "").split(" ").filter((name) => name && name !== "openid" && name !== "offline_access");
  return asked.length > 0 && asked.every(isShopperScope);
}

/** The toolsets a shopper token's scopes open (none: nothing at all). */
export function shopperToolsets(scopes: readonly string[]): Set<string> {
  const toolsets = new Set<string>();
  for (const scope of scopes) for (const name of SCOPE_TOOLSETS[scope as (typeof SHOPPER_SCOPES)[number]] ?? []) toolsets.add(name);
  return toolsets;
}

/** The storefront session a shopper grant acts in: its own cart and orders, apart from the shopper's browser. */
export function grantSessionId(grantId: string): string {
  return `oauth_${grantId}`;
}
