// The ACP product feed (schema.feed 2026-04-17, offline full replacement): metadata.json (FeedMetadata) and
// products.jsonl (one Product per line, each with its purchasable Variants), from the catalogue read model. Variant ids
// are checkout item ids: the variant's id, or the product's id for a product without variants. Both files are built once
// per catalogue version and served from memory until the catalogue changes.
import { z } from "zod";
import type { Db } from "../../core/db.ts";
import { feedSource, type FeedEntry } from "../../tools/products/feed-source.ts";
import type { CatalogReadModel } from "../../tools/products/read-model.ts";

// ---------- our reading of the version's feed schema ----------

const price = z.strictObject({ amount: z.number().int().min(0), currency: z.string().regex(/^[A-Z]{3}$/) });
const media = z.strictObject({ type: z.string(), url: z.url(), alt_text: z.string().optional(), width: z.number().int().optional(), height: z.number().int().optional() });
const description = z.strictObject({ plain: z.string().optional(), html: z.string().optional(), markdown: z.string().optional() }).refine((value) => Object.keys(value).length > 0, "at least one form");
const link = z.strictObject({ type: z.string(), title: z.string().optional(), url: z.url() });
const seller = z.strictObject({ name: z.string().optional(), links: z.array(link).optional() });

export const feedVariant = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: description.optional(),
  url: z.url().optional(),
  barcodes: z.array(z.strictObject({ type: z.string(), value: z.string() })).optional(),
  price: price.optional(),
  list_price: price.optional(),
  availability: z.strictObject({ available: z.boolean().optional(), status: z.string().optional() }).optional(),
  categories: z.array(z.strictObject({ value: z.string(), taxonomy: z.string().optional() })).optional(),
  condition: z.array(z.string()).optional(),
  variant_options: z.array(z.strictObject({ name: z.string(), value: z.string() })).optional(),
  media: z.array(media).optional(),
  seller: seller.optional(),
  marketplace: seller.optional(),
});

export const feedProduct = z.strictObject({
  id: z.string(),
  title: z.string().optional(),
  description: description.optional(),
  url: z.url().optional(),
  media: z.array(media).optional(),
  variants: z.array(feedVariant),
});

export const feedMetadata = z.strictObject({
  id: z.string(),
  target_country: z.string().regex(/^[A-Z]{2}$/).optional(),
  updated_at: z.iso.datetime({ offset: true }).optional(),
});

type Product = z.infer<typeof feedProduct>;
type Variant = z.infer<typeof feedVariant>;

// ---------- the catalogue as the feed ----------

export interface FeedFiles {
  version: number;
  metadata: string;
  /** One Product per line, each line ending in a newline. */
  products: string;
  count: number;
}

const absolute = (baseUrl: string, url: string) => (/^https?:\/\//.test(url) ? url : `${baseUrl}${url.startsWith("/") ? "" : "/"}${url}`);

function availability(stock: number): Variant["availability"] {
  return stock > 0 ? { available: true, status: "in_stock" } : { available: false, status: "out_of_stock" };
}

/** One product of the catalogue as a feed Product: its variants, or itself as its only variant. */
export function product(entry: FeedEntry, baseUrl: string, currency: string): Product {
  const { product: item } = entry;
  const url = `${baseUrl}/products/${encodeURIComponent(item.slug)}`;
  const images = item.images.map((image) => ({ type: "image", url: absolute(baseUrl, image), alt_text: item.name }));
  const common = {
    url,
    ...(entry.category ? { categories: [{ value: entry.category, taxonomy: "merchant" }] } : {}),
    condition: ["new"],
    seller: {
      links: [
        { type: "terms_of_service", title: "Handelsbetingelser", url: `${baseUrl}/info/handelsbetingelser` },
        { type: "privacy_policy", title: "Privatlivspolitik", url: `${baseUrl}/info/privatlivspolitik` },
      ],
    },
  };
  const variants: Variant[] = entry.variants.length
    ? entry.variants.map((variant) => {
        const options = Object.entries(variant.attributes).map(([name, value]) => ({ name, value: String(value) }));
        return {
          id: variant.id,
          title: options.length ? `${item.name} – ${options.map((option) => option.value).join(" / ")}` : `${item.name} (${variant.sku})`,
          ...common,
          barcodes: [{ type: "SKU", value: variant.sku }],
          price: { amount: variant.priceDkk ?? item.priceDkk, currency },
          availability: availability(variant.stock),
          variant_options: options,
        };
      })
    : [{ id: item.id, title: item.name, ...common, price: { amount: item.priceDkk, currency }, availability: availability(item.stock), ...(images.length ? { media: images } : {}) }];
  return {
    id: item.id,
    title: item.name,
    ...(item.description ? { description: { plain: item.description } } : {}),
    url,
    ...(images.length ? { media: images } : {}),
    variants,
  };
}

/** The feed files, rebuilt only when the catalogue's version has moved (concurrent first requests share one build). */
export class AcpFeed {
  private cached: Promise<FeedFiles> | undefined;
  private cachedVersion = -1;
  private readonly catalog: CatalogReadModel;
  private readonly db: Db;
  private readonly baseUrl: string;
  private readonly now: () => Date;

  constructor(catalog: CatalogReadModel, db: Db, baseUrl: string, now: () => Date) {
    this.catalog = catalog;
    this.db = db;
    this.baseUrl = baseUrl;
    this.now = now;
  }

  files(): Promise<FeedFiles> {
    if (!this.cached || this.cachedVersion !== this.catalog.version) {
      this.cachedVersion = this.catalog.version;
      const build = this.build();
      // A failed build is not kept: the next request tries again.
      build.catch(() => {
        if (this.cached === build) this.cached = undefined;
      });
      this.cached = build;
    }
    return this.cached;
  }

  private async build(): Promise<FeedFiles> {
    const source = await feedSource(this.catalog, this.db);
    const lines = source.entries.map((entry) => `${JSON.stringify(product(entry, this.baseUrl, source.currency.toUpperCase()))}\n`);
    const metadata = { id: `feed_${new URL(this.baseUrl).host}`, target_country: "DK", updated_at: this.now().toISOString() };
    return { version: source.version, metadata: JSON.stringify(metadata), products: lines.join(""), count: lines.length };
  }
}
