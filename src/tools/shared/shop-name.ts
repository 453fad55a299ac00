// The shop's name as mails sign and title with it: the stored branding's, read straight from its Setting row so the
// money layer (which imports no area) can name the shop too.
import type { Db } from "../../core/db.ts";

export async function shopName(db: Db): Promise<string> {
  const row = await db.setting.findUnique({ where: { section: "branding" } });
  const value = row?.value as { shopName?: unknown } | null | undefined;
  return typeof value?.shopName === "string" && value.shopName ? value.shopName : "Webshoppen";
}
