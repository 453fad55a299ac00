// Shared shapes of the products area (SPEC.md "Product summary", "Product detail", "Product write fields").
// The primitives every area shares (øre, MAX_INT, timestamps, the slug rule) are in ../shared/.
import { z } from "zod";
import { MAX_INT, oere } from "../shared/amounts.ts";
import { newSlug } from "../shared/slugs.ts";
import { isoDateTime } from "../shared/timestamps.ts";

export const slugInput = z.string().min(1).describe("Product slug.");

/** An image the shop serves itself, by its path ("/demo-images/…"): it keeps working when the shop's address changes. */
const sitePath = z.string().max(2000).regex(/^\/(?:[^/\\\s][^\s\\]*)?$/, "Use a path on this shop starting with one /");

export const productSummary = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  priceDkk: oere("Price incl. VAT"),
  stock: z.number().int().describe("Units in stock."),
  featured: z.boolean(),
  frameColor: z.string().nullable(),
  lensColor: z.string().nullable(),
  categorySlug: z.string(),
  categoryName: z.string(),
  firstImage: z.string().nullable().describe("URL of the first image, or null."),
});

export const productDetail = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  description: z.string(),
  priceDkk: oere("Price incl. VAT"),
  stock: z.number().int(),
  featured: z.boolean(),
  frameColor: z.string().nullable(),
  lensColor: z.string().nullable(),
  images: z.array(z.string()).describe("Image URLs in display order."),
  category: z.strictObject({ slug: z.string(), name: z.string(), description: z.string().nullable() }),
  createdAt: isoDateTime,
});

const stringMap = z.record(z.string(), z.string());

/** Product write fields (create; all optional inside `patch` for update, slug excepted). */
export const productFields = {
  name: z.string().min(2).describe("Product name."),
  description: z.string().min(10).describe("Long description."),
  priceDkk: z.number().int().gt(0).max(MAX_INT).describe("Price incl. VAT, øre."),
  stock: z.number().int().min(0).max(MAX_INT).describe("Units in stock."),
  frameColor: z.string().min(1).describe("E.g. \"sort\"."),
  lensColor: z.string().min(1).describe("E.g. \"grøn\"."),
  brand: z.string().min(1).describe("Brand name."),
  attributes: stringMap.describe("String attributes."),
  answerSummary: z.string().max(500).describe("Answer-engine summary."),
  faq: z.array(z.strictObject({ q: z.string().min(1), a: z.string().min(1) })).describe("Questions and answers."),
  useCases: z.array(z.strictObject({ title: z.string().min(1), description: z.string().min(1) })).describe("Typical uses."),
  comparisonFacts: stringMap.describe("E.g. {\"vægt\": \"22 g\"}."),
  categoryId: z.string().min(1).describe("Category by id."),
  categorySlug: z.string().min(1).describe("Category slug (or categoryId)."),
  featured: z.boolean().describe("Shown first in listings."),
  images: z.array(z.union([z.url({ protocol: /^https?$/ }), sitePath])).describe("Image URLs (http(s), or a path on this shop)."),
  giftCard: z.boolean().describe("Each unit paid e-mails the buyer a gift card of its price."),
};

export const productRef = z.strictObject({ id: z.string(), slug: z.string() });

/** Image URLs of a product write: distinct, in display order. */
export const imageList = productFields.images.refine((urls) => new Set(urls).size === urls.length, "Image URLs must be distinct");

/** A product variant as the variant tools return it. */
export const variantOutput = z.strictObject({
  id: z.string(),
  sku: z.string(),
  attributes: stringMap.describe("Variant attributes, e.g. {\"size\": \"M\"}."),
  priceDkk: z.number().int().nullable().describe("Price override in øre, or null when the product price applies."),
  stock: z.number().int().min(0).describe("Units of this variant in stock."),
});

export const sku = z.string().min(1).max(100).describe("Unique per product.");

/** `schema.optional()` keeping its description (zod 4 does not carry `.describe()` over to the wrapper). */
function optional<T extends z.ZodType>(schema: T) {
  return schema.optional().describe(schema.description ?? "");
}

/** The write fields that are optional on create and update alike. */
const optionalProductFields = {
  frameColor: optional(productFields.frameColor),
  lensColor: optional(productFields.lensColor),
  brand: optional(productFields.brand),
  attributes: optional(productFields.attributes),
  answerSummary: optional(productFields.answerSummary),
  faq: optional(productFields.faq),
  useCases: optional(productFields.useCases),
  comparisonFacts: optional(productFields.comparisonFacts),
  categoryId: optional(productFields.categoryId),
  categorySlug: optional(productFields.categorySlug),
  giftCard: optional(productFields.giftCard),
};

/** The fields of a new product (products.create; each line of products.import). */
export const newProductFields = {
  name: productFields.name,
  slug: newSlug.describe("Permanent URL slug."),
  description: productFields.description,
  priceDkk: productFields.priceDkk,
  stock: productFields.stock,
  ...optionalProductFields,
  featured: productFields.featured.default(false).describe("Shown first in listings."),
  images: imageList.default([]).describe("Image URLs in display order."),
  draft: z.boolean().default(false).describe("Hidden from shoppers until published."),
};

/** A new product names its category by id or by slug (`.refine(...categoryGiven)`). */
export const categoryGiven: [(value: { categoryId?: string | undefined; categorySlug?: string | undefined }) => boolean, { message: string; path: string[] }] = [
  (value) => value.categoryId !== undefined || value.categorySlug !== undefined,
  { message: "Give the category as categoryId or categorySlug", path: ["categorySlug"] },
];

/** The fields of a variant write (products.upsert_variant, besides the product's slug; products.import's variants). */
export const variantFields = {
  sku,
  attributes: productFields.attributes.optional().describe("E.g. {\"size\": \"M\"}; replaces the old."),
  priceDkk: z.number().int().gt(0).max(MAX_INT).nullable().optional().describe("Øre incl. VAT; null: the product's."),
  stock: z.number().int().min(0).max(MAX_INT).optional().describe("Units (deltas: products.adjust_stock)."),
};

/** One new product of products.import: as products.create takes it, with its variants and its images' alt texts. */
export const importItem = z
  .strictObject({
    ...newProductFields,
    categoryName: z.string().min(2).max(200).optional().describe("The category's name if categorySlug names a new one (default: the slug in words)."),
    imageAlt: z.record(z.string(), z.string().max(200)).optional().describe("Alt text per image URL of `images`."),
    variants: z
      .array(z.strictObject(variantFields))
      .max(100)
      .default([])
      .refine((variants) => new Set(variants.map((v) => v.sku)).size === variants.length, "Variant SKUs must be distinct")
      .describe("Variants as products.upsert_variant takes them (without the slug), 0 to 100."),
  })
  .refine(...categoryGiven);
