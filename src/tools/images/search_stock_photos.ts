// images.search_stock_photos: find stock photos for products through the configured provider; degrades to a notice.
import { z } from "zod";
import { defineTool } from "../tool.ts";
import { searchStockPhotos } from "./unsplash.ts";

export default defineTool({
  name: "images.search_stock_photos",
  description:
    "Stock photos (English works best) for a product without images; attach one with products.attach_image (url, " +
    "sourceId, short alt), crediting the photographer. No provider or a failure: no photos, a notice to relay. Returns " +
    "{photos: [{url, thumbnail, size, photographer, sourceId}], notice}.",
  input: z.strictObject({
    query: z.string().trim().min(1).max(200).describe("E.g. \"sunglasses beach\"."),
    perPage: z.number().int().min(1).max(30).default(10).describe("Photos per page."),
    page: z.number().int().min(1).max(100).default(1).describe("Result page."),
  }),
  output: z.strictObject({
    photos: z.array(
      z.strictObject({
        id: z.string().describe("The provider's photo id."),
        description: z.string().nullable().describe("What the photo shows, when the provider knows."),
        url: z.url({ protocol: /^https$/ }).describe("https URL of the regular-size image: pass it as imageUrl to products.attach_image."),
        thumbUrl: z.url().describe("Small preview image URL."),
        width: z.number().int().positive().describe("Original width in pixels."),
        height: z.number().int().positive().describe("Original height in pixels."),
        photographer: z.string().describe("Name to credit."),
        photographerUrl: z.url().describe("The photographer's profile page."),
        sourceId: z.string().describe("Pass as sourceId to products.attach_image (e.g. \"unsplash:abc123\")."),
      }),
    ),
    notice: z.string().nullable().describe("Why there are no photos (no provider key, provider error, nothing matched); null otherwise."),
  }),
  scope: "products:write",
  anonymous: false,
  audited: false,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  examples: [{ query: "sunglasses", perPage: 5 }],
  async handler(input, ctx) {
    return searchStockPhotos(ctx.config, input, ctx.log);
  },
});
