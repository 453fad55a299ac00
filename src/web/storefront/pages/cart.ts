// /cart: the shopper's cart (lines, quantities, removal, discount code, totals with VAT and shipping) and the form
// posts that change it; each post calls one tool as the shopper's session and redirects (303) back.
import { ToolError } from "../../../core/errors.ts";
import cartAdd from "../../../tools/cart/add.ts";
import productsGet from "../../../tools/products/get.ts";
import cartGetShippingProgress from "../../../tools/cart/get_shipping_progress.ts";
import cartGetSummary from "../../../tools/cart/get_summary.ts";
import cartRemove from "../../../tools/cart/remove.ts";
import cartUpdateQuantity from "../../../tools/cart/update_quantity.ts";
import type { CartSummary } from "../../../tools/cart/schemas.ts";
import discountsTryApply from "../../../tools/discounts/try_apply.ts";
import { breadcrumbs, emptyState, notice, price } from "../../components.ts";
import { formatMoney, html, type Html } from "../../html.ts";
import type { Redirect, View } from "../../page.ts";
import { productMedia, type CardLook } from "../components.ts";
import type { Chrome } from "../storefront-chrome.ts";
import type { StorefrontRequest } from "../site.ts";
import { DISCOUNT_REASONS, NOTICES, paymentMethodsText, refusalText } from "../texts.ts";

/** The shopper's cart, or null when the request has no session (no cart, and none is started just to look). */
export async function loadCart(web: StorefrontRequest): Promise<CartSummary | null> {
  if (!web.sessionId() || !(await web.caller()).session) return null;
  const summary = await web.call(cartGetSummary, {});
  web.cartCount = summary.itemCount;
  return summary;
}

function quantityOf(text: string): number {
  return /^\d{1,3}$/.test(text.trim()) ? Number(text) : Number.NaN;
}

function refusal(error: unknown): string {
  if (error instanceof ToolError && error.status < 500) return error.code;
  throw error;
}

export async function addToCart(web: StorefrontRequest): Promise<Redirect> {
  const productSlug = web.field("productSlug");
  const back = `/products/${encodeURIComponent(productSlug)}`;
  await web.shopper();
  try {
    const variantSku = web.field("variantSku");
    await web.call(cartAdd, { productSlug, quantity: quantityOf(web.field("quantity") || "1"), ...(variantSku ? { variantSku } : {}) });
  } catch (error) {
    return { redirect: `${/^[a-z0-9-]{1,200}$/.test(productSlug) ? back : "/cart"}?error=${refusal(error)}` };
  }
  return { redirect: "/cart?notice=added" };
}

export async function updateLine(web: StorefrontRequest): Promise<Redirect> {
  await web.shopper();
  try {
    const quantity = quantityOf(web.field("quantity"));
    await web.call(cartUpdateQuantity, { lineId: web.field("lineId"), quantity });
    return { redirect: `/cart?notice=${quantity === 0 ? "removed" : "updated"}` };
  } catch (error) {
    return { redirect: `/cart?error=${refusal(error)}` };
  }
}

export async function removeLine(web: StorefrontRequest): Promise<Redirect> {
  await web.shopper();
  try {
    await web.call(cartRemove, { lineId: web.field("lineId") });
  } catch (error) {
    return { redirect: `/cart?error=${refusal(error)}` };
  }
  return { redirect: "/cart?notice=removed" };
}

export async function applyDiscount(web: StorefrontRequest): Promise<Redirect> {
  await web.shopper();
  const code = web.field("code").trim();
  if (!code) return { redirect: "/cart?discount=unknown" };
  try {
    const result = await web.call(discountsTryApply, { code: code.slice(0, 100) });
    return { redirect: result.applied ? "/cart?notice=discount" : `/cart?discount=${result.reason}` };
  } catch (error) {
    return { redirect: `/cart?error=${refusal(error)}` };
  }
}

/** Photos and colours of the cart's products (read model), for the line pictures; gone products get none. */
async function lineMedia(web: StorefrontRequest, cart: CartSummary): Promise<Map<string, CardLook>> {
  const looks = await Promise.all(
    cart.lines.map((line) =>
      web.read(productsGet, { slug: line.productSlug }).then(
        (product): [string, CardLook] => [line.productSlug, { name: product.name, frameColor: product.frameColor, lensColor: product.lensColor, firstImage: product.images[0] ?? null }],
        (): [string, CardLook] => [line.productSlug, { name: line.productName, frameColor: null, lensColor: null, firstImage: null }],
      ),
    ),
  );
  return new Map(looks);
}

/** What is left to buy for free shipping (0 when shipping is already free or the cart is empty). */
export async function freeShippingLeft(web: StorefrontRequest, cart: CartSummary): Promise<number> {
  if (cart.lines.length === 0) return 0;
  return (await web.call(cartGetShippingProgress, {})).leftForFreeShippingDkk;
}

export async function cartPage(web: StorefrontRequest): Promise<View> {
  const cart = await loadCart(web);
  const looks = cart ? await lineMedia(web, cart) : new Map<string, CardLook>();
  const left = cart ? await freeShippingLeft(web, cart) : 0;
  const money = await web.chrome();
  const flash = NOTICES[web.query("notice")];
  const discountReason = DISCOUNT_REASONS[web.query("discount")];
  const error = web.query("error");
  const messages = html`${flash ? notice(flash.kind, flash.text) : ""}${discountReason ? notice("error", discountReason) : ""}${error ? notice("error", refusalText(error)) : ""}`;
  const body = cart && cart.lines.length
    ? html`<div class="cart-layout">
<section class="cart-lines" aria-labelledby="lines-title"><h2 id="lines-title" class="visually-hidden">Varer</h2>
<ul class="lines">${cart.lines.map((line) => lineHtml(web, line, looks.get(line.productSlug), money))}</ul>
</section>
<aside class="cart-summary" aria-labelledby="summary-title">
<h2 id="summary-title">Oversigt</h2>
${totals(cart, money, left)}
${discountForm(web, cart)}
<a class="button button-accent button-block" href="/checkout">Gå til kassen</a>
<p class="hint center">Sikker betaling · ${paymentMethodsText(web.deps)}</p>
</aside>
</div>`
    : emptyState("Din kurv er tom", "Find dine næste briller i sortimentet.", { label: "Se alle produkter", href: "/search" });
  return {
    title: "Kurv",
    noindex: true,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Kurv" }])}
<h1>Din kurv</h1>
${messages}
${body}`,
  };
}

function lineHtml(web: StorefrontRequest, line: CartSummary["lines"][number], look: CardLook | undefined, money: Money): Html {
  const attributes = line.variantAttributes ? Object.values(line.variantAttributes).join(" / ") : "";
  return html`<li class="line">
<div class="line-media">${productMedia(look ?? { name: line.productName, frameColor: null, lensColor: null, firstImage: null }, "")}</div>
<div class="line-main">
<h3 class="line-name"><a href="/products/${encodeURIComponent(line.productSlug)}">${line.productName}</a></h3>
${attributes ? html`<p class="hint">Variant: ${attributes}</p>` : ""}
<p class="hint">${price(line.unitPriceDkk, money.currency)} pr. stk.${line.stock < line.quantity ? html` · <span class="tag tag-bad">Kun ${line.stock} på lager</span>` : ""}</p>
<div class="line-actions">
<form class="quantity-form" action="/cart/update" method="post">
${web.csrfField()}<input type="hidden" name="lineId" value="${line.lineId}">
<label for="q-${line.lineId}">Antal</label>
<input id="q-${line.lineId}" name="quantity" type="number" inputmode="numeric" min="0" max="100" value="${line.quantity}" required data-autosubmit>
<button class="button button-secondary button-small" type="submit" data-autosubmit-hide>Opdater</button>
</form>
<form action="/cart/remove" method="post">
${web.csrfField()}<input type="hidden" name="lineId" value="${line.lineId}">
<button class="button-link" type="submit">Fjern<span class="visually-hidden"> ${line.productName}</span></button>
</form>
</div>
</div>
<p class="line-total price">${formatMoney(line.lineTotalDkk, money.currency)}</p>
</li>`;
}

/** The shop currency and whether its prices include VAT (the storefront chrome has both). */
export type Money = Pick<Chrome, "currency" | "pricesIncludeVat">;

/** Subtotal, discount, shipping (with what is left to free shipping), total and, in a shop with VAT, the VAT it includes. */
export function totals(cart: CartSummary, money: Money, freeShippingLeft?: number): Html {
  return html`<dl class="totals">
<div><dt>Varer (${cart.itemCount})</dt><dd>${formatMoney(cart.subtotalDkk, money.currency)}</dd></div>
${cart.discountDkk > 0 ? html`<div class="discount"><dt>Rabat${cart.discountCode ? html` <span class="tag">${cart.discountCode}</span>` : ""}</dt><dd>−${formatMoney(cart.discountDkk, money.currency)}</dd></div>` : ""}
<div><dt>Fragt</dt><dd>${cart.shippingDkk === 0 ? "Gratis" : formatMoney(cart.shippingDkk, money.currency)}</dd></div>
<div class="total"><dt>I alt</dt><dd>${formatMoney(cart.totalDkk, money.currency)}</dd></div>
${money.pricesIncludeVat ? html`<div class="vat"><dt>Heraf moms</dt><dd>${formatMoney(cart.vatOere, money.currency)}</dd></div>` : ""}
</dl>
${freeShippingLeft && freeShippingLeft > 0 ? html`<p class="hint">Køb for ${formatMoney(freeShippingLeft, money.currency)} mere, så er fragten gratis.</p>` : ""}
${cart.discountNotice ? notice("error", cart.discountCode ? html`Rabatkoden ${cart.discountCode} giver ikke rabat lige nu.` : "Rabatkoden giver ikke rabat lige nu.") : ""}`;
}

function discountForm(web: StorefrontRequest, cart: CartSummary): Html {
  return html`<form class="discount-form" action="/cart/discount" method="post">
${web.csrfField()}
<label for="discount-code">Rabatkode</label>
<div class="inline-field">
<input id="discount-code" name="code" type="text" autocomplete="off" autocapitalize="characters" maxlength="100" value="${cart.discountCode ?? ""}">
<button class="button button-secondary" type="submit">Brug</button>
</div>
</form>`;
}
