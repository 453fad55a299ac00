// Reading and writing the settings document: one typed JSON section per Setting row, audited as full rows.
import type { Db } from "../../core/db.ts";
import { toJson, type JsonValue } from "../../core/json.ts";
import type { FeatureFlag } from "../../generated/prisma/client.ts";
import { DEFAULT_SETTINGS } from "./defaults.ts";
import { settingRow, settingsChanged } from "../shared/setting-rows.ts";
import type { ToolContext } from "../context.ts";
import { SECTION_NAMES, SECTION_SCHEMAS, type SectionName, type Settings } from "./schemas.ts";

/** One section, validated; a section that was never stored reads as the default. */
export async function getSection<K extends SectionName>(db: Db, name: K): Promise<Settings[K]> {
  const row = await settingRow(db, name);
  return parseSection(name, row?.value);
}

/** The whole settings document (branding, shipping, contact, policies). */
export async function getSettings(db: Db): Promise<Settings> {
  const rows = await db.setting.findMany({ where: { section: { in: SECTION_NAMES } } });
  const stored = new Map(rows.map((row) => [row.section, row.value]));
  return {
    branding: parseSection("branding", stored.get("branding")),
    shipping: parseSection("shipping", stored.get("shipping")),
    contact: parseSection("contact", stored.get("contact")),
    policies: parseSection("policies", stored.get("policies")),
  };
}

function parseSection<K extends SectionName>(name: K, value: unknown): Settings[K] {
  const stored = value && typeof value === "object" && !Array.isArray(value) ? value : {};
  return SECTION_SCHEMAS[name].parse({ ...DEFAULT_SETTINGS[name], ...stored }) as Settings[K];
}

/** Merges the given fields into a section, stores it and audits the Setting row; returns the full new section. */
export async function updateSection<K extends SectionName>(ctx: ToolContext, name: K, patch: Partial<Settings[K]>): Promise<Settings[K]> {
  const before = await ctx.db.setting.findUnique({ where: { section: name } });
  // Merged into the row as stored now (not as this process last read it), so no other writer's change is lost.
  const merged = SECTION_SCHEMAS[name].parse({ ...parseSection(name, before?.value), ...patch }) as Settings[K];
  const value = toJson(merged) as { [key: string]: JsonValue };
  const after = await ctx.db.setting.upsert({ where: { section: name }, create: { section: name, value }, update: { value } });
  settingsChanged(ctx);
  await ctx.audit({ subjectType: "setting", subjectId: name, before, after });
  return merged;
}

export function featureView(flag: FeatureFlag) {
  return { key: flag.key, enabled: flag.enabled, description: flag.description, updatedAt: flag.updatedAt.toISOString() };
}
