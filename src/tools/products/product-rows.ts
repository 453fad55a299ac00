// Shared logic of the products area: locating and locking visible products, categories, audit snapshots.
import { z } from "zod";
import type { Db } from "../../core/db.ts";
import { Forbidden, Invalid, NotFound } from "../../core/errors.ts";
import type { Category, Product, ProductVariant } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { hasScope } from "../scopes.ts";
import type { CatalogProduct } from "./catalog-model.ts";
import { MAX_INT } from "../shared/amounts.ts";

/** The audit snapshot of a product: the full row plus its images in display order (CONTRIBUTING.md). */
export type ProductSnapshot = Product & { images: Array<{ url: string; alt: string | null; sourceId: string | null; position: number }> };

export async function productSnapshot(db: Db, id: string): Promise<ProductSnapshot> {
  const [snapshot] = await productSnapshots(db, [id]);
  if (!snapshot) throw new NotFound(`No product with id "${id}".`);
  return snapshot;
}

/** Snapshots of several products in two queries (bulk writes); missing ids are left out, order follows `ids`. */
export async function productSnapshots(db: Db, ids: string[]): Promise<ProductSnapshot[]> {
  const rows = await db.product.findMany({ where: { id: { in: ids } } });
  const images = await db.productImage.findMany({
    where: { productId: { in: ids } },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
    select: { productId: true, url: true, alt: true, sourceId: true, position: true },
  });
  const byId = new Map(rows.map((row) => [row.id, { ...row, images: [] } as ProductSnapshot]));
  for (const { productId, ...image } of images) byId.get(productId)?.images.push(image);
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The visible (non-deleted) product with this slug, row-locked until the transaction ends so concurrent
 * writes to one product serialise and their before/after snapshots stay exact. 404 when absent or deleted.
 */
export async function lockVisibleProduct(db: Db, slug: string): Promise<string> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "Product" WHERE slug = ${slug} AND "deletedAt" IS NULL FOR UPDATE`;
  if (!rows[0]) throw new NotFound(`No product with slug "${slug}".`);
  return rows[0].id;
}

/** The `drafts` input of the catalogue reads: with true they read the unpublished drafts instead, for staff. */
export const draftsInput = z.boolean().optional().describe("true: drafts instead (needs products:write).");

/** Refuses `drafts: true` to a caller who may not edit products (drafts are not shown to shoppers). */
export function allowDrafts(ctx: ToolContext, drafts: boolean | undefined): boolean {
  if (drafts && !hasScope(ctx.caller.scopes, "products:write")) throw new Forbidden("Reading drafts needs the products:write scope.");
  return drafts === true;
}

/** A visible (non-deleted, published) product from the catalogue read model, or with `drafts` a draft; 404 otherwise. */
export async function catalogProduct(ctx: ToolContext, slug: string, drafts = false): Promise<CatalogProduct> {
  const product = await ctx.collaborators.catalog.product(slug, drafts);
  if (!product) throw new NotFound(`No product with slug "${slug}".`);
  return product;
}

/**
 * Resolves the category of a product write (by id or slug) and takes a key-share lock on it, so a concurrent
 * categories.delete either sees the new product or makes this lookup miss. Both given and disagreeing: 400.
 */
export async function resolveCategory(db: Db, ref: { categoryId?: string | undefined; categorySlug?: string | undefined }): Promise<Category> {
  type Row = { id: string; slug: string };
  const rows = ref.categoryId
    ? await db.$queryRaw<Row[]>`SELECT id, slug FROM "Category" WHERE id = ${ref.categoryId} FOR KEY SHARE`
    : await db.$queryRaw<Row[]>`SELECT id, slug FROM "Category" WHERE slug = ${ref.categorySlug ?? ""} FOR KEY SHARE`;
  const row = rows[0];
  if (!row) throw new NotFound(ref.categoryId ? `No category with id "${ref.categoryId}".` : `No category with slug "${ref.categorySlug}".`);
  if (ref.categoryId && ref.categorySlug && row.slug !== ref.categorySlug) {
    throw new Invalid("categoryId and categorySlug name different categories; give only one of them.", [
      { path: "categorySlug", message: `Category "${ref.categorySlug}" is not the category with id "${ref.categoryId}" ("${row.slug}")` },
    ]);
  }
  return db.category.findUniqueOrThrow({ where: { id: row.id } });
}

/** Replaces a product's image list with `urls` in order, keeping alt/sourceId of URLs that stay. */
export async function replaceImages(db: Db, productId: string, urls: string[]): Promise<void> {
  await db.productImage.deleteMany({ where: { productId, url: { notIn: urls } } });
  const kept = new Set((await db.productImage.findMany({ where: { productId }, select: { url: true } })).map((image) => image.url));
  for (const [position, url] of urls.entries()) {
    if (kept.has(url)) await db.productImage.update({ where: { productId_url: { productId, url } }, data: { position } });
    else await db.productImage.create({ data: { productId, url, position } });
  }
}

/** The variant (slug, sku) of a visible product, or 404. */
export async function findVariant(db: Db, productId: string, slug: string, sku: string): Promise<ProductVariant> {
  const variant = await db.productVariant.findUnique({ where: { productId_sku: { productId, sku } } });
  if (!variant) throw new NotFound(`Product "${slug}" has no variant with SKU "${sku}".`);
  return variant;
}

/** The product of each of these ids that is a variant's: variant id → product id (other ids are left out). */
export async function variantOwners(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.productVariant.findMany({ where: { id: { in: ids } }, select: { id: true, productId: true } });
  return new Map(rows.map((row) => [row.id, row.productId]));
}

/** A variant in its public shape (money and stock as numbers). */
export function variantView(variant: ProductVariant) {
  return {
    id: variant.id,
    sku: variant.sku,
    attributes: variant.attributes as Record<string, string>,
    priceDkk: variant.priceDkk === null ? null : Number(variant.priceDkk),
    stock: Number(variant.stock),
  };
}

/**
 * The one conditional stock UPDATE: applies a delta only while the result stays within 0..MAX_INT (so concurrent
 * adjustments and orders can never drive stock negative), or sets a value. Returns the new stock, or null if refused.
 */
export async function changeStock(
  db: Db,
  table: "Product" | "ProductVariant",
  id: string,
  change: { delta: number } | { set: number },
  now: Date,
): Promise<number | null> {
  const rows =
    "set" in change
      ? table === "Product"
        ? await db.$queryRaw<StockRow[]>`UPDATE "Product" SET stock = ${BigInt(change.set)}, "updatedAt" = ${now} WHERE id = ${id} RETURNING stock`
        : await db.$queryRaw<StockRow[]>`UPDATE "ProductVariant" SET stock = ${BigInt(change.set)}, "updatedAt" = ${now} WHERE id = ${id} RETURNING stock`
      : table === "Product"
        ? await db.$queryRaw<StockRow[]>`UPDATE "Product" SET stock = stock + ${BigInt(change.delta)}, "updatedAt" = ${now}
            WHERE id = ${id} AND stock >= ${BigInt(-change.delta)} AND stock <= ${BigInt(MAX_INT) - BigInt(change.delta)} RETURNING stock`
        : await db.$queryRaw<StockRow[]>`UPDATE "ProductVariant" SET stock = stock + ${BigInt(change.delta)}, "updatedAt" = ${now}
            WHERE id = ${id} AND stock >= ${BigInt(-change.delta)} AND stock <= ${BigInt(MAX_INT) - BigInt(change.delta)} RETURNING stock`;
  return rows[0] ? Number(rows[0].stock) : null;
}

type StockRow = { stock: bigint | number | string };

/**
 * A price after a bulk change. percent (-90..1000, steps of 0.01): old × (100 + p) / 100 rounded half away from zero
 * to whole øre, at least 1 øre. fixed: old + value øre (may end below 1 øre or above MAX_INT; the caller refuses those).
 */
export function changedPrice(old: bigint, mode: "percent" | "fixed", value: number): bigint {
  if (mode === "fixed") return old + BigInt(value);
  const scaled = old * (10_000n + BigInt(Math.round(value * 100)));
  const quotient = scaled / 10_000n;
  const rounded = (scaled % 10_000n) * 2n >= 10_000n ? quotient + 1n : quotient;
  return rounded < 1n ? 1n : rounded;
}
