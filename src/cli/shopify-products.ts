// Shopify's product CSV export as products.import items: the rows of one Handle make one product (its first row the
// product, every row with an option value a variant, every row with an image an image). Prices are read as the shop's
// currency with VAT, as a Danish Shopify shop keeps them.

/** One row of the export, by column name. */
export type ShopifyRow = Record<string, string | undefined>;

/** What the importer's fields are called in the export, for refusals a shop owner can act on. */
export const SHOPIFY_COLUMNS: Record<string, string> = {
  slug: "Handle",
  name: "Title",
  description: "Body (HTML)",
  brand: "Vendor",
  categorySlug: "Type",
  priceDkk: "Variant Price",
  stock: "Variant Inventory Qty",
  images: "Image Src",
  imageAlt: "Image Alt Text",
  variants: "Variant SKU / Option values",
};

/** A product's rows as a products.import item (checked afterwards by the same schema as every other line), or why not. */
export function shopifyProduct(rows: ShopifyRow[]): { item: Record<string, unknown> } | { reason: string } {
  const first = rows[0]!;
  const cell = (row: ShopifyRow, column: string) => (row[column] ?? "").trim();
  const slug = slugOf(cell(first, "Handle"));
  const names = [1, 2, 3].map((n) => cell(first, `Option${n} Name`));
  const sold = rows.filter((row) => cell(row, "Option1 Value") !== "" || cell(row, "Variant Price") !== "");
  if (sold.length === 0) return { reason: "No row of this Handle has a Variant Price." };
  const prices: number[] = [];
  for (const row of sold) {
    const price = oere(cell(row, "Variant Price"));
    if (price === null) return { reason: `Variant Price "${cell(row, "Variant Price")}" is no amount (e.g. 199.95).` };
    prices.push(price);
  }
  const stocks = sold.map((row) => Number(cell(row, "Variant Inventory Qty") || "0"));
  const plain = sold.length === 1 && (names[0] === "" || (names[0] === "Title" && cell(sold[0]!, "Option1 Value") === "Default Title"));
  const variants = plain
    ? []
    : sold.map((row, i) => ({
        sku: cell(row, "Variant SKU") || `${slug}-${i + 1}`,
        attributes: Object.fromEntries(names.flatMap((name, n) => (name && cell(row, `Option${n + 1} Value`) ? [[name, cell(row, `Option${n + 1} Value`)]] : []))),
        ...(prices[i] !== prices[0] && { priceDkk: prices[i] }),
        stock: stocks[i],
      }));
  const images = rows
    .filter((row) => cell(row, "Image Src") !== "")
    .map((row, i) => ({ url: cell(row, "Image Src"), alt: cell(row, "Image Alt Text"), position: Number(cell(row, "Image Position")) || 1000 + i }))
    .sort((a, b) => a.position - b.position)
    .filter((image, i, all) => all.findIndex((other) => other.url === image.url) === i);
  const status = cell(first, "Status").toLowerCase();
  const type = cell(first, "Type");
  const tags = cell(first, "Tags");
  return {
    item: {
      name: cell(first, "Title"),
      slug,
      description: plainText(first["Body (HTML)"] ?? ""),
      priceDkk: prices[0],
      stock: plain ? stocks[0] : stocks.reduce((sum, n) => sum + n, 0),
      ...(cell(first, "Vendor") && { brand: cell(first, "Vendor") }),
      categorySlug: type ? slugOf(type) : "diverse",
      categoryName: type || "Diverse",
      ...(tags && { attributes: { tags } }),
      ...(cell(first, "Gift Card").toLowerCase() === "true" && { giftCard: true }),
      draft: status ? status !== "active" : cell(first, "Published").toLowerCase() === "false",
      images: images.map((image) => image.url),
      ...(images.some((image) => image.alt) && { imageAlt: Object.fromEntries(images.filter((image) => image.alt).map((image) => [image.url, image.alt])) }),
      variants,
    },
  };
}

/** "199.95" → 19995 øre; null for anything else. */
function oere(text: string): number | null {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0")) : null;
}

/** A Handle or Type as a slug: Danish letters spelt out, anything else but letters and digits a hyphen. */
function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, "ae")
    .replace(/ø/g, "oe")
    .replace(/å/g, "aa")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Body (HTML) as the plain text the shop shows (it escapes every description): block ends become line breaks. */
function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6])\b[^>]*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1]?.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/[ \t]+/g, " ")
    .replace(/ *\n[\n ]*/g, "\n")
    .trim();
}
