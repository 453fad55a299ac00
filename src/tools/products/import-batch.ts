// The work of products.import: a batch of new products written set by set (one INSERT per table from one JSON
// parameter, not one statement or one ORM object per product), with the categories they name, one audit entry for the
// batch and one for each category it created.
import type { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { SLUG } from "../shared/slugs.ts";
import { importItem } from "./schemas.ts";

type Item = z.output<typeof importItem>;

interface Outcome {
  created: Array<{ index: number; id: string; slug: string }>;
  skipped: Array<{ index: number; slug: string }>;
  refused: Array<{ index: number; reason: string }>;
}

export async function importProducts(ctx: ToolContext, inputs: unknown[]): Promise<Outcome> {
  const outcome: Outcome = { created: [], skipped: [], refused: [] };
  const items: Array<{ index: number; item: Item }> = [];
  for (const [index, input] of inputs.entries()) {
    const checked = importItem.safeParse(input);
    if (checked.success) items.push({ index, item: checked.data });
    else outcome.refused.push({ index, reason: issuesOf(checked.error) });
  }
  const taken = new Set(
    (await ctx.db.product.findMany({ where: { slug: { in: items.map(({ item }) => item.slug) } }, select: { slug: true } })).map((row) => row.slug),
  );
  const fresh: Array<{ index: number; item: Item }> = [];
  for (const { index, item } of items) {
    if (taken.has(item.slug)) outcome.skipped.push({ index, slug: item.slug });
    else fresh.push({ index, item });
    taken.add(item.slug);
  }
  const categories = await categoriesOf(ctx, fresh.map(({ item }) => item));
  const placed: Array<{ index: number; item: Item; categoryId: string }> = [];
  for (const { index, item } of fresh) {
    const found = categories(item);
    if ("reason" in found) outcome.refused.push({ index, reason: found.reason });
    else placed.push({ index, item, categoryId: found.id });
  }
  outcome.refused.sort((a, b) => a.index - b.index);
  if (placed.length === 0) {
    ctx.unchanged();
    return outcome;
  }
  const now = ctx.now();
  // Each batch's index entries go to the GIN indexes' pending lists (fastupdate), merged into the indexes when a list
  // passes gin_pending_list_limit (4 MB by default: every few batches, inside an import transaction). A larger limit for
  // the import's own transactions merges fewer, larger lists; autovacuum merges what is left.
  await ctx.db.$executeRaw`SELECT set_config('gin_pending_list_limit', '65536', true)`;
  const products = placed.map(({ item, categoryId }) => ({
    slug: item.slug,
    name: item.name,
    description: item.description,
    priceDkk: item.priceDkk,
    stock: item.stock,
    brand: item.brand ?? null,
    frameColor: item.frameColor ?? null,
    lensColor: item.lensColor ?? null,
    attributes: item.attributes ?? {},
    answerSummary: item.answerSummary ?? null,
    faq: item.faq ?? [],
    useCases: item.useCases ?? [],
    comparisonFacts: item.comparisonFacts ?? {},
    featured: item.featured,
    giftCard: item.giftCard ?? false,
    draft: item.draft,
    categoryId,
  }));
  const rows = await ctx.db.$queryRaw<Array<{ id: string; slug: string }>>`
    INSERT INTO "Product" (id, slug, name, description, "priceDkk", stock, brand, "frameColor", "lensColor", attributes, "answerSummary",
                           faq, "useCases", "comparisonFacts", featured, "giftCard", draft, "categoryId", "createdAt", "updatedAt")
    SELECT gen_random_uuid()::text, slug, name, description, "priceDkk", stock, brand, "frameColor", "lensColor", attributes, "answerSummary",
           faq, "useCases", "comparisonFacts", featured, "giftCard", draft, "categoryId", ${now}, ${now}
      FROM json_to_recordset(${JSON.stringify(products)}::json) AS x(
        slug text, name text, description text, "priceDkk" bigint, stock bigint, brand text, "frameColor" text, "lensColor" text,
        attributes jsonb, "answerSummary" text, faq jsonb, "useCases" jsonb, "comparisonFacts" jsonb, featured boolean,
        "giftCard" boolean, draft boolean, "categoryId" text)
    RETURNING id, slug`;
  const ids = new Map(rows.map((row) => [row.slug, row.id]));
  const images = placed.flatMap(({ item }) => item.images.map((url, position) => ({ productId: ids.get(item.slug)!, url, position, alt: item.imageAlt?.[url] ?? null })));
  if (images.length) {
    await ctx.db.$executeRaw`
      INSERT INTO "ProductImage" (id, "productId", url, alt, position, "createdAt")
      SELECT gen_random_uuid()::text, "productId", url, alt, position, ${now}
        FROM json_to_recordset(${JSON.stringify(images)}::json) AS x("productId" text, url text, alt text, position integer)`;
  }
  const variants = placed.flatMap(({ item }) =>
    item.variants.map((variant) => ({ productId: ids.get(item.slug)!, sku: variant.sku, attributes: variant.attributes ?? {}, priceDkk: variant.priceDkk ?? null, stock: variant.stock ?? 0 })),
  );
  if (variants.length) {
    await ctx.db.$executeRaw`
      INSERT INTO "ProductVariant" (id, "productId", sku, attributes, "priceDkk", stock, "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, "productId", sku, attributes, "priceDkk", stock, ${now}, ${now}
        FROM json_to_recordset(${JSON.stringify(variants)}::json) AS x("productId" text, sku text, attributes jsonb, "priceDkk" bigint, stock bigint)`;
  }
  outcome.created = placed.map(({ index, item }) => ({ index, id: ids.get(item.slug)!, slug: item.slug }));
  // One entry for the batch, naming every product it made (a million entries with full snapshots would double what an
  // import writes); products.delete removes one again.
  await ctx.audit({
    subjectType: "productImport",
    subjectId: outcome.created[0]!.id,
    before: null,
    after: { products: outcome.created.map(({ id, slug }) => ({ id, slug })), variants: variants.length, images: images.length },
    note: `${outcome.created.length} products imported`,
  });
  await ctx.collaborators.catalog.changed(ctx, { productIds: outcome.created.map((created) => created.id) });
  return outcome;
}

/**
 * Looks up (key-share locked, as products.create does) the categories the items name, creates those named by a new
 * slug, and returns each item's category or why it has none.
 */
async function categoriesOf(ctx: ToolContext, items: Item[]): Promise<(item: Item) => { id: string } | { reason: string }> {
  const ids = [...new Set(items.flatMap((item) => item.categoryId ?? []))];
  const slugs = [...new Set(items.flatMap((item) => item.categorySlug ?? []))];
  type Row = { id: string; slug: string };
  const lookUp = (wanted: { ids: string[]; slugs: string[] }) =>
    ctx.db.$queryRaw<Row[]>`SELECT id, slug FROM "Category" WHERE id = ANY(${wanted.ids}::text[]) OR slug = ANY(${wanted.slugs}::text[]) FOR KEY SHARE`;
  const rows = ids.length || slugs.length ? await lookUp({ ids, slugs }) : [];
  const missing = slugs.filter((slug) => SLUG.test(slug) && slug.length >= 2 && !rows.some((row) => row.slug === slug));
  if (missing.length) {
    const named = new Map(items.flatMap((item) => (item.categorySlug && item.categoryName ? [[item.categorySlug, item.categoryName] as const] : [])));
    const data: Prisma.CategoryCreateManyInput[] = missing.map((slug) => ({ slug, name: named.get(slug) ?? inWords(slug) }));
    const made = await ctx.db.category.createManyAndReturn({ data, skipDuplicates: true });
    for (const category of made) await ctx.audit({ subjectType: "category", subjectId: category.id, before: null, after: category });
    if (made.length) await ctx.collaborators.catalog.changed(ctx, { categories: true });
    rows.push(...(await lookUp({ ids: [], slugs: missing })));
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  return (item) => {
    if (item.categoryId !== undefined) {
      const row = byId.get(item.categoryId);
      if (!row) return { reason: `No category with id "${item.categoryId}".` };
      if (item.categorySlug !== undefined && row.slug !== item.categorySlug) {
        return { reason: `categoryId and categorySlug name different categories ("${row.slug}" and "${item.categorySlug}").` };
      }
      return row;
    }
    return bySlug.get(item.categorySlug!) ?? { reason: `categorySlug "${item.categorySlug}" is no category, and no slug for a new one (lowercase letters, digits, hyphens).` };
  };
}

/** "sports-briller" → "Sports briller". */
function inWords(slug: string): string {
  const words = slug.replace(/-+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A refused product's schema issues in one line: "priceDkk: Too small: expected number to be >0; …". */
export function issuesOf(error: z.ZodError, names: Record<string, string> = {}): string {
  return error.issues.map((issue) => `${issue.path.map((part, i) => (i === 0 ? (names[String(part)] ?? String(part)) : String(part))).join(".") || "product"}: ${issue.message}`).join("; ");
}
