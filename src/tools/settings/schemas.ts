// The typed sections of the one settings document (rows of the Setting table) and the feature-flag shape.
import { z } from "zod";
import { MAX_INT } from "../shared/amounts.ts";

const color = (what: string) => z.string().regex(/^#[0-9a-fA-F]{6}$/, "Use #rrggbb").describe(`${what}.`);
const amount = (what: string) => z.number().int().min(0).max(MAX_INT).describe(`${what}, øre.`);
const text = (what: string, max: number) => z.string().min(1).max(max).describe(`${what}.`);

const carrier = z
  .strictObject({
    name: text("Carrier name, e.g. \"PostNord\"", 100),
    minDays: z.number().int().min(0).max(365).describe("Fewest business days."),
    maxDays: z.number().int().min(0).max(365).describe("Most business days (≥ minDays)."),
  })
  .refine((c) => c.minDays <= c.maxDays, { message: "maxDays must be at least minDays", path: ["maxDays"] });

// The items of methods and pickupPoints carry few descriptions: their schema is listed three times in tools/list.
const methodId = z.string().regex(/^[a-z0-9-]{2,50}$/, "Use a-z, 0-9 and -");
const days = z.number().int().min(0).max(365);

const deliveryMethod = z
  .strictObject({
    id: methodId,
    carrier: z.string().min(1).max(100),
    kind: z.enum(["home", "pickup"]).describe("pickup: at a pickupPoint of the carrier."),
    name: z.string().min(1).max(100).describe("Shown to shoppers."),
    priceDkk: z.number().int().min(0).max(MAX_INT).optional().describe("Øre; omitted: flatRateDkk."),
    minDays: days,
    maxDays: days,
  })
  .refine((m) => m.minDays <= m.maxDays, { message: "maxDays must be at least minDays", path: ["maxDays"] });

const pickupPoint = z.strictObject({
  id: methodId,
  carrier: z.string().min(1).max(100),
  name: z.string().min(1).max(100),
  address: z.string().min(1).max(200),
  zip: z.string().regex(/^\d{4}$/, "Danish postal codes are 4 digits"),
  city: z.string().min(1).max(100),
});

/** ISO 13616 check digits: the IBAN, rearranged and read as a number in base 36, is 1 modulo 97. */
function ibanChecks(iban: string): boolean {
  const digits = [...(iban.slice(4) + iban.slice(0, 4))].map((char) => parseInt(char, 36)).join("");
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

/** The fields of a Danish bank account (settings.update_sale_terms adds the BIC to them). */
export const bankAccountFields = z
  .strictObject({
    bankName: text("Bank name", 100),
    regNo: z.string().regex(/^\d{4}$/, "A Danish registration number is 4 digits").describe("Reg.nr."),
    accountNo: z.string().regex(/^\d{4,10}$/, "An account number is 4 to 10 digits").describe("Kontonr."),
    iban: z
      .string()
      .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, "Write the IBAN in capitals without spaces, e.g. DK5000400440116243")
      .refine(ibanChecks, "The IBAN's check digits do not match")
      .describe("For transfers from abroad."),
  });

const bankAccount = bankAccountFields.nullable().describe("For transfers; null removes it.");

export const SECTION_SCHEMAS = {
  branding: z.strictObject({
    shopName: text("Shop name", 100),
    tagline: z.string().max(200).describe("Under the name (empty: none)."),
    logoUrl: z.url({ protocol: /^https?$/ }).nullable().describe("Logo URL; null removes it."),
    primaryColor: color("Main colour"),
    accentColor: color("Accent colour"),
  }),
  shipping: z.strictObject({
    flatRateDkk: amount("Shipping price per order"),
    freeShippingThresholdDkk: amount("Goods total from which shipping is free"),
    carriers: z.array(carrier).max(20).describe("Carriers with delivery estimates."),
    methods: z.array(deliveryMethod).max(20).describe("Checkout's delivery methods, first = default; business days."),
    pickupPoints: z.array(pickupPoint).max(500).describe("Parcel shops for pickup methods."),
  }),
  contact: z.strictObject({
    email: z.email().describe("Customer-service e-mail."),
    phone: z.string().regex(/^\+?[0-9 ()-]{6,30}$/, "Use digits, spaces, ( ) - and an optional leading +").describe("Customer-service phone."),
    address: text("Business postal address", 300),
    cvr: z.string().regex(/^\d{8}$/, "A CVR number is 8 digits").describe("CVR number."),
    bankAccount,
  }),
  policies: z.strictObject({
    returns: text("Return policy", 20000),
    shipping: text("Shipping policy", 20000),
    privacy: text("Privacy policy", 20000),
    terms: text("Terms and conditions", 20000),
  }),
};

export type SectionName = keyof typeof SECTION_SCHEMAS;
export const SECTION_NAMES = Object.keys(SECTION_SCHEMAS) as SectionName[];
export type Settings = { [K in SectionName]: z.infer<(typeof SECTION_SCHEMAS)[K]> };

/** The input of settings.update_<section>: any subset of the section's fields (at least one). */
export function sectionPatch<T extends z.ZodRawShape>(section: z.ZodObject<T, z.core.$strict>) {
  return section.partial().refine((patch) => Object.keys(patch).length > 0, { message: "Give at least one field to change" });
}

export const featureFlag = z.strictObject({
  key: z.string().describe("Flag key, e.g. \"storefront_chat\"."),
  enabled: z.boolean(),
  description: z.string().describe("What the flag switches."),
  updatedAt: z.iso.datetime().describe("Last change (UTC)."),
});
