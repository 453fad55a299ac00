// products.detach_image through real HTTP: removes one URL, keeps the order of the rest, 404 for unknown images.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const detach = (slug: string, imageUrl: string) => server.call("products.detach_image", { slug, imageUrl }, { key });
const images = async (slug: string) => expectOk<{ images: string[] }>(server, "products.get", await server.call("products.get", { slug })).images;

describe("products.detach_image", () => {
  it("removes the first image; the rest keep their order and the next get shows it", async () => {
    const slug = "oakley-aviator-coast-1";
    await server.call("products.attach_image", { slug, imageUrl: "https://images.example.com/third.jpg" }, { key });
    const [first, ...rest] = await images(slug);
    const result = expectOk(server, "products.detach_image", await detach(slug, first!));
    expect(result).toEqual({ ok: true, slug, removed: first, totalImages: rest.length });
    expect(await images(slug)).toEqual(rest);
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "products.detach_image", subjectType: "product" });
    expect((entry!.after as { images: Array<{ url: string; position: number }> }).images.map((i) => [i.url, i.position])).toEqual(rest.map((url, i) => [url, i]));
    const firstSummary = expectOk<Array<{ slug: string; firstImage: string }>>(server, "products.search", await server.call("products.search", { q: "oakley aviator coast" }));
    expect(firstSummary.find((p) => p.slug === slug)?.firstImage).toBe(rest[0]);
  });

  it("can remove the last image, leaving none", async () => {
    const slug = "rensespray-sommer-7";
    const urls = await images(slug);
    for (const url of urls) expectOk(server, "products.detach_image", await detach(slug, url));
    expect(await images(slug)).toEqual([]);
  });

  it("answers 404 for an unknown image, product or a soft-deleted product", async () => {
    const before = await auditCount(server);
    expectProblem(await detach("gucci-oversize-bold-74", "https://images.example.com/none.jpg"), 404, "not_found");
    expectProblem(await detach("no-such-product", "https://images.example.com/none.jpg"), 404, "not_found");
    expectProblem(await detach("ray-ban-multifocal-studio-27", "/demo-images/ray-ban-multifocal-studio-27-1.svg"), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("checks scopes", async () => {
    const url = (await images("persol-oversize-vinter-5"))[0]!;
    await expectScopeMatrix(server, "products.detach_image", { slug: "persol-oversize-vinter-5", imageUrl: url });
  });

  it("rejects bad input", async () => {
    const count = () => server.prisma.productImage.count();
    await expectRejected(server, "products.detach_image", key, [
      { slug: "gucci-oversize-bold-74" },
      { slug: "gucci-oversize-bold-74", imageUrl: "" },
      { slug: "gucci-oversize-bold-74", imageUrl: 7 },
      { imageUrl: "https://images.example.com/a.jpg" },
      { slug: "gucci-oversize-bold-74", imageUrl: "https://images.example.com/a.jpg", confirm: true },
    ], async () => [await count(), await auditCount(server)]);
  });
});
