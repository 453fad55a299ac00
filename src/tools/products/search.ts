// products.search: the public catalogue listing, served from the in-memory read model.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { productSummary } from "./schemas.ts";

const nonNegativeOere = (what: string) => z.number().int().min(0).max(9007199254740991).optional().describe(`${what}, integer øre.`);

export default defineTool({
  name: "products.search",
  description:
    "Search the visible catalogue. Use it to find products by words (q matches every word in name, brand, category and colours) " +
    "and/or filters. Returns product summaries, featured first then by name; page with limit/offset. Prices are in øre.",
  input: z.strictObject({
    q: z.string().max(200).optional().describe("Search words; every word must match name, brand, category or colour (case-insensitive)."),
    categorySlug: z.string().optional().describe("Only this category (slug)."),
    brand: z.string().optional().describe("Only this brand (case-insensitive exact match)."),
    frameColor: z.string().optional().describe("Only this frame colour (case-insensitive)."),
    lensColor: z.string().optional().describe("Only this lens colour (case-insensitive)."),
    featured: z.boolean().optional().describe("Only featured (true) or non-featured (false) products."),
    inStock: z.boolean().optional().describe("true: only products with stock > 0; false: only sold-out ones."),
    minPriceOere: nonNegativeOere("Lowest price"),
    maxPriceOere: nonNegativeOere("Highest price"),
    limit: z.number().int().min(1).max(100).default(20).describe("Page size, 1..100 (default 20)."),
    offset: z.number().int().min(0).max(10000).default(0).describe("Items to skip, 0..10000 (default 0)."),
  }),
  output: z.array(productSummary),
  scope: "catalog:read",
  anonymous: true,
  audited: false,
  annotations: READ,
  cache: "catalog",
  examples: [{}, { q: "aviator", inStock: true, limit: 5 }],
  async handler(input, ctx) {
    return ctx.services.catalog.search(input);
  },
});
