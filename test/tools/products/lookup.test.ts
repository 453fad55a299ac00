// products.lookup through real HTTP: products by product or variant id with their variants and the shop currency, each
// product once in the order first asked; unknown, deleted and draft ids in notFound; open to every caller; bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { plainProducts, variantProduct } from "../../support/session.ts";

type Looked = {
  currency: string;
  products: Array<{ id: string; slug: string; priceDkk: number; stock: number; images: string[]; category: { slug: string; name: string }; variants: Array<{ id: string; sku: string; priceDkk: number | null; stock: number }> }>;
  notFound: string[];
};

const { server, keys: { writer } } = useServer({ keys: { writer: ["products:write", "catalog:read"] } });
const lookup = async (ids: unknown) => expectOk<Looked>(server, "products.lookup", await server.call("products.lookup", { ids }));

describe("products.lookup", () => {
  it("finds products by their id and by a variant's id, each once, in the order first asked", async () => {
    const [plain] = await plainProducts(server);
    const row = await variantProduct(server);
    const variant = row.variants[1]!;
    const result = await lookup([variant.id, plain!.id, row.id, "no-such-id", variant.id]);
    expect(result.currency).toBe("DKK");
    expect(result.products.map((product) => product.id)).toEqual([row.id, plain!.id]);
    expect(result.notFound).toEqual(["no-such-id"]);
    const [withVariants, without] = result.products;
    expect(withVariants).toMatchObject({ slug: row.slug, priceDkk: Number(row.priceDkk) });
    expect(withVariants!.variants.map((entry) => entry.id).sort()).toEqual(row.variants.map((entry) => entry.id).sort());
    expect(withVariants!.variants.find((entry) => entry.id === variant.id)).toEqual({ id: variant.id, sku: variant.sku, attributes: variant.attributes, priceDkk: variant.priceDkk === null ? null : Number(variant.priceDkk), stock: Number(variant.stock) });
    expect(without).toMatchObject({ id: plain!.id, slug: plain!.slug, priceDkk: plain!.priceDkk, stock: plain!.stock, variants: [] });
  });

  it("leaves deleted products and drafts out, as unknown ids", async () => {
    const deleted = await server.prisma.product.findUniqueOrThrow({ where: { slug: "ray-ban-multifocal-studio-27" } });
    expect((await server.call("products.create", { name: "Kladde Opslag", slug: "kladde-opslag", description: "En kladde, ingen må slå op.", priceDkk: 49900, stock: 2, categorySlug: "solbriller", draft: true }, { key: writer })).status).toBe(200);
    const draft = await server.prisma.product.findUniqueOrThrow({ where: { slug: "kladde-opslag" } });
    expect(await lookup([deleted.id, draft.id])).toEqual({ currency: "DKK", products: [], notFound: [deleted.id, draft.id] });
  });

  it("prices in the shop's currency", async () => {
    const settings = server.prisma.setting;
    const before = await settings.findUnique({ where: { section: "commerce" } });
    await settings.upsert({ where: { section: "commerce" }, create: { section: "commerce", value: { currency: "EUR" } }, update: { value: { currency: "EUR" } } });
    try {
      expect((await lookup(["no-such-id"])).currency).toBe("EUR");
    } finally {
      if (before) await settings.update({ where: { section: "commerce" }, data: { value: before.value ?? {} } });
      else await settings.delete({ where: { section: "commerce" } });
    }
  });

  it("is open to every caller", async () => {
    const [plain] = await plainProducts(server);
    await expectScopeMatrix(server, "products.lookup", { ids: [plain!.id] });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "products.lookup", undefined, [{}, { ids: [] }, { ids: [""] }, { ids: "p1" }, { ids: ["x".repeat(101)] }, { ids: Array.from({ length: 51 }, (_, index) => `id-${index}`) }, { ids: ["p1"], drafts: true }]);
  });
});
