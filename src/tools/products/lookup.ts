// products.lookup: visible products by product or variant id, with their variants and the shop's currency (the UCP
// catalog's lookups and the details of its search results read them here).
import { z } from "zod";
import { getCommerce } from "../settings/commerce.ts";
import { defineTool, READ } from "../tool.ts";
import { oere } from "../shared/amounts.ts";
import { variantOutput } from "./schemas.ts";
import { variantOwners } from "./product-rows.ts";

export const MAX_LOOKUP_IDS = 50;

export const lookedUpProduct = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  description: z.string(),
  priceDkk: oere("Price (VAT as the shop's prices are)"),
  stock: z.number().int().describe("Units in stock (of the product itself; variants count their own)."),
  featured: z.boolean(),
  frameColor: z.string().nullable(),
  lensColor: z.string().nullable(),
  images: z.array(z.string()).describe("Image URLs or shop paths, in display order."),
  category: z.strictObject({ slug: z.string(), name: z.string() }),
  variants: z.array(variantOutput).describe("In creation order; empty when the product is sold as itself."),
});

export default defineTool({
  name: "products.lookup",
  description:
    "Visible products by a product's or variant's id (checkout item ids), each once, in the order first asked. Returns " +
    "{currency, products: [{products.get's fields but createdAt, variants (as products.list_variants)}], notFound: " +
    "[id]}.",
  input: z.strictObject({
    ids: z.array(z.string().min(1).max(100)).min(1).max(MAX_LOOKUP_IDS).describe(`Product or variant ids, 1 to ${MAX_LOOKUP_IDS}.`),
  }),
  output: z.strictObject({
    currency: z.string().regex(/^[A-Z]{3}$/).describe("ISO 4217 currency of every price."),
    products: z.array(lookedUpProduct),
    notFound: z.array(z.string()).describe("Asked ids that are no visible product or variant (unknown, deleted or a draft)."),
  }),
  scope: "catalog:read",
  anonymous: true,
  audited: false,
  annotations: READ,
  examples: [{ ids: ["p000007342"] }, { ids: ["p000007342", "no-such-id"] }],
  async handler({ ids }, ctx) {
    const catalog = ctx.collaborators.catalog;
    const wanted = [...new Set(ids)];
    const known = await Promise.all(wanted.map((id) => catalog.productById(id)));
    const [owners, { currency }] = await Promise.all([variantOwners(ctx.db, wanted.filter((_, i) => !known[i])), getCommerce(ctx.db)]);
    const products = new Map<string, z.input<typeof lookedUpProduct>>();
    const notFound: string[] = [];
    for (const [i, id] of wanted.entries()) {
      const owner = owners.get(id);
      const product = owner === undefined ? known[i] : await catalog.productById(owner);
      const category = product && catalog.category(product.categoryId);
      if (!product || !category) {
        notFound.push(id);
        continue;
      }
      if (products.has(product.id)) continue;
      const { slug, name, brand, description, priceDkk, stock, featured, frameColor, lensColor, images } = product;
      const { variants } = await catalog.productDetails(product.id);
      products.set(product.id, { id: product.id, slug, name, brand, description, priceDkk, stock, featured, frameColor, lensColor, images, category: { slug: category.slug, name: category.name }, variants });
    }
    return { currency, products: [...products.values()], notFound };
  },
});
