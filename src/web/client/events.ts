// DOM events the storefront's scripts tell each other by, in a module of their own so an entry can import them
// without bundling another entry's side effects.

/** Dispatched on `document` when the cart changed; `detail.itemCount`, when given, is the new count as is. */
export const CART_CHANGED = "shop:cart-changed";

export interface CartChangedDetail {
  itemCount?: number;
}
