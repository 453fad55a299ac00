// products.import: a batch of new products in one transaction, each as products.create takes it with its variants as
// products.upsert_variant takes them (`shop import products` sends a file in such batches). Slugs that exist are skipped,
// so a batch sent again changes nothing; categories named by a new slug are created.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { importProducts } from "./import-batch.ts";

const MAX_IMPORT_BATCH = 500;

const index = z.number().int().min(0).describe("Position in `products`.");

export default defineTool({
  name: "products.import",
  description:
    `Create up to ${MAX_IMPORT_BATCH} products (products.create inputs with variants), e.g. moving a catalogue in: ` +
    "an existing slug is skipped, an invalid product refused, a new categorySlug created. Returns {created: [{index, " +
    "id, slug}], skipped: [{index, slug}], refused: [{index, reason}]}.",
  // Each product is checked on its own (refused, not the whole batch), so the list's items are any objects here.
  input: z.strictObject({
    products: z
      .array(z.record(z.string(), z.unknown()))
      .min(1)
      .max(MAX_IMPORT_BATCH)
      .describe("products.create inputs, each optionally with variants (products.upsert_variant inputs without slug), categoryName and imageAlt ({url: alt})."),
  }),
  output: z.strictObject({
    created: z.array(z.strictObject({ index, id: z.string(), slug: z.string() })),
    skipped: z.array(z.strictObject({ index, slug: z.string().describe("Taken by an existing product, or by an earlier one of this batch.") })),
    refused: z.array(z.strictObject({ index, reason: z.string() })),
  }),
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  bodyLimit: "8mb",
  examples: [
    {
      products: [
        {
          name: "Nordlys Import Demo",
          slug: "nordlys-import-demo",
          description: "Et stel, der kom ind med en import.",
          priceDkk: 79900,
          stock: 4,
          categorySlug: "solbriller",
          variants: [{ sku: "nordlys-import-demo-s", attributes: { size: "S" }, stock: 2 }],
        },
      ],
    },
  ],
  handler: ({ products }, ctx) => importProducts(ctx, products),
});
