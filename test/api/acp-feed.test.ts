// The ACP product feed through real HTTP: metadata.json and products.jsonl under our zod reading of the 2026-04-17 feed
// schema, one line per visible product with its variants (ids a checkout accepts), prices with currency, availability
// that follows stock, images and storefront links; deleted products absent; the files follow catalogue changes.
import { describe, expect, it } from "vitest";
import { feedMetadata, feedProduct } from "../../src/api/acp/feed.ts";
import { useServer } from "../support/server.ts";
import { plainProducts, variantProduct } from "../support/session.ts";

const BASE = "https://shop.example.dk";
const { server, keys } = useServer({ config: { publicBaseUrl: BASE }, keys: { writer: ["products:write"], agent: ["checkout:agent"] } });

async function feed() {
  const response = await fetch(`${server.url}/acp/feed/products.jsonl`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/jsonl/);
  const text = await response.text();
  expect(text.endsWith("\n")).toBe(true);
  const products = text.trimEnd().split("\n").map((line) => feedProduct.parse(JSON.parse(line)));
  return new Map(products.map((product) => [product.id, product]));
}

async function write(name: string, input: unknown) {
  const answer = await server.call(name, input, { key: keys.writer });
  if (answer.status !== 200) throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}

describe("GET /acp/feed/…", () => {
  it("serves metadata.json and one Product per visible product, without a key", async () => {
    const response = await fetch(`${server.url}/acp/feed/metadata.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("public");
    const metadata = feedMetadata.parse(await response.json());
    expect(metadata).toMatchObject({ id: "feed_shop.example.dk", target_country: "DK" });
    const products = await feed();
    expect(products.size).toBe(await server.prisma.product.count({ where: { deletedAt: null } }));
  });

  it("writes a plain product as its own variant and a product with variants as them, in the shop's currency", async () => {
    const products = await feed();
    const [plain] = await plainProducts(server, 1);
    const line = products.get(plain!.id)!;
    expect(line).toMatchObject({ title: plain!.name, url: `${BASE}/products/${plain!.slug}` });
    expect(line.variants).toEqual([expect.objectContaining({ id: plain!.id, price: { amount: plain!.priceDkk, currency: "DKK" }, availability: { available: true, status: "in_stock" } })]);
    const images = await server.prisma.productImage.findMany({ where: { productId: plain!.id }, orderBy: { position: "asc" } });
    expect(line.media?.map((entry) => entry.type)).toEqual(images.map(() => "image"));
    for (const entry of line.media ?? []) expect(entry.url).toMatch(/^https?:\/\//);

    const withVariants = await variantProduct(server);
    const grouped = products.get(withVariants.id)!;
    expect(grouped.variants.map((variant) => variant.id).sort()).toEqual(withVariants.variants.map((variant) => variant.id).sort());
    for (const variant of withVariants.variants) {
      const written = grouped.variants.find((entry) => entry.id === variant.id)!;
      expect(written.price).toEqual({ amount: Number(variant.priceDkk ?? withVariants.priceDkk), currency: "DKK" });
      expect(written.availability?.available).toBe(variant.stock > 0n);
      expect(written.variant_options).toEqual(Object.entries(variant.attributes as Record<string, string>).map(([name, value]) => ({ name, value })));
      expect(written.url).toBe(`${BASE}/products/${withVariants.slug}`);
    }
    // A storefront link is the real product page.
    expect((await fetch(`${server.url}/products/${withVariants.slug}`)).status).toBe(200);
  });

  it("follows the catalogue: sold out is out_of_stock, deleted is gone", async () => {
    const [soldOut, deleted] = await plainProducts(server, 1);
    await write("products.adjust_stock", { slug: soldOut!.slug, set: 0, reason: "Udsolgt" });
    await write("products.delete", { slug: deleted!.slug, confirm: true });
    const products = await feed();
    expect(products.get(soldOut!.id)!.variants[0]!.availability).toEqual({ available: false, status: "out_of_stock" });
    expect(products.has(deleted!.id)).toBe(false);
  });

  it("gives variant ids an ACP checkout accepts as item ids", async () => {
    const withVariants = await variantProduct(server);
    const variant = (await feed()).get(withVariants.id)!.variants.find((entry) => entry.availability?.available)!;
    const response = await fetch(`${server.url}/acp/checkout_sessions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keys.agent}`, "API-Version": "2026-04-17", "Content-Type": "application/json", "Idempotency-Key": "feed-1" },
      body: JSON.stringify({ line_items: [{ id: variant.id }], currency: "dkk", capabilities: {} }),
    });
    expect(response.status).toBe(201);
    const session = (await response.json()) as { line_items: Array<{ variant_id?: string; unit_amount?: number }> };
    expect(session.line_items[0]).toMatchObject({ variant_id: variant.id, unit_amount: variant.price!.amount });
  });
});
