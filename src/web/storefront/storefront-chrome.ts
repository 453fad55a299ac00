// The storefront chrome: header (shop name, search, account, chat slot, cart), category navigation and footer.
import type { Request } from "express";
import type { z } from "zod";
import type { WebDeps } from "../deps.ts";
import categoriesList from "../../tools/categories/list.ts";
import pagesList from "../../tools/pages/list.ts";
import settingsGet from "../../tools/settings/get.ts";
import settingsGetCommerce from "../../tools/settings/get_commerce.ts";
import type { Settings } from "../../tools/settings/schemas.ts";
import type { ObjectSchema, ToolDefinition } from "../../tools/tool.ts";
import type { Assets } from "../assets.ts";
import { documentHtml } from "../document.ts";
import { formatMoney, html, raw, type Html } from "../html.ts";
import type { View } from "../page.ts";

/** What the chrome reads of a storefront request (a StorefrontRequest of src/web/storefront/site.ts, which renders with this module). */
export interface ChromeRequest {
  readonly req: Request;
  readonly deps: WebDeps;
  readonly site: { readonly assets: Assets };
  readonly cartCount: number | undefined;
  read<I extends ObjectSchema, O extends z.ZodType>(tool: ToolDefinition<I, O>, input: z.input<I>): Promise<z.output<O>>;
  query(name: string): string;
  chrome(): Promise<Chrome>;
  sessionAttribute(): Html;
}

/**
 * Client scripts of every storefront page, in order. The chat widget finds its button (`[data-chat-toggle]`, hidden
 * until the script shows it) and its mount point (`#chat-root`, whose `data-chat-src` is the panel it loads on demand).
 */
const STOREFRONT_SCRIPTS = ["site.js", "storefront.js", "chat-widget.js"];

const BRAND_MARK = raw('<svg class="brand-mark" viewBox="0 0 64 32" aria-hidden="true" focusable="false"><circle cx="16" cy="17" r="11"/><circle cx="48" cy="17" r="11"/><path d="M27 15q5-5 10 0"/></svg>');

export interface Chrome {
  branding: Settings["branding"];
  shipping: Settings["shipping"];
  contact: Settings["contact"];
  /** The shop currency (ISO 4217) every price is in, and whether prices include VAT. */
  currency: string;
  pricesIncludeVat: boolean;
  categories: Array<{ slug: string; name: string }>;
  pages: Array<{ slug: string; title: string }>;
}

export async function loadChrome(web: ChromeRequest): Promise<Chrome> {
  const [settings, commerce, categories, pages] = await Promise.all([
    web.read(settingsGet, {}),
    web.read(settingsGetCommerce, {}),
    web.read(categoriesList, { includeEmpty: false }),
    web.read(pagesList, {}),
  ]);
  return {
    branding: settings.branding,
    shipping: settings.shipping,
    contact: settings.contact,
    currency: commerce.currency,
    pricesIncludeVat: commerce.pricesIncludeVat,
    categories: categories.map(({ slug, name }) => ({ slug, name })),
    pages: pages.filter((page) => page.status === "published").map(({ slug, title }) => ({ slug, title })),
  };
}

export async function storefrontDocument(web: ChromeRequest, view: View): Promise<Html> {
  const chrome = await web.chrome();
  const shop = chrome.branding.shopName;
  const base = web.deps.config.publicBaseUrl;
  return documentHtml(web.site.assets, {
    title: view.title === shop ? `${shop} – ${chrome.branding.tagline || "webshop"}` : `${view.title} – ${shop}`,
    description: view.description,
    canonical: view.canonical ? `${base}${view.canonical}` : undefined,
    noindex: view.noindex,
    head: html`<meta property="og:site_name" content="${shop}">
<meta property="og:locale" content="da_DK">
${view.head?.value.includes('property="og:title"') ? view.head : html`<meta property="og:type" content="website">
<meta property="og:title" content="${view.title}">
${view.canonical ? html`<meta property="og:url" content="${base}${view.canonical}">` : ""}
${view.description ? html`<meta property="og:description" content="${view.description}">` : ""}
${view.head ?? ""}`}`,
    styles: ["site.css"],
    scripts: [...STOREFRONT_SCRIPTS, ...(view.scripts ?? [])],
    icon: "icon.svg",
    header: header(web, chrome),
    main: view.main,
    footer: footer(chrome, web.site.assets.url("chat-panel.js")),
  });
}

function perks(chrome: Chrome): Html[] {
  const { freeShippingThresholdDkk, carriers } = chrome.shipping;
  const fastest = Math.min(...carriers.map((carrier) => carrier.minDays));
  const slowest = Math.max(...carriers.map((carrier) => carrier.maxDays));
  return [
    freeShippingThresholdDkk > 0 ? html`<li>Fri fragt over ${formatMoney(freeShippingThresholdDkk, chrome.currency, { whole: true })}</li>` : html`<li>Fri fragt</li>`,
    carriers.length ? html`<li>Levering på ${fastest}–${slowest} hverdage</li>` : "",
    html`<li>Kundeservice <a href="tel:${chrome.contact.phone.replace(/[^+\d]/g, "")}">${chrome.contact.phone}</a></li>`,
  ].filter((item): item is Html => item !== "");
}

function header(web: ChromeRequest, chrome: Chrome): Html {
  const path = web.req.path;
  const q = path === "/search" ? web.query("q") : "";
  const current = (href: string) => (path === href ? html` aria-current="page"` : "");
  return html`<header class="site-header">
<div class="topbar"><ul class="wrap">${perks(chrome)}</ul></div>
<div class="masthead wrap">
<a class="brand" href="/">${BRAND_MARK}<span class="brand-name">${chrome.branding.shopName}</span></a>
<form class="site-search" role="search" action="/search" method="get">
<label class="visually-hidden" for="site-q">Søg i butikken</label>
<input id="site-q" name="q" type="search" value="${q}" placeholder="Søg efter stel, mærke eller farve" autocomplete="off" maxlength="200">
<button class="button" type="submit">Søg</button>
</form>
<nav class="utility" aria-label="Konto og kurv">
<a class="utility-link" href="/account"${current("/account")}>Konto</a>
<button class="utility-link chat-toggle" type="button" data-chat-toggle aria-controls="chat-root" aria-expanded="false" hidden>Chat</button>
<a class="utility-link cart-link" href="/cart"${current("/cart")}>Kurv ${cartBadge(web)}</a>
</nav>
</div>
<nav class="category-nav" aria-label="Kategorier"><ul class="wrap">
${chrome.categories.map((category) => html`<li><a href="/categories/${category.slug}"${current(`/categories/${category.slug}`)}>${category.name}</a></li>`)}
<li><a href="/services"${current("/services")}>Ydelser</a></li>
</ul></nav>
</header>`;
}

/**
 * The cart count: rendered when this request loaded the cart anyway (cart, checkout), else left for the storefront
 * script to fetch (only when there is a session), so browsing pages need no cart read.
 */
function cartBadge(web: ChromeRequest): Html {
  const count = web.cartCount;
  return html`<span class="badge" data-cart-count="${count ?? ""}"${web.sessionAttribute()}${count ? "" : " hidden"}>${count ?? ""}</span>`;
}

/** "Alle priser er i danske kroner inkl. 25 % moms." for a Danish shop; a shop without VAT says no VAT. */
function priceNote({ currency, pricesIncludeVat }: Chrome): string {
  const money = currency === "DKK" ? "danske kroner" : currency;
  return `Alle priser er i ${money}${pricesIncludeVat ? " inkl. 25 % moms" : ""}.`;
}

function footer(chrome: Chrome, chatPanel: string): Html {
  const { branding, contact } = chrome;
  return html`<footer class="site-footer">
<div class="wrap footer-grid">
<section aria-labelledby="footer-shop">
<h2 id="footer-shop">${branding.shopName}</h2>
${branding.tagline ? html`<p>${branding.tagline}</p>` : ""}
<address>${contact.address}<br>CVR ${contact.cvr}</address>
</section>
<section aria-labelledby="footer-help">
<h2 id="footer-help">Kundeservice</h2>
<ul>
<li><a href="mailto:${contact.email}">${contact.email}</a></li>
<li><a href="tel:${contact.phone.replace(/[^+\d]/g, "")}">${contact.phone}</a></li>
<li><a href="/account">Mine ordrer</a></li>
<li><a href="/fortryd">Fortryd købet her</a></li>
<li><a href="/gavekort">Saldo på gavekort</a></li>
</ul>
</section>
<section aria-labelledby="footer-info">
<h2 id="footer-info">Information</h2>
<ul>
${chrome.pages.map((page) => html`<li><a href="/info/${page.slug}">${page.title}</a></li>`)}
${chrome.pages.some((page) => page.slug === "handelsbetingelser") ? "" : html`<li><a href="/info/handelsbetingelser">Handelsbetingelser</a></li>`}
${chrome.pages.some((page) => page.slug === "privatlivspolitik") ? "" : html`<li><a href="/info/privatlivspolitik">Privatlivspolitik</a></li>`}
<li><a href="/services">Ydelser</a></li>
</ul>
</section>
<section aria-labelledby="footer-shop-links">
<h2 id="footer-shop-links">Sortiment</h2>
<ul>
${chrome.categories.map((category) => html`<li><a href="/categories/${category.slug}">${category.name}</a></li>`)}
</ul>
</section>
</div>
<p class="wrap legal">${priceNote(chrome)}</p>
</footer>
<div id="chat-root" class="chat-root" data-chat-root data-chat-src="${chatPanel}" data-currency="${chrome.currency}"${chrome.pricesIncludeVat ? html` data-vat` : ""}></div>`;
}
