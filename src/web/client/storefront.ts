// Storefront enhancements: the cart badge in the header (refreshed on load and whenever a "shop:cart-changed" event
// is dispatched, e.g. by the chat widget), and the product filters unfolded where the screen has room beside them.

import { CART_CHANGED, type CartChangedDetail } from "./events.ts";

interface CartSummary {
  itemCount: number;
}

async function cartCount(): Promise<number | null> {
  const response = await fetch("/api/v1/tools/cart.get_summary", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
    credentials: "same-origin",
  });
  if (!response.ok) return null;
  const body = (await response.json()) as { result?: CartSummary };
  return typeof body.result?.itemCount === "number" ? body.result.itemCount : null;
}

function showCount(badge: HTMLElement, count: number): void {
  badge.textContent = String(count);
  badge.hidden = count === 0;
  const link = badge.closest("a");
  if (link) link.setAttribute("aria-label", count === 1 ? "Kurv, 1 vare" : `Kurv, ${count} varer`);
}

/** Fills the badge: from the page when the server knew the count, else from cart.get_summary (only with a session). */
async function refreshBadge(known?: number): Promise<void> {
  const badge = document.querySelector<HTMLElement>("[data-cart-count]");
  if (!badge) return;
  if (known !== undefined) return showCount(badge, known);
  if (badge.dataset.cartCount) return showCount(badge, Number(badge.dataset.cartCount));
  if (!("session" in badge.dataset)) return;
  const count = await cartCount().catch(() => null);
  if (count !== null) showCount(badge, count);
}

document.addEventListener(CART_CHANGED, (event) => {
  const detail = (event as CustomEvent<CartChangedDetail | undefined>).detail;
  const badge = document.querySelector<HTMLElement>("[data-cart-count]");
  if (badge) {
    // The count rendered with the page is stale now (emptied, not removed: the attribute is how the badge is found),
    // and a cart that changed has a session behind it even when the page was rendered without one.
    badge.dataset.cartCount = "";
    badge.dataset.session = "";
  }
  void refreshBadge(typeof detail?.itemCount === "number" ? detail.itemCount : undefined);
});

void refreshBadge();

/** Wide screens show the filters beside the products, unfolded; a phone keeps them folded behind "Filtrér". */
const wide = window.matchMedia("(min-width: 56rem)");
if (wide.matches) for (const panel of document.querySelectorAll<HTMLDetailsElement>("details[data-filters]")) panel.open = true;
