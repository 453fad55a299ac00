// GET /admin/products/new and /admin/products/<slug>: the product form, and for an existing product its stock,
// images (uploaded, from a URL or a stock-photo search), variants (product-variants.ts) and soft delete.
import { NotFound } from "../../../core/errors.ts";
import categoriesList from "../../../tools/categories/list.ts";
import searchStockPhotos from "../../../tools/images/search_stock_photos.ts";
import { MAX_IMAGE_BYTES } from "../../../tools/images/stored.ts";
import uploadImage from "../../../tools/images/upload.ts";
import imageAlts from "../../../tools/products/image_alts.ts";
import adjustStock from "../../../tools/products/adjust_stock.ts";
import attachImage from "../../../tools/products/attach_image.ts";
import createProduct from "../../../tools/products/create.ts";
import deleteProduct from "../../../tools/products/delete.ts";
import detachImage from "../../../tools/products/detach_image.ts";
import productsGet from "../../../tools/products/get.ts";
import getAnswers from "../../../tools/products/get_answers.ts";
import updateProduct from "../../../tools/products/update.ts";
import returnPolicy from "../../../tools/returns/policy.ts";
import { breadcrumbs, field as input } from "../../components.ts";
import { html, type Html } from "../../html.ts";
import type { View } from "../../page.ts";
import { actionButton, checkbox, formOpen, money, pageHead, submit } from "../components.ts";
import type { AdminRequest } from "../site.ts";
import { IMAGE_FIELD } from "../upload.ts";
import { variantsSection } from "./product-variants.ts";
import { safetySection } from "./product-safety.ts";
import { EMPTY_PRODUCT, productFormFields, valuesFromProduct, type ProductValues } from "./product-form.ts";

export const PRODUCT_SLUG = /^[a-z0-9-]{1,200}$/;

export interface FormState {
  values: ProductValues;
  errors: Record<string, string>;
  status: number;
  message?: string;
}

export async function newProductPage(web: AdminRequest, state?: FormState): Promise<View> {
  const [categories, commerce] = await Promise.all([web.call(categoriesList, { includeEmpty: true }), web.commerce()]);
  const values = state?.values ?? { ...EMPTY_PRODUCT, category: categories[0]?.slug ?? "" };
  return {
    status: state?.status ?? 200,
    title: "Nyt produkt",
    main: html`${breadcrumbs([{ label: "Produkter", href: "/admin/products" }, { label: "Nyt produkt" }])}
${pageHead("Nyt produkt")}
${state?.message ? html`<div class="notice notice-error" role="alert">${state.message}</div>` : ""}
${formOpen(web, "/admin/products/new", html` class="product-form"`)}
${productFormFields(values, state?.errors ?? {}, categories, true, commerce)}
${submit(web, createProduct, "Opret produkt")}
</form>`,
  };
}

function stockSection(web: AdminRequest, slug: string, stock: number): Html {
  return html`<section class="card"><h2>Lager</h2>
<p>På lager nu: <strong class="stock-now">${stock}</strong></p>
${formOpen(web, `/admin/products/${slug}/stock`)}
<div class="form-pair">
${input({ name: "delta", label: "Læg til / træk fra", type: "number", hint: "Fx 10 ved en levering, -1 ved brud." })}
${input({ name: "set", label: "eller sæt til", type: "number", min: 0 })}
</div>
${input({ name: "reason", label: "Årsag", required: true, maxlength: 500, placeholder: "Levering, optælling, brud …" })}
${submit(web, adjustStock, "Justér lager", "secondary")}
</form></section>`;
}

async function imagesSection(web: AdminRequest, slug: string, images: string[], drafts: boolean): Promise<Html> {
  const query = web.query("photos").slice(0, 200);
  const [found, described] = await Promise.all([
    query && web.may(searchStockPhotos) ? web.call(searchStockPhotos, { query, perPage: 12 }) : undefined,
    web.call(imageAlts, { slug, ...(drafts ? { drafts } : {}) }),
  ]);
  const altOf = new Map(described.map((image) => [image.url, image.alt]));
  const own = `${web.deps.config.publicBaseUrl}/images/`;
  // The shop's own uploads by path (whatever host the admin is opened on), as the small rendition.
  const shown = (url: string) => (url.startsWith(own) ? `${url.slice(own.length - "/images/".length)}?w=400` : url.startsWith("/images/") ? `${url}?w=400` : url);
  // The caption is the alt text shoppers' screen readers hear (the file name only when there is none, marked as missing).
  const caption = (url: string, alt: string | null) =>
    alt ? html`<span class="image-name" title="${url}">${alt}</span>` : html`<span class="image-name" title="${url}">${url.split("/").at(-1) ?? url} <span class="hint">(ingen alt-tekst)</span></span>`;
  const tiles = images.map((url) => html`<li class="image-tile"><a class="image-frame" href="${url}"><img src="${shown(url)}" alt="${altOf.get(url) ?? ""}" loading="lazy"></a>
${caption(url, altOf.get(url) ?? null)}
${actionButton(web, detachImage, { action: `/admin/products/${slug}/images/detach`, label: "Fjern", fields: { imageUrl: url }, look: "secondary", small: true, confirm: "Fjern billedet fra produktet?" })}</li>`);
  const results = found?.photos.map((photo) => html`<li class="image-tile"><span class="image-frame"><img src="${photo.thumbUrl}" alt="${photo.description ?? ""}" loading="lazy"></span>
<span class="hint">Foto: ${photo.photographer}</span>
${actionButton(web, attachImage, { action: `/admin/products/${slug}/images`, label: "Tilføj", fields: { imageUrl: photo.url, alt: (photo.description ?? "").slice(0, 200), sourceId: photo.sourceId }, small: true })}</li>`);
  return html`<section class="card" id="images"><h2>Billeder</h2>
${tiles.length ? html`<ul class="image-grid">${tiles}</ul>` : html`<p class="hint">Ingen billeder endnu.</p>`}
${formOpen(web, `/admin/products/${slug}/images/upload`, html` enctype="multipart/form-data" class="image-upload"`)}
<div class="form-pair">
<div class="field"><label for="f-image">Læg et billede op</label>
<p class="hint" id="f-image-hint">JPEG, PNG, WebP eller AVIF, højst ${MAX_IMAGE_BYTES / 1024 / 1024} MB.</p>
<input id="f-image" name="${IMAGE_FIELD}" type="file" accept="image/jpeg,image/png,image/webp,image/avif" required aria-describedby="f-image-hint"></div>
${input({ name: "alt", id: "f-upload-alt", label: "Beskrivelse (alt-tekst)", maxlength: 200 })}
</div>
${submit(web, uploadImage, "Læg billede op", "secondary")}
</form>
${formOpen(web, `/admin/products/${slug}/images`)}
<div class="form-pair">
${input({ name: "imageUrl", label: "Tilføj fra adresse", type: "url", placeholder: "https://…", required: true })}
${input({ name: "alt", label: "Beskrivelse (alt-tekst)", maxlength: 200 })}
</div>
${submit(web, attachImage, "Tilføj billede", "secondary")}
</form>
<form method="get" action="/admin/products/${slug}#images" class="inline-search" role="search">
${input({ name: "photos", label: "Søg i stockfotos", type: "search", value: query, placeholder: "fx solbriller strand" })}
<button class="button button-secondary" type="submit"${web.may(searchStockPhotos) ? "" : html` disabled title="Kræver adgangen ${searchStockPhotos.scope}"`}>Søg</button>
</form>
${found?.notice ? html`<p class="notice notice-info">${found.notice}</p>` : ""}
${results?.length ? html`<ul class="image-grid">${results}</ul>` : ""}
</section>`;
}

/**
 * Whether the product is a draft: not in the shop's catalogue, but among the drafts (read with `drafts: true`, which
 * needs products:write; others get the catalogue's 404). The `drafts` input the product's other reads then take.
 */
export async function draftInput(web: AdminRequest, slug: string): Promise<{ drafts?: true }> {
  try {
    await web.call(productsGet, { slug });
    return {};
  } catch (error) {
    if (!(error instanceof NotFound) || !web.may(updateProduct)) throw error;
    await web.call(productsGet, { slug, drafts: true });
    return { drafts: true };
  }
}

export async function productPage(web: AdminRequest, slug: string, state?: FormState): Promise<View> {
  if (!PRODUCT_SLUG.test(slug)) throw new NotFound(`No product "${slug}".`);
  const draft = await draftInput(web, slug);
  const [product, answers, categories, policy, commerce] = await Promise.all([
    web.call(productsGet, { slug, ...draft }),
    web.call(getAnswers, { slug, ...draft }),
    web.call(categoriesList, { includeEmpty: true }),
    web.call(returnPolicy, { slug }),
    web.commerce(),
  ]);
  const { currency } = commerce;
  const values = state?.values ?? valuesFromProduct(product, answers, policy.returnable, draft.drafts === true);
  const [images, variants, safety] = await Promise.all([imagesSection(web, slug, product.images, draft.drafts === true), variantsSection(web, slug, draft), safetySection(web, slug, product.id, draft.drafts === true)]);
  // A product with variants sells the variants' stock: its own product stock is not shown (nor adjusted) beside them.
  // The variants table goes full width under the two columns: in the side column it scrolled sideways at 1280 px.
  const stockText = variants.stock === null ? `${product.stock} på lager` : `${variants.stock} på lager i alt (varianter)`;
  return {
    status: state?.status ?? 200,
    title: product.name,
    main: html`${breadcrumbs([{ label: "Produkter", href: "/admin/products" }, { label: product.name }])}
${pageHead(product.name, { lead: html`${money(product.priceDkk, currency)} · ${stockText} · ${draft.drafts ? html`<span class="tag tag-warn">Kladde</span> (vises ikke i butikken)` : html`<a href="/products/${product.slug}">Se i butikken ↗</a>`}` })}
${state?.message ? html`<div class="notice notice-error" role="alert">${state.message}</div>` : ""}
<div class="product-layout">
<div>
${formOpen(web, `/admin/products/${slug}`, html` class="product-form"`)}
${productFormFields(values, state?.errors ?? {}, categories, false, commerce)}
${submit(web, updateProduct, "Gem ændringer")}
</form>
</div>
<div>
${variants.stock === null ? stockSection(web, slug, product.stock) : ""}
${images}
${safety}
<section class="card danger-zone"><h2>Slet produkt</h2>
<p class="hint">Produktet forsvinder fra butikken. Det kan genskabes fra ændringsloggen.</p>
${formOpen(web, `/admin/products/${slug}/delete`, html` data-confirm="Slet ${product.name}?"`)}
${checkbox({ name: "confirm", label: "Ja, slet produktet" })}
<button type="submit" class="button button-danger"${web.may(deleteProduct) ? "" : html` disabled title="Kræver adgangen ${deleteProduct.scope}"`}>Slet produkt</button>
</form></section>
</div>
</div>
${variants.html}`,
  };
}

