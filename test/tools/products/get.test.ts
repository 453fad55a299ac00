// products.get through real HTTP: the detail shape, anonymous access, 404 for unknown and soft-deleted products.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();

describe("products.get", () => {
  it("returns the full detail with images in order and the category, anonymously", async () => {
    const slug = "oakley-aviator-coast-1";
    const detail = expectOk<Record<string, unknown>>(server, "products.get", await server.call("products.get", { slug }));
    expect(Object.keys(detail).sort()).toEqual(["brand", "category", "createdAt", "description", "featured", "frameColor", "id", "images", "lensColor", "name", "priceDkk", "slug", "stock"]);
    const row = await server.prisma.product.findUniqueOrThrow({ where: { slug }, include: { images: { orderBy: { position: "asc" } }, category: true } });
    expect(detail).toEqual({
      id: row.id,
      slug,
      name: row.name,
      brand: row.brand,
      description: row.description,
      priceDkk: Number(row.priceDkk),
      stock: Number(row.stock),
      featured: row.featured,
      frameColor: row.frameColor,
      lensColor: row.lensColor,
      images: row.images.map((image) => image.url),
      category: { slug: row.category.slug, name: row.category.name, description: row.category.description },
      createdAt: row.createdAt.toISOString(),
    });
  });

  it("answers 404 for an unknown and a soft-deleted product", async () => {
    expectProblem(await server.call("products.get", { slug: "no-such-product" }), 404, "not_found");
    expectProblem(await server.call("products.get", { slug: "ray-ban-multifocal-studio-27" }), 404, "not_found");
  });

  it("is open to every caller", async () => {
    await expectScopeMatrix(server, "products.get", { slug: "oakley-aviator-coast-1" });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "products.get", undefined, [{}, { slug: "" }, { slug: 1 }, { slug: "oakley-aviator-coast-1", expand: true }]);
  });
});
