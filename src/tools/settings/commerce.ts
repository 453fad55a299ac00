// The shop's money settings (the "commerce" row): its currency and whether its prices include VAT, and the rates and
// free-shipping promotions a shop may use instead of the flat shipping rate (the "shipping_rates" and "promotions" rows).
import { z } from "zod";
import type { Db } from "../../core/db.ts";

export const commerce = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/).default("DKK").describe("ISO 4217 currency of every price, e.g. \"DKK\"."),
  pricesIncludeVat: z.boolean().optional().describe("Whether catalogue prices include 25 % VAT; default true for DKK, else false."),
  checkoutNeeds: z
    .enum(["full_address", "country"])
    .default("full_address")
    .describe("What a checkout session needs to complete: the buyer's e-mail and a full address, or (as UCP allows) a destination country and a shipping option."),
  agentAccess: z
    .enum(["open", "signed", "key"])
    .default("open")
    .describe("Who may use the UCP door: any agent (open), keyless agents only with signed requests (signed), or only agents with a checkout:agent key (key)."),
});

export interface Commerce {
  currency: string;
  pricesIncludeVat: boolean;
  checkoutNeeds: "full_address" | "country";
  agentAccess: "open" | "signed" | "key";
}

export const shippingRate = z.object({
  id: z.string().min(1).max(100),
  /** ISO 3166-1 alpha-2, or "default" for every country without a rate of its own at that service level. */
  country: z.string().min(1).max(10),
  serviceLevel: z.string().min(1).max(50),
  title: z.string().min(1).max(200),
  amount: z.number().int().min(0),
});
export type ShippingRate = z.infer<typeof shippingRate>;

export const promotion = z.object({
  id: z.string().min(1).max(100),
  type: z.literal("free_shipping"),
  minSubtotal: z.number().int().min(0).nullable(),
  productIds: z.array(z.string()).nullable(),
  description: z.string().max(500),
});
export type Promotion = z.infer<typeof promotion>;

/** Currency and VAT: the stored "commerce" row, else DKK with VAT included. */
export async function getCommerce(db: Db): Promise<Commerce> {
  const row = await db.setting.findUnique({ where: { section: "commerce" } });
  const parsed = commerce.safeParse(row?.value ?? {});
  const currency = parsed.success ? parsed.data.currency : "DKK";
  const included = parsed.success ? parsed.data.pricesIncludeVat : undefined;
  return {
    currency,
    pricesIncludeVat: included ?? currency === "DKK",
    checkoutNeeds: parsed.success ? parsed.data.checkoutNeeds : "full_address",
    agentAccess: parsed.success ? parsed.data.agentAccess : "open",
  };
}

/** The shop's shipping rates per country and service level (empty: the flat rate of the shipping settings applies). */
export async function getShippingRates(db: Db): Promise<ShippingRate[]> {
  const row = await db.setting.findUnique({ where: { section: "shipping_rates" } });
  const parsed = z.array(shippingRate).safeParse(row?.value ?? []);
  return parsed.success ? parsed.data : [];
}

export async function getPromotions(db: Db): Promise<Promotion[]> {
  const row = await db.setting.findUnique({ where: { section: "promotions" } });
  const parsed = z.array(promotion).safeParse(row?.value ?? []);
  return parsed.success ? parsed.data : [];
}
