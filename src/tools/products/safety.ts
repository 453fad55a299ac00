// Product safety information (GPSR, regulation (EU) 2023/988 art. 19): who made the product and how to reach them, the
// person responsible in the EU when the maker is outside it, and warnings in Danish. Kept as one JSON value per product.
import { z } from "zod";

export const party = z.strictObject({
  name: z.string().trim().min(1).max(200).describe("Company name."),
  address: z.string().trim().min(5).max(500).describe("Postal address."),
  contact: z.string().trim().min(3).max(254).describe("E-mail or web address."),
});

export const safetyFields = {
  manufacturer: party.describe("The maker."),
  euResponsible: party.nullable().describe("EU responsible person, when the maker is outside the EU; null: none."),
  warnings: z.string().trim().max(2000).describe("Safety warnings in Danish; empty: none."),
};

export const safetyView = z.strictObject({ productId: z.string(), slug: z.string(), ...safetyFields }).describe("null: not given");
export type Safety = { manufacturer: z.output<typeof party>; euResponsible: z.output<typeof party> | null; warnings: string };

/** The stored value as a Safety, or null when none (or something unreadable) is stored. */
export function readSafety(value: unknown): Safety | null {
  const parsed = z.strictObject(safetyFields).safeParse(value);
  return parsed.success ? parsed.data : null;
}
