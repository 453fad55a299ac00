// The shop's name as mails sign and title with it: the stored branding's, read from its Setting row alone (the rows
// module is a leaf, so the money layer, which imports no area, can name the shop too).
import type { Db } from "../../core/db.ts";
import { settingRow } from "./setting-rows.ts";

export async function shopName(db: Db): Promise<string> {
  const row = await settingRow(db, "branding");
  const value = row?.value as { shopName?: unknown } | null | undefined;
  return typeof value?.shopName === "string" && value.shopName ? value.shopName : "Webshoppen";
}
