// products.update through real HTTP: patches visible at once, full snapshots, image list replacement, slug immutability, 404s.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const update = (input: object) => server.call("products.update", input, { key });
const get = async (slug: string) =>
  expectOk<{ id: string; priceDkk: number; name: string; images: string[]; featured: boolean; category: { slug: string } }>(server, "products.get", await server.call("products.get", { slug }));

describe("products.update", () => {
  it("changes the price, visible to the very next products.get and search", async () => {
    const result = expectOk<{ id: string; slug: string }>(server, "products.update", await update({ slug: "prada-wayfarer-bold-9", patch: { priceDkk: 123456, featured: true, name: "Prada Wayfarer Bold Ny" } }));
    expect(result.slug).toBe("prada-wayfarer-bold-9");
    expect(await get("prada-wayfarer-bold-9")).toMatchObject({ id: result.id, priceDkk: 123456, featured: true, name: "Prada Wayfarer Bold Ny" });
    const hits = expectOk<Array<{ slug: string; priceDkk: number }>>(server, "products.search", await server.call("products.search", { q: "wayfarer bold ny" }));
    expect(hits.find((p) => p.slug === "prada-wayfarer-bold-9")?.priceDkk).toBe(123456);
  });

  it("audits the full before and after snapshots", async () => {
    const before = await get("vogue-cat-eye-coast-16");
    expectOk(server, "products.update", await update({ slug: "vogue-cat-eye-coast-16", patch: { stock: 99, comparisonFacts: { vægt: "20 g" } } }));
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "products.update", subjectType: "product", subjectId: before.id });
    expect(entry!.before).toMatchObject({ id: before.id, priceDkk: before.priceDkk, images: before.images.map((url) => ({ url })) });
    expect(entry!.after).toMatchObject({ stock: 99, comparisonFacts: { vægt: "20 g" }, slug: "vogue-cat-eye-coast-16" });
    expect((entry!.before as { stock: number }).stock).not.toBe(99);
  });

  it("moves a product to another category and replaces its image list", async () => {
    const detail = await get("ray-ban-clubmaster-slim-8");
    const images = ["https://cdn.example.dk/new.jpg", detail.images[0]!];
    expectOk(server, "products.update", await update({ slug: "ray-ban-clubmaster-slim-8", patch: { categorySlug: "briller", images } }));
    expect(await get("ray-ban-clubmaster-slim-8")).toMatchObject({ images, category: { slug: "briller" } });
    const kept = await server.prisma.productImage.findFirstOrThrow({ where: { url: detail.images[0]! } });
    expect(kept.alt).not.toBeNull();
  });

  it("answers 404 for unknown and soft-deleted products and unknown categories, writing nothing", async () => {
    const before = await auditCount(server);
    expectProblem(await update({ slug: "no-such-product", patch: { stock: 1 } }), 404, "not_found");
    expectProblem(await update({ slug: "ray-ban-multifocal-studio-27", patch: { stock: 1 } }), 404, "not_found");
    expectProblem(await update({ slug: "gucci-oversize-bold-74", patch: { categorySlug: "no-such-category" } }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.update", { slug: "gucci-oversize-bold-74", patch: { stock: 3 } });
  });

  it("rejects bad input, including any attempt to change the slug", async () => {
    const slug = "gucci-oversize-bold-74";
    const row = () => server.prisma.product.findUniqueOrThrow({ where: { slug } });
    await expectRejected(server, "products.update", key, [
      { slug, patch: { slug: "new-slug" } },
      { slug, patch: {} },
      { slug },
      { patch: { stock: 1 } },
      { slug: "", patch: { stock: 1 } },
      { slug, patch: { priceDkk: -5 } },
      { slug, patch: { stock: 1.5 } },
      { slug, patch: { description: "kort" } },
      { slug, patch: { featured: "yes" } },
      { slug, patch: { giftCard: "yes" } },
      { slug, patch: { unknown: 1 } },
      { slug, patch: { stock: 1 }, extra: true },
    ], async () => [await row(), await auditCount(server)]);
  });
});
