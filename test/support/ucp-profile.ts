// What a 2026-04-08 agent profile in the tests declares: the shopping capabilities it speaks, at that version.
const V = [{ version: "2026-04-08" }];

/** The capabilities of an agent that shops: checkout with its extensions, orders, catalog and cart. */
export function shoppingCapabilities(order: Record<string, unknown> = {}): Record<string, Array<Record<string, unknown>>> {
  return {
    "dev.ucp.shopping.checkout": V,
    "dev.ucp.shopping.fulfillment": V,
    "dev.ucp.shopping.discount": V,
    "dev.ucp.shopping.buyer_consent": V,
    "dev.ucp.shopping.order": [{ version: "2026-04-08", ...order }],
    "dev.ucp.shopping.catalog.search": V,
    "dev.ucp.shopping.catalog.lookup": V,
    "dev.ucp.shopping.cart": V,
  };
}
