// Storefront view pieces: product cards, the drawn product illustration behind photos, stock labels.
import { html, raw, type Html } from "../html.ts";
import { price } from "../components.ts";

export interface CardProduct {
  slug: string;
  name: string;
  brand: string | null;
  priceDkk: number;
  stock: number;
  frameColor: string | null;
  lensColor: string | null;
  firstImage: string | null;
}

/** What the picture of a product needs: its photo (if any) and what to draw behind it. */
export type CardLook = Pick<CardProduct, "name" | "frameColor" | "lensColor" | "firstImage">;

/** A colour name as a CSS class key: "blå spejl" → "blaa-spejl" (the stylesheet maps known keys to colours). */
function colourKey(colour: string | null): string {
  if (!colour) return "none";
  let key = colourKeys.get(colour);
  if (key === undefined) {
    key = colour.toLowerCase().replace(/æ/g, "ae").replace(/ø/g, "oe").replace(/å/g, "aa").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "none";
    if (colourKeys.size < 1000) colourKeys.set(colour, key);
  }
  return key;
}
const colourKeys = new Map<string, string>();

type ArtKind = "glasses" | "contact" | "case" | "cloth" | "spray" | "chain" | "card";

/** Frames have both colours, contact lenses a lens colour only; accessories and gift cards neither (told by name). */
function artKind(product: Pick<CardProduct, "name" | "frameColor" | "lensColor">): ArtKind {
  if (product.frameColor) return product.lensColor ? "glasses" : "case";
  if (product.lensColor) return "contact";
  if (/pudseklud/i.test(product.name)) return "cloth";
  if (/rensespray/i.test(product.name)) return "spray";
  if (/kæde/i.test(product.name)) return "chain";
  if (/gavekort/i.test(product.name)) return "card";
  return "case";
}

function lensShape(name: string): "round" | "aviator" | "rect" {
  if (/\b(rund|panto|round)\b/i.test(name)) return "round";
  return /aviator|pilot/i.test(name) ? "aviator" : "rect";
}

const LENSES = {
  round: '<circle class="art-lens" cx="58" cy="52" r="32"/><circle class="art-lens" cx="142" cy="52" r="32"/>',
  rect: '<rect class="art-lens" x="22" y="26" width="72" height="50" rx="14"/><rect class="art-lens" x="106" y="26" width="72" height="50" rx="14"/>',
  aviator: '<path class="art-lens" d="M24 30h68c2 24-8 48-34 48S20 54 24 30z"/><path class="art-lens" d="M108 30h68c4 24-8 48-34 48s-36-24-34-48z"/>',
};

const SHAPES: Record<Exclude<ArtKind, "glasses">, string> = {
  contact: '<ellipse class="art-lens" cx="100" cy="56" rx="44" ry="30"/><path class="art-shine" d="M72 48q10-14 30-16"/>',
  case: '<rect class="art-case" x="34" y="30" width="132" height="44" rx="22"/><path class="art-shine" d="M54 44h60"/>',
  cloth: '<path class="art-cloth" d="M52 18h96v64H72l-20-20z"/><path class="art-cloth-fold" d="M52 62h20v20"/>',
  spray: '<rect class="art-case" x="88" y="8" width="24" height="18" rx="4"/><rect class="art-bottle" x="76" y="26" width="48" height="68" rx="12"/><path class="art-shine" d="M88 40v36"/>',
  chain: '<path class="art-chain" d="M16 22q84 110 168 0"/><circle class="art-chain-end" cx="16" cy="22" r="7"/><circle class="art-chain-end" cx="184" cy="22" r="7"/>',
  card: '<rect class="art-card" x="30" y="16" width="140" height="72" rx="10"/><path class="art-shine" d="M48 36h56M48 52h32"/>',
};

/**
 * A drawn stand-in for the product photo, tinted with the product's frame and lens colours: shown while a photo
 * loads, when it fails and for products without photos (scripts/demo-images.ts draws the demo shop's photos with it).
 */
export function productArt(product: Pick<CardProduct, "name" | "frameColor" | "lensColor">): Html {
  const kind = artKind(product);
  const shape = kind === "glasses" ? `${LENSES[lensShape(product.name)]}<path class="art-frame-line" d="M94 46q6-8 12 0M22 40L6 34M178 40l16-6"/>` : SHAPES[kind];
  return html`<svg class="art art-${kind} frame-${colourKey(product.frameColor)} lens-${colourKey(product.lensColor)}" viewBox="0 0 200 100" aria-hidden="true" focusable="false">${raw(shape)}</svg>`;
}

export function stockLabel(stock: number): Html {
  if (stock <= 0) return html`<span class="tag tag-bad">Udsolgt</span>`;
  if (stock <= 5) return html`<span class="tag tag-warn">Kun ${stock} tilbage</span>`;
  return html`<span class="tag tag-ok">På lager</span>`;
}

/** The photo (if any) over the illustration, in a fixed 4:3 frame so the grid never jumps while images load. */
export function productMedia(product: CardLook, alt: string, eager = false): Html {
  return html`<div class="product-media">${productArt(product)}${product.firstImage ? html`<img ${imageSource(product.firstImage, eager)} alt="${alt}" width="800" height="600"${eager ? "" : html` loading="lazy"`} decoding="async">` : ""}</div>`;
}

/** The shop's own uploads (/images/<sha256>.<ext>) come resized: 400 px for a card, 800 px for the product photo. */
const UPLOADED = /^(?:https?:\/\/[^/?#]+)?\/images\/[0-9a-f]{64}\.[a-z]{3,4}$/;

function imageSource(url: string, large: boolean): Html {
  if (!UPLOADED.test(url)) return html`src="${url}"`;
  const sizes = large ? "(min-width: 64em) 50vw, 100vw" : "(min-width: 64em) 25vw, 50vw";
  return html`src="${url}?w=${large ? 800 : 400}" srcset="${url}?w=400 400w, ${url}?w=800 800w, ${url}?w=1600 1600w" sizes="${sizes}"`;
}

function productCard(product: CardProduct, currency: string, headingLevel: 2 | 3 = 3): Html {
  const heading = headingLevel === 2 ? html`<h2 class="product-name">${product.name}</h2>` : html`<h3 class="product-name">${product.name}</h3>`;
  return html`<li class="product-card">
<a class="product-link" href="/products/${encodeURIComponent(product.slug)}">
${productMedia(product, "")}
<div class="product-body">
${product.brand ? html`<p class="product-brand">${product.brand}</p>` : ""}
${heading}
<p class="product-meta">${price(product.priceDkk, currency)} ${stockLabel(product.stock)}</p>
</div>
</a>
</li>`;
}

export function productGrid(products: CardProduct[], currency: string, headingLevel: 2 | 3 = 3): Html {
  return html`<ul class="product-grid">${products.map((product) => productCard(product, currency, headingLevel))}</ul>`;
}
