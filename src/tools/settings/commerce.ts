// The shop's money settings (the "commerce" row): its currency and whether its prices include VAT, and the rates and
// free-shipping promotions a shop may use instead of the flat shipping rate (the "shipping_rates" and "promotions" rows).
import { z } from "zod";
import type { Db } from "../../core/db.ts";
import { ToolError } from "../../core/errors.ts";
import { toJson, type JsonValue } from "../../core/json.ts";
import type { ToolContext } from "../context.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { settingRow, settingsChanged } from "../shared/setting-rows.ts";

export const currencyCode = z.string().regex(/^[A-Z]{3}$/, "Use an ISO 4217 code in capitals, e.g. USD").describe("ISO 4217 currency of every price, e.g. \"DKK\".");
export const checkoutNeeds = z
  .enum(["full_address", "country"])
  .describe("What completes a checkout: the buyer's e-mail and a full address, or (as UCP allows) a country and a shipping option.");

/** Who may buy through the agent doors (UCP, ACP and their MCP bindings): the shop's one switch for agent checkouts. */
const AGENT_ACCESS = ["open", "signed", "key", "off"] as const;
export type AgentAccess = (typeof AGENT_ACCESS)[number];

export const agentAccess = z
  .enum(AGENT_ACCESS)
  .describe(
    "Who may check out as an AI agent: any (open), keyless ones only with signed UCP requests (signed), only checkout:agent " +
      "keys (key), or none (off: UCP and ACP checkouts refused, catalogue reads stay open).",
  );

/** What every agent checkout meets while agentAccess is "off" (403); each door answers it in its protocol's shape. */
export class AgentCheckoutOff extends ToolError {
  constructor() {
    super(403, "agent_checkout_off", "Forbidden", "This shop does not sell to AI agents at the moment: agent checkout is switched off.");
  }
}

const commerce = z.object({
  currency: currencyCode.default("DKK"),
  pricesIncludeVat: z.boolean().optional().describe("Whether catalogue prices include 25 % VAT; default true for DKK, else false."),
  checkoutNeeds: checkoutNeeds.default("full_address"),
  agentAccess: agentAccess.default("open"),
});

export interface Commerce {
  currency: string;
  pricesIncludeVat: boolean;
  checkoutNeeds: "full_address" | "country";
  agentAccess: AgentAccess;
}

export const shippingRate = z.object({
  id: z.string().min(1).max(100).describe("Unique; the option's id at checkout."),
  /** ISO 3166-1 alpha-2, or "default" for every country without a rate of its own at that service level. */
  country: z.string().min(1).max(10).describe("ISO 3166-1 alpha-2, or \"default\" for the other countries."),
  serviceLevel: z.string().min(1).max(50).describe("E.g. \"standard\" (promotions make it free), \"express\"."),
  title: z.string().min(1).max(200).describe("Shown to buyers."),
  amount: z.number().int().min(0).max(MAX_INT).describe("Minor units."),
});
export type ShippingRate = z.infer<typeof shippingRate>;

export const promotion = z.object({
  id: z.string().min(1).max(100).describe("Unique."),
  type: z.literal("free_shipping").describe("Makes the standard level free."),
  minSubtotal: z.number().int().min(0).max(MAX_INT).nullable().describe("Free from this subtotal (minor units); null: not by it."),
  productIds: z.array(z.string().min(1).max(100)).max(500).nullable().describe("Free when a line is one of these; null: not by product."),
  description: z.string().max(500).describe("Shown to buyers."),
});
export type Promotion = z.infer<typeof promotion>;

/** Currency and VAT: the stored "commerce" row, else DKK with VAT included. */
export async function getCommerce(db: Db): Promise<Commerce> {
  const row = await settingRow(db, "commerce");
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
  const row = await settingRow(db, "shipping_rates");
  const parsed = z.array(shippingRate).safeParse(row?.value ?? []);
  return parsed.success ? parsed.data : [];
}

export async function getPromotions(db: Db): Promise<Promotion[]> {
  const row = await settingRow(db, "promotions");
  const parsed = z.array(promotion).safeParse(row?.value ?? []);
  return parsed.success ? parsed.data : [];
}

/** What settings.get_commerce answers: the commerce row resolved, and the rates and promotions as stored. */
export const commerceSettings = z.strictObject({
  currency: z.string(),
  pricesIncludeVat: z.boolean(),
  checkoutNeeds: z.enum(["full_address", "country"]),
  agentAccess: z.enum(AGENT_ACCESS),
  shippingRates: z.array(shippingRate),
  promotions: z.array(promotion),
});

export async function getCommerceSettings(db: Db): Promise<z.infer<typeof commerceSettings>> {
  const [settings, shippingRates, promotions] = await Promise.all([getCommerce(db), getShippingRates(db), getPromotions(db)]);
  return { ...settings, shippingRates, promotions };
}

/** Stores one setting row whole and audits it, as updateSection does for the typed sections. */
export async function storeRow(ctx: ToolContext, section: string, value: unknown): Promise<void> {
  const before = await ctx.db.setting.findUnique({ where: { section } });
  const stored = toJson(value) as JsonValue[] | { [key: string]: JsonValue };
  const after = await ctx.db.setting.upsert({ where: { section }, create: { section, value: stored }, update: { value: stored } });
  settingsChanged(ctx);
  await ctx.audit({ subjectType: "setting", subjectId: section, before, after });
}
