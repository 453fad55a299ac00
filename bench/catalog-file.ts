// The benchmark's catalogue as a JSON Lines file for `shop import products`: the demo generator's products (the same
// names, slugs and prices the seed makes), written one at a time, and kept in the temp directory for the next run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { DEMO_CATEGORIES, demoProductStream } from "../prisma/seed/demo.ts";

/** The path of a file of `count` demo products, written unless an earlier run left it complete. */
export async function catalogFile(count: number): Promise<string> {
  const file = path.join(os.tmpdir(), `shop-bench-catalog-${count}.jsonl`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.partial`;
  const out = fs.createWriteStream(partial);
  for (const product of demoProductStream(count)) {
    // Deleted demo products are not imported (an import creates); "returnable" is no products.create field.
    if (product.deleted) continue;
    const line = JSON.stringify({
      name: product.name,
      slug: product.slug,
      description: product.description,
      priceDkk: Number(product.priceDkk),
      stock: Number(product.stock),
      featured: product.featured,
      ...(product.brand && { brand: product.brand }),
      ...(product.frameColor && { frameColor: product.frameColor }),
      ...(product.lensColor && { lensColor: product.lensColor }),
      categorySlug: product.categorySlug,
      categoryName: DEMO_CATEGORIES.find((category) => category.slug === product.categorySlug)!.name,
      images: product.images,
      attributes: product.attributes,
      ...(product.answerSummary && { answerSummary: product.answerSummary, faq: product.faq, useCases: product.useCases, comparisonFacts: product.comparisonFacts }),
      variants: product.variants.map((variant) => ({ sku: variant.sku, attributes: variant.attributes, priceDkk: variant.priceDkk === null ? null : Number(variant.priceDkk), stock: Number(variant.stock) })),
    });
    if (!out.write(`${line}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  fs.renameSync(partial, file);
  return file;
}
