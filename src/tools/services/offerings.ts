// Queries and mapping of service offerings, shared by the services.* tools and the public /services pages.
import type { Db } from "../../core/db.ts";
import { NotFound } from "../../core/errors.ts";
import type { ServiceOffering } from "../../generated/prisma/client.ts";

const collator = new Intl.Collator("da", { sensitivity: "base" });
const TRANSLITERATION: Record<string, string> = { æ: "ae", ø: "oe", å: "aa", ä: "ae", ö: "oe", ü: "ue", ß: "ss" };
const MAX_SLUG_BASE = 80;

/** A slug from free text: lowercase, Danish letters transliterated, other runs to "-", never shorter than 2 characters. */
export function slugify(text: string, fallback = "service"): string {
  const slug = text
    .toLowerCase()
    .replace(/[æøåäöüß]/g, (letter) => TRANSLITERATION[letter] ?? letter)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_SLUG_BASE)
    .replace(/^-+|-+$/g, "");
  return slug.length >= 2 ? slug : fallback;
}

/** `base`, or `base-2`, `base-3` … — the first one no offering uses yet. */
export async function uniqueServiceSlug(db: Db, base: string): Promise<string> {
  const taken = new Set(
    (await db.serviceOffering.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } })).map((row) => row.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function findService(db: Db, slug: string): Promise<ServiceOffering> {
  const row = await db.serviceOffering.findUnique({ where: { slug } });
  if (!row) throw new NotFound(`No service offering with slug "${slug}".`);
  return row;
}

/** Listing order of /services and services.list: navOrder ascending, then title, then slug. */
function byNavOrder(a: ServiceOffering, b: ServiceOffering): number {
  if (a.navOrder !== b.navOrder) return a.navOrder < b.navOrder ? -1 : 1;
  return collator.compare(a.title, b.title) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}

export async function listServices(db: Db, status?: "draft" | "published"): Promise<ServiceOffering[]> {
  const rows = await db.serviceOffering.findMany({ where: status ? { status } : {} });
  return rows.sort(byNavOrder);
}

export function publicServiceUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}/services/${slug}`;
}

export function serviceStatus(row: ServiceOffering): "draft" | "published" {
  return row.status === "draft" ? "draft" : "published";
}

export function toSummary(row: ServiceOffering, baseUrl: string) {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    shortDescription: row.shortDescription,
    priceString: row.priceString,
    status: serviceStatus(row),
    showInNav: row.showInNav,
    navOrder: Number(row.navOrder),
    publicUrl: publicServiceUrl(baseUrl, row.slug),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDetail(row: ServiceOffering, baseUrl: string) {
  return {
    ...toSummary(row, baseUrl),
    body: row.body,
    heroImage: row.heroImage,
    features: row.features,
    createdAt: row.createdAt.toISOString(),
  };
}
