// products.search: the public catalogue listing, served from the in-memory read model.
import { z } from "zod";
import { limit, offset } from "../fields.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { defineTool, READ } from "../tool.ts";
import { productSummary } from "./schemas.ts";
import { allowDrafts, draftsInput } from "./product-rows.ts";

const nonNegativeOere = (what: string) => z.number().int().min(0).max(MAX_INT).optional().describe(`${what}, integer øre.`);

export default defineTool({
  name: "products.search",
  description:
    "The visible catalogue by words and filters, featured first, then by name. Returns [{id, slug, name, brand, " +
    "priceDkk, stock, featured, frameColor, lensColor, category*, firstImage}].",
  input: z.strictObject({
    q: z.string().max(200).optional().describe("Words; each matches name, brand, category or colour."),
    categorySlug: z.string().optional().describe("Category slug."),
    brand: z.string().optional().describe("Brand (any case)."),
    frameColor: z.string().optional().describe("Frame colour."),
    lensColor: z.string().optional().describe("Lens colour."),
    featured: z.boolean().optional().describe("Featured or not."),
    inStock: z.boolean().optional().describe("true: in stock; false: sold out."),
    minPriceOere: nonNegativeOere("Lowest price"),
    maxPriceOere: nonNegativeOere("Highest price"),
    limit: limit(100, 20),
    offset: offset(10000),
    drafts: draftsInput,
  }),
  output: z.array(productSummary),
  scope: "catalog:read",
  anonymous: true,
  audited: false,
  annotations: READ,
  cache: "catalog",
  examples: [{}, { q: "aviator", inStock: true, limit: 5 }],
  async handler({ drafts, ...filters }, ctx) {
    return ctx.collaborators.catalog.search(filters, allowDrafts(ctx, drafts));
  },
});
