// The sale terms the owner sets beside the settings sections: the return period (one number the return tools, pages and
// mails follow), per-method free-shipping thresholds, and the bank account shoppers transfer to, with its BIC. The
// account's Danish fields stay in the contact section (settings.get and settings.update_contact keep their shapes); the
// BIC lives in its own row ("bank_bic") together with the IBAN it belongs to, so an account replaced through
// settings.update_contact never shows the BIC of the account before it.
import { z } from "zod";
import type { Db } from "../../core/db.ts";
import type { ToolContext } from "../context.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { storeRow } from "./commerce.ts";
import { settingRow } from "../shared/setting-rows.ts";
import { bankAccountFields } from "./schemas.ts";
import { getSection, updateSection } from "./settings-document.ts";

const BIC_ROW = "bank_bic";
const FREE_FROM_ROW = "delivery_free_from";
const RETURN_ROW = "return_period";

export const bic = z
  .string()
  .regex(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, "Write the BIC (SWIFT) in capitals, 8 or 11 characters, e.g. DABADKKK")
  .nullable()
  .describe("BIC/SWIFT for transfers from abroad; null: none.");

export const transferAccount = bankAccountFields
  .extend({ bic })
  .strict()
  .nullable()
  .describe("The account shoppers pay bank transfers into; null: none (they are asked to get in touch).");

export type TransferAccount = z.infer<typeof transferAccount>;

const METHOD_ID = /^[a-z0-9-]{2,50}$/;

export const freeShippingFrom = z
  .record(z.string().regex(METHOD_ID, "Use a-z, 0-9 and -"), z.number().int().min(0).max(MAX_INT).nullable())
  .refine((map) => Object.keys(map).length <= 20, "At most 20 methods")
  .describe("Per delivery method id: goods total (øre) from which it is free; null/absent: the shop's threshold.");

/** The legal minimum: forbrugeraftaleloven § 18's 14-day right of withdrawal. */
export const LEGAL_RETURN_DAYS = 14;

export const returnDays = z
  .number()
  .int()
  .min(LEGAL_RETURN_DAYS, "At least the 14 days of the right of withdrawal")
  .max(365)
  .describe("Days from delivery a shopper may return goods (withdrawal); at least 14.");

export const saleTerms = z.strictObject({ bankAccount: transferAccount, freeShippingFrom, returnDays });
export type SaleTerms = z.infer<typeof saleTerms>;

const storedBic = z.object({ iban: z.string(), bic: z.string().nullable() });

/** The transfer account: the contact section's account with its BIC (null when the BIC was stored for another IBAN). */
export async function getTransferAccount(db: Db): Promise<TransferAccount> {
  const [{ bankAccount }, row] = await Promise.all([getSection(db, "contact"), settingRow(db, BIC_ROW)]);
  if (!bankAccount) return null;
  const stored = storedBic.safeParse(row?.value);
  return { ...bankAccount, bic: stored.success && stored.data.iban === bankAccount.iban ? stored.data.bic : null };
}

/** The free-shipping thresholds of single delivery methods (methods without one use the shop's threshold). */
export async function getFreeShippingFrom(db: Db): Promise<Record<string, number>> {
  const row = await settingRow(db, FREE_FROM_ROW);
  const parsed = z.record(z.string(), z.number().int().min(0)).safeParse(row?.value ?? {});
  return parsed.success ? parsed.data : {};
}

/** The return period the tools, pages and mails apply: the owner's, else the legal 14 days. */
export async function getReturnDays(db: Db): Promise<number> {
  const row = await settingRow(db, RETURN_ROW);
  const parsed = z.object({ days: returnDays }).safeParse(row?.value);
  return parsed.success ? parsed.data.days : LEGAL_RETURN_DAYS;
}

export async function setReturnDays(ctx: ToolContext, days: number): Promise<void> {
  await storeRow(ctx, RETURN_ROW, { days });
}

export async function getSaleTerms(db: Db): Promise<SaleTerms> {
  const [bankAccount, free, days] = await Promise.all([getTransferAccount(db), getFreeShippingFrom(db), getReturnDays(db)]);
  return { bankAccount, freeShippingFrom: free, returnDays: days };
}

/** Merges per-method thresholds into the stored ones; null drops a method's own threshold. */
export async function setFreeShippingFrom(ctx: ToolContext, patch: Record<string, number | null>): Promise<void> {
  const merged: Record<string, number> = { ...(await getFreeShippingFrom(ctx.db)) };
  for (const [id, amount] of Object.entries(patch)) {
    if (amount === null) delete merged[id];
    else merged[id] = amount;
  }
  await storeRow(ctx, FREE_FROM_ROW, merged);
}

/** Stores the account whole (contact section and BIC row, each audited); null removes both. */
export async function setTransferAccount(ctx: ToolContext, account: TransferAccount): Promise<void> {
  if (!account) {
    await updateSection(ctx, "contact", { bankAccount: null });
    await storeRow(ctx, BIC_ROW, { iban: null, bic: null });
    return;
  }
  const { bic: code, ...fields } = account;
  await updateSection(ctx, "contact", { bankAccount: fields });
  await storeRow(ctx, BIC_ROW, { iban: fields.iban, bic: code });
}
