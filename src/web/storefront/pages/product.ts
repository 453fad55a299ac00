// GET /products/<slug>: photos, price, stock, variants, the add-to-cart form, the answer content (FAQ, use cases,
// comparison facts), related products, schema.org Product/Offer JSON-LD and Open Graph tags; 404 page when unknown.
import { NotFound } from "../../../core/errors.ts";
import productsGet from "../../../tools/products/get.ts";
import productsGetAnswers from "../../../tools/products/get_answers.ts";
import productsGetSafety from "../../../tools/products/get_safety.ts";
import productsImageAlts from "../../../tools/products/image_alts.ts";
import productsListVariants from "../../../tools/products/list_variants.ts";
import productsSearch from "../../../tools/products/search.ts";
import { breadcrumbs, notice, price } from "../../components.ts";
import { decimalAmount } from "../../../core/format.ts";
import { bodyHtml, formatMoney, html, jsonScript, type Html } from "../../html.ts";
import type { View } from "../../page.ts";
import { productGrid, productMedia, stockLabel } from "../components.ts";
import type { StorefrontRequest } from "../site.ts";
import { NOTICES, refusalText } from "../texts.ts";

type Product = Awaited<ReturnType<typeof loadProduct>>;
type SafetyInfo = Awaited<ReturnType<typeof productsGetSafety.handler>>;

/** "Produktsikkerhed" (GPSR art. 19): the maker, the EU responsible person and the warnings, when the shop gave them. */
function safetySection(safety: SafetyInfo): Html | "" {
  if (!safety) return "";
  const party = (title: string, who: { name: string; address: string; contact: string }) => {
    const link = /^https?:\/\//.test(who.contact) ? html`<a href="${who.contact}" rel="noopener noreferrer">${who.contact}</a>` : /@/.test(who.contact) ? html`<a href="mailto:${who.contact}">${who.contact}</a>` : html`${who.contact}`;
    return html`<div><dt>${title}</dt><dd>${who.name}<br>${who.address}<br>${link}</dd></div>`;
  };
  return html`<section class="product-safety" aria-labelledby="safety-title"><h2 id="safety-title">Produktsikkerhed</h2>
<dl class="facts">${party("Producent", safety.manufacturer)}${safety.euResponsible ? party("Ansvarlig person i EU", safety.euResponsible) : ""}</dl>
${safety.warnings ? html`<p class="safety-warnings"><strong>Advarsler:</strong> ${safety.warnings}</p>` : ""}
</section>`;
}

const ATTRIBUTE_LABELS: Record<string, string> = {
  size: "Størrelse", shape: "Form", material: "Materiale", color: "Farve", type: "Type",
  age: "Alder", lensWidth: "Glasbredde", wear: "Brug", pack: "Pakning", baseCurve: "Basiskurve", diameter: "Diameter", volume: "Indhold", length: "Længde",
};
const label = (key: string) => ATTRIBUTE_LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1);

async function loadProduct(web: StorefrontRequest, slug: string) {
  const [product, answers, variants, imageAlts] = await Promise.all([
    web.read(productsGet, { slug }),
    web.read(productsGetAnswers, { slug }),
    web.read(productsListVariants, { slug }),
    web.read(productsImageAlts, { slug }),
  ]);
  return { ...product, answers, variants, altOf: new Map(imageAlts.map((image) => [image.url, image.alt])) };
}

export async function productPage(web: StorefrontRequest, slug: string): Promise<View> {
  if (!/^[a-z0-9-]{1,200}$/.test(slug)) throw new NotFound(`No product "${slug}".`);
  const product = await loadProduct(web, slug);
  const [chrome, related, safety] = await Promise.all([
    web.chrome(),
    web.read(productsSearch, { categorySlug: product.category.slug, inStock: true, limit: 5 }),
    web.read(productsGetSafety, { productId: product.id }),
  ]);
  const url = `${web.deps.config.publicBaseUrl}/products/${product.slug}`;
  // Images the shop serves itself are stored by path; crawlers and link previews need whole URLs.
  const images = product.images.map((image) => (image.startsWith("/") ? `${web.deps.config.publicBaseUrl}${image}` : image));
  const summary = product.answers.answerSummary ?? firstSentence(product.description);
  const carriers = chrome.shipping.carriers;
  const delivery = carriers.length
    ? `Levering på ${Math.min(...carriers.map((c) => c.minDays))}–${Math.max(...carriers.map((c) => c.maxDays))} hverdage`
    : "Hurtig levering";
  const flash = NOTICES[web.query("notice")];
  const error = web.query("error");
  return {
    title: product.brand && !product.name.startsWith(product.brand) ? `${product.brand} ${product.name}` : product.name,
    description: summary,
    canonical: `/products/${product.slug}`,
    head: html`<meta property="og:type" content="product">
<meta property="og:title" content="${product.name}">
<meta property="og:description" content="${summary}">
<meta property="og:url" content="${url}">
${images[0] ? html`<meta property="og:image" content="${images[0]}">` : ""}
<meta property="product:price:amount" content="${decimalAmount(product.priceDkk, chrome.currency)}">
<meta property="product:price:currency" content="${chrome.currency}">
<script type="application/ld+json">${jsonScript(structuredData({ ...product, images }, url, chrome.currency))}</script>`,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: product.category.name, href: `/categories/${product.category.slug}` }, { label: product.name }])}
${flash ? notice(flash.kind, flash.text) : ""}${error ? notice("error", refusalText(error)) : ""}
<article class="product">
<div class="product-gallery">
<figure class="product-figure">
${productMedia({ ...product, firstImage: product.images[0] ?? null }, (product.images[0] && product.altOf.get(product.images[0])) || product.name, true)}
${product.images[0] && product.altOf.get(product.images[0]) ? html`<figcaption class="image-caption">${product.altOf.get(product.images[0])}</figcaption>` : ""}
</figure>
${product.images.length > 1 ? html`<ul class="product-thumbs">${product.images.slice(1).map((image, index) => html`<li><figure class="product-figure">${productMedia({ ...product, firstImage: image }, product.altOf.get(image) || `${product.name}, billede ${index + 2}`)}${product.altOf.get(image) ? html`<figcaption class="image-caption">${product.altOf.get(image)}</figcaption>` : ""}</figure></li>`)}</ul>` : ""}
</div>
<div class="product-info">
${product.brand ? html`<p class="product-brand">${product.brand}</p>` : ""}
<h1>${product.name}</h1>
<p class="product-price">${price(product.priceDkk, chrome.currency)}${chrome.pricesIncludeVat ? html` <span class="hint">inkl. moms</span>` : ""}</p>
<p>${stockLabel(product.stock)}</p>
<p class="product-summary">${summary}</p>
${buyForm(web, product, chrome.currency)}
<ul class="product-perks">
<li>${delivery}</li>
<li>Fri fragt over ${formatMoney(chrome.shipping.freeShippingThresholdDkk, chrome.currency, { whole: true })}</li>
<li>Spørgsmål? Ring ${chrome.contact.phone}</li>
</ul>
</div>
</article>
<div class="product-details">
<section aria-labelledby="about-title"><h2 id="about-title">Om produktet</h2>${bodyHtml(product.description)}</section>
${facts(product)}
${product.answers.useCases.length ? html`<section aria-labelledby="uses-title"><h2 id="uses-title">Velegnet til</h2><ul class="use-cases">${product.answers.useCases.map((use) => html`<li><strong>${use.title}</strong> ${use.description}</li>`)}</ul></section>` : ""}
${product.answers.faq.length ? html`<section class="faq" aria-labelledby="faq-title"><h2 id="faq-title">Spørgsmål og svar</h2>${product.answers.faq.map((item) => html`<details><summary>${item.q}</summary><p>${item.a}</p></details>`)}</section>` : ""}
${safetySection(safety)}
</div>
${relatedSection(related.filter((item) => item.slug !== product.slug).slice(0, 4), chrome.currency)}`,
  };
}

function firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)/);
  return end > 0 ? text.slice(0, end + 1) : text.slice(0, 160);
}

function buyForm(web: StorefrontRequest, product: Product, currency: string): Html {
  const buyable = product.variants.length ? product.variants.some((variant) => variant.stock > 0) : product.stock > 0;
  if (!buyable) return notice("info", "Udsolgt lige nu. Kig forbi igen snart, eller spørg kundeservice.");
  const firstInStock = product.variants.find((variant) => variant.stock > 0);
  const variants = product.variants.length
    ? html`<fieldset class="variants"><legend>${variantLegend(product.variants)}</legend>${product.variants.map((variant) => {
        const id = `v-${variant.sku}`;
        const out = variant.stock <= 0;
        return html`<div class="variant"><input type="radio" id="${id}" name="variantSku" value="${variant.sku}" required${out ? " disabled" : ""}${variant === firstInStock ? " checked" : ""}><label for="${id}">${Object.values(variant.attributes).join(" / ") || variant.sku}${variant.priceDkk !== null && variant.priceDkk !== product.priceDkk ? html` <span class="hint">${price(variant.priceDkk, currency)}</span>` : ""}${out ? html` <span class="hint">(udsolgt)</span>` : ""}</label></div>`;
      })}</fieldset>`
    : "";
  const max = Math.max(1, Math.min(100, product.variants.length ? Math.max(...product.variants.map((variant) => variant.stock)) : product.stock));
  return html`<form class="buy-form" action="/cart/add" method="post">
${web.csrfField()}
<input type="hidden" name="productSlug" value="${product.slug}">
${variants}
<div class="buy-row">
<div class="field quantity-field"><label for="buy-quantity">Antal</label><input id="buy-quantity" name="quantity" type="number" inputmode="numeric" min="1" max="${max}" value="1" required></div>
<button class="button button-accent buy-button" type="submit">Læg i kurv</button>
</div>
</form>`;
}

function variantLegend(variants: Product["variants"]): string {
  const keys = new Set(variants.flatMap((variant) => Object.keys(variant.attributes)));
  return keys.size === 1 ? `Vælg ${label([...keys][0]!).toLowerCase()}` : "Vælg variant";
}

function facts(product: Product): Html {
  const rows: Array<[string, string]> = [
    ["Mærke", product.brand ?? ""] as [string, string],
    ["Kategori", product.category.name] as [string, string],
    ["Stelfarve", product.frameColor ?? ""] as [string, string],
    ["Glasfarve", product.lensColor ?? ""] as [string, string],
    ...Object.entries(product.answers.attributes).map(([key, value]): [string, string] => [label(key), value]),
    ...Object.entries(product.answers.comparisonFacts).map(([key, value]): [string, string] => [label(key), value]),
  ].filter(([, value]) => value !== "");
  return html`<section aria-labelledby="facts-title"><h2 id="facts-title">Detaljer</h2><dl class="facts">${rows.map(([key, value]) => html`<div><dt>${key}</dt><dd>${value}</dd></div>`)}</dl></section>`;
}

function relatedSection(related: Parameters<typeof productGrid>[0], currency: string): Html {
  if (!related.length) return html``;
  return html`<section class="related" aria-labelledby="related-title"><h2 id="related-title">Andre kiggede også på</h2>${productGrid(related, currency)}</section>`;
}

/** schema.org Product with an Offer per buyable form (the product, or each variant), for search engines and agents. */
function structuredData(product: Product, url: string, currency: string): unknown {
  const offer = (priceMinor: number, stock: number, sku?: string) => ({
    "@type": "Offer",
    url,
    ...(sku ? { sku } : {}),
    price: decimalAmount(priceMinor, currency),
    priceCurrency: currency,
    availability: stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
    itemCondition: "https://schema.org/NewCondition",
  });
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    sku: product.slug,
    description: product.description,
    url,
    ...(product.images.length ? { image: product.images } : {}),
    ...(product.brand ? { brand: { "@type": "Brand", name: product.brand } } : {}),
    category: product.category.name,
    ...(product.frameColor ? { color: product.frameColor } : {}),
    offers: product.variants.length
      ? product.variants.map((variant) => offer(variant.priceDkk ?? product.priceDkk, variant.stock, variant.sku))
      : offer(product.priceDkk, product.stock),
  };
}
