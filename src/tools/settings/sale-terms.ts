// The sale terms the owner sets besides the contact section: the bank account shoppers transfer to, with its BIC. The
// account's Danish fields stay in the contact section (settings.get and settings.update_contact keep their shapes); the
// BIC lives in its own row ("bank_bic") together with the IBAN it belongs to, so an account replaced through
// settings.update_contact never shows the BIC of the account before it.
import { z } from "zod";
import type { Db } from "../../core/db.ts";
import type { ToolContext } from "../context.ts";
import { storeRow } from "./commerce.ts";
import { settingRow } from "./rows.ts";
import { bankAccountFields } from "./schemas.ts";
import { getSection, updateSection } from "./service.ts";

const BIC_ROW = "bank_bic";

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

export const saleTerms = z.strictObject({ bankAccount: transferAccount });
export type SaleTerms = z.infer<typeof saleTerms>;

const storedBic = z.object({ iban: z.string(), bic: z.string().nullable() });

/** The transfer account: the contact section's account with its BIC (null when the BIC was stored for another IBAN). */
export async function getTransferAccount(db: Db): Promise<TransferAccount> {
  const [{ bankAccount }, row] = await Promise.all([getSection(db, "contact"), settingRow(db, BIC_ROW)]);
  if (!bankAccount) return null;
  const stored = storedBic.safeParse(row?.value);
  return { ...bankAccount, bic: stored.success && stored.data.iban === bankAccount.iban ? stored.data.bic : null };
}

export async function getSaleTerms(db: Db): Promise<SaleTerms> {
  return { bankAccount: await getTransferAccount(db) };
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
