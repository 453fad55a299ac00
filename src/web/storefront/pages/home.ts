// GET /: the shop's front page: name and tagline, search, featured products and categories. Starts the shop_session.
import categoriesList from "../../../tools/categories/list.ts";
import productsSearch from "../../../tools/products/search.ts";
import { count, formatMoney, html } from "../../html.ts";
import type { View } from "../../page.ts";
import { productArt, productGrid } from "../components.ts";
import type { StorefrontRequest } from "../site.ts";


export async function homePage(web: StorefrontRequest): Promise<View> {
  await web.startSession();
  const [chrome, featured, categories] = await Promise.all([
    web.chrome(),
    web.read(productsSearch, { featured: true, inStock: true, limit: 8 }),
    web.read(categoriesList, { includeEmpty: false }),
  ]);
  const { shopName, tagline } = chrome.branding;
  return {
    title: shopName,
    description: tagline || `${shopName}: webshop`,
    canonical: "/",
    main: html`<section class="home-hero" aria-labelledby="home-title">
<div class="home-hero-text">
<p class="eyebrow">Velkommen til ${shopName}</p>
<h1 id="home-title">${tagline || shopName}</h1>
<p class="lead">${count(categories.reduce((sum, category) => sum + category.productCount, 0), "vare", "varer")} i ${count(categories.length, "kategori", "kategorier")}, til fair priser. Fri fragt over ${formatMoney(chrome.shipping.freeShippingThresholdDkk, chrome.currency, { whole: true })}</p>
<form class="hero-search" role="search" action="/search" method="get">
<label class="visually-hidden" for="home-q">Hvad leder du efter?</label>
<input id="home-q" name="q" type="search" placeholder="Fx aviator, sort stel eller Ray-Ban" maxlength="200">
<button class="button button-accent" type="submit">Find briller</button>
</form>
</div>
<div class="home-hero-art" aria-hidden="true">${productArt({ name: "Aviator", frameColor: "guld", lensColor: "grøn" })}${productArt({ name: "Rund", frameColor: "skildpadde", lensColor: "brun" })}</div>
</section>
${featured.length ? html`<section class="home-section" aria-labelledby="featured-title">
<div class="section-head"><h2 id="featured-title">Udvalgte favoritter</h2><a href="/search?featured=1">Se alle</a></div>
${productGrid(featured, chrome.currency)}
</section>` : ""}
<section class="home-section" aria-labelledby="categories-title">
<h2 id="categories-title">Shop efter kategori</h2>
<ul class="category-tiles">${categories.map((category) => html`<li><a class="category-tile" href="/categories/${category.slug}">
<span class="category-tile-name">${category.name}</span>
${category.description ? html`<span class="category-tile-text">${category.description}</span>` : ""}
<span class="category-tile-count">${count(category.productCount, "vare", "varer")}</span>
</a></li>`)}</ul>
</section>
<section class="promises" aria-label="Derfor handler du hos os">
<div><h2>Fri fragt</h2><p>Over ${formatMoney(chrome.shipping.freeShippingThresholdDkk, chrome.currency, { whole: true })} – ellers ${formatMoney(chrome.shipping.flatRateDkk, chrome.currency, { whole: true })}</p></div>
<div><h2>Hurtig levering</h2><p>Med ${chrome.shipping.carriers.map((carrier) => carrier.name).join(" eller ") || "fragtfirma"}.</p></div>
<div><h2>Personlig rådgivning</h2><p>Ring på ${chrome.contact.phone} eller skriv til os.</p></div>
</section>`,
  };
}
