// Queries and mapping of content pages, shared by the pages.* tools and the public /info/<slug> pages.
import type { Db } from "../../core/db.ts";
import { NotFound } from "../../core/errors.ts";
import type { Page } from "../../generated/prisma/client.ts";
import { validLayout } from "./layout-sections.ts";

const collator = new Intl.Collator("da", { sensitivity: "base" });

export async function findPage(db: Db, slug: string): Promise<Page> {
  const row = await db.page.findUnique({ where: { slug } });
  if (!row) throw new NotFound(`No page with slug "${slug}".`);
  return row;
}

/** Every page, drafts included, by title. */
export async function listPages(db: Db): Promise<Page[]> {
  const rows = await db.page.findMany();
  return rows.sort((a, b) => collator.compare(a.title, b.title) || (a.slug < b.slug ? -1 : 1));
}

export function pageStatusOf(row: Page): "draft" | "published" {
  return row.status === "draft" ? "draft" : "published";
}

function publicPageUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}/info/${slug}`;
}

export function toPageRow(row: Page) {
  return { id: row.id, slug: row.slug, title: row.title, status: pageStatusOf(row), updatedAt: row.updatedAt.toISOString() };
}

export function toPageDetail(row: Page, baseUrl: string) {
  return {
    ...toPageRow(row),
    body: row.body,
    hasLayout: validLayout(row.layout) !== null,
    publicUrl: publicPageUrl(baseUrl, row.slug),
    createdAt: row.createdAt.toISOString(),
  };
}
