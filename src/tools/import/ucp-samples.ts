// Imports the UCP samples' CSV shop (products, inventory, customers, addresses, discounts, promotions, shipping rates)
// into an empty database, keeping its ids: product ids and address ids are what agents name. Amounts are integer minor
// units of the shop currency given (the samples are in US cents, prices without VAT).
import { z } from "zod";
import type { Db } from "../../core/db.ts";
import { Invalid, Refused } from "../../core/errors.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { Promotion, ShippingRate } from "../settings/commerce.ts";
import { forgetSettingRows } from "../shared/setting-rows.ts";
import { parseCsv } from "./csv.ts";

/** The CSV texts by file name without ".csv"; products is required, the rest optional. */
export type SampleFiles = Partial<Record<"products" | "inventory" | "customers" | "addresses" | "discounts" | "promotions" | "shipping_rates", string>>;

export interface ImportSummary {
  products: number;
  customers: number;
  addresses: number;
  discounts: number;
  promotions: number;
  shippingRates: number;
  currency: string;
}

const id = z.string().min(1).max(100);
const minor = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const rows = {
  products: z.object({ id, title: z.string().min(1).max(200), price: minor, image_url: z.string().optional() }),
  inventory: z.object({ product_id: id, quantity: minor }),
  customers: z.object({ id, name: z.string().max(200).optional(), email: z.email() }),
  addresses: z.object({
    id,
    customer_id: id,
    street_address: z.string().min(1),
    city: z.string().min(1),
    state: z.string().optional(),
    postal_code: z.string().min(1),
    country: z.string().regex(/^[A-Za-z]{2}$/),
  }),
  discounts: z.object({ code: z.string().min(3).max(50), type: z.enum(["percentage", "fixed_amount"]), value: minor, description: z.string().optional() }),
  promotions: z.object({
    id,
    type: z.literal("free_shipping"),
    min_subtotal: z.string().optional(),
    eligible_item_ids: z.string().optional(),
    description: z.string().optional(),
  }),
  shipping_rates: z.object({ id, country_code: z.string().min(1), service_level: z.string().min(1), price: minor, title: z.string().min(1) }),
};

function read<K extends keyof typeof rows>(files: SampleFiles, name: K): Array<z.infer<(typeof rows)[K]>> {
  const text = files[name];
  if (text === undefined) return [];
  return parseCsv(text).map((row, index) => {
    const parsed = rows[name].safeParse(row);
    if (!parsed.success) throw new Invalid(`${name}.csv row ${index + 2}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
    return parsed.data as z.infer<(typeof rows)[K]>;
  });
}

const slugOf = (value: string) => value.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").padEnd(2, "x");

/** Writes the samples into `db` (one transaction: the caller's); 422 shop_not_empty when a catalogue exists already. */
export async function importUcpSamples(db: Db, files: SampleFiles, currency: string): Promise<ImportSummary> {
  if (!/^[A-Z]{3}$/.test(currency)) throw new Invalid(`"${currency}" is not an ISO 4217 currency code.`);
  if (files.products === undefined) throw new Invalid("products.csv is missing.");
  if ((await db.product.count()) > 0 || (await db.category.count()) > 0) {
    throw new Refused("shop_not_empty", "The shop already has a catalogue; import the samples into an empty shop (start it with SEED=none).");
  }
  const products = read(files, "products");
  const stock = new Map(read(files, "inventory").map((row) => [row.product_id, row.quantity]));
  const category = await db.category.create({ data: { slug: "products", name: "Products" } });
  for (const product of products) {
    await db.product.create({
      data: {
        id: product.id,
        slug: slugOf(product.id),
        name: product.title,
        description: product.title,
        priceDkk: BigInt(product.price),
        stock: BigInt(stock.get(product.id) ?? 0),
        categoryId: category.id,
        ...(product.image_url ? { images: { create: [{ url: product.image_url, alt: product.title, position: 0 }] } } : {}),
      },
    });
  }
  const customers = read(files, "customers");
  for (const customer of customers) {
    await db.customer.create({ data: { id: customer.id, email: customer.email.toLowerCase(), name: customer.name || null } });
  }
  const names = new Map(customers.map((customer) => [customer.id, customer.name || customer.email]));
  const addresses = read(files, "addresses");
  for (const address of addresses) {
    await db.address.create({
      data: {
        id: address.id,
        customerId: address.customer_id,
        name: names.get(address.customer_id) ?? address.customer_id,
        address: address.street_address,
        zip: address.postal_code,
        city: address.city,
        region: address.state || null,
        country: address.country.toUpperCase(),
      },
    });
  }
  const discounts = read(files, "discounts");
  for (const discount of discounts) {
    await db.discount.create({ data: { code: discount.code.toUpperCase(), type: discount.type === "percentage" ? "percent" : "fixed", value: BigInt(discount.value) } });
  }
  const promotions: Promotion[] = read(files, "promotions").map((row) => ({
    id: row.id,
    type: row.type,
    minSubtotal: row.min_subtotal ? minor.parse(row.min_subtotal) : null,
    productIds: row.eligible_item_ids ? z.array(z.string()).parse(JSON.parse(row.eligible_item_ids)) : null,
    description: row.description ?? "",
  }));
  const rates: ShippingRate[] = read(files, "shipping_rates").map((row) => ({
    id: row.id,
    country: row.country_code === "default" ? "default" : row.country_code.toUpperCase(),
    serviceLevel: row.service_level,
    title: row.title,
    amount: row.price,
  }));
  const setting = (section: string, value: Prisma.InputJsonValue) => db.setting.upsert({ where: { section }, create: { section, value }, update: { value } });
  await setting("commerce", { currency, pricesIncludeVat: false, checkoutNeeds: "country" });
  if (promotions.length) await setting("promotions", promotions as unknown as Prisma.InputJsonValue);
  if (rates.length) await setting("shipping_rates", rates as unknown as Prisma.InputJsonValue);
  forgetSettingRows(db);
  return { products: products.length, customers: customers.length, addresses: addresses.length, discounts: discounts.length, promotions: promotions.length, shippingRates: rates.length, currency };
}
