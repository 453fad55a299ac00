// import.ucp_samples (internal): the operator's `shop import ucp-samples DIR`, the UCP samples' CSV shop loaded into an
// empty database in one transaction under the migration lock, audited as one entry with its counts (never the files).
// Only the CLI needs it: no door lists or serves it.
import { z } from "zod";
import { lockMigrationsIn } from "../../core/migrate.ts";
import { defineTool, WRITE } from "../tool.ts";
import { importUcpSamples } from "./ucp-samples.ts";

/** One CSV file of the samples: generous, the demo's are a few kB. */
const csv = (name: string) => z.string().max(50_000_000).optional().describe(`The samples' ${name}.csv, as read.`);

export default defineTool({
  name: "import.ucp_samples",
  description:
    "Load the UCP samples' CSV shop (products, inventory, customers, addresses, discounts, promotions, shipping rates) into an empty shop, keeping its ids. Returns the counts and the currency.",
  input: z.strictObject({
    files: z.strictObject({
      products: csv("products"),
      inventory: csv("inventory"),
      customers: csv("customers"),
      addresses: csv("addresses"),
      discounts: csv("discounts"),
      promotions: csv("promotions"),
      shipping_rates: csv("shipping_rates"),
    }),
    // The handler checks the code itself, so a wrong one is refused with the message the CLI always printed.
    currency: z.string().max(10).describe("ISO 4217 code of the samples' prices (without VAT)."),
  }),
  output: z.strictObject({
    products: z.number().int(),
    customers: z.number().int(),
    addresses: z.number().int(),
    discounts: z.number().int(),
    promotions: z.number().int(),
    shippingRates: z.number().int(),
    currency: z.string(),
  }),
  scope: "settings:write",
  anonymous: false,
  audited: true,
  internal: true,
  transactionTimeoutMs: 600_000,
  errors: [
    { status: 400, when: "products.csv is missing, a row is malformed or the currency is not an ISO 4217 code" },
    { status: 422, code: "shop_not_empty", when: "the shop already has a catalogue" },
  ],
  annotations: WRITE,
  examples: [{ files: { products: "id,title,price,image_url\nsample-1,Sample,1000,\n" }, currency: "USD" }],
  async handler({ files, currency }, ctx) {
    await lockMigrationsIn(ctx.db);
    const summary = await importUcpSamples(ctx.db, files, currency);
    await ctx.audit({ subjectType: "shop", subjectId: "ucp-samples", before: null, after: summary });
    return summary;
  },
});
