// products.attach_image through real HTTP: appends, idempotent alreadyAttached form, https only, visible at once, audited.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const attach = (input: object) => server.call("products.attach_image", input, { key });
const images = async (slug: string) => expectOk<{ images: string[] }>(server, "products.get", await server.call("products.get", { slug })).images;

describe("products.attach_image", () => {
  it("appends the image after the existing ones, visible to the very next products.get", async () => {
    const slug = "gucci-oversize-bold-74";
    const existing = await images(slug);
    const imageUrl = "https://images.example.com/photo-123.jpg";
    const result = expectOk(server, "products.attach_image", await attach({ slug, imageUrl, alt: "Set forfra", sourceId: "stock-123" }));
    expect(result).toEqual({ ok: true, slug, attached: imageUrl, totalImages: existing.length + 1 });
    expect(await images(slug)).toEqual([...existing, imageUrl]);
    const row = await server.prisma.productImage.findFirstOrThrow({ where: { url: imageUrl } });
    expect(row).toMatchObject({ alt: "Set forfra", sourceId: "stock-123", position: existing.length });
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "products.attach_image", subjectType: "product" });
    expect((entry!.after as { images: Array<{ url: string; sourceId: string }> }).images.at(-1)).toEqual({ url: imageUrl, alt: "Set forfra", sourceId: "stock-123", position: existing.length });
    expect((entry!.before as { images: unknown[] }).images).toHaveLength(existing.length);
  });

  it("answers alreadyAttached for a URL that is already there and changes nothing", async () => {
    const slug = "gucci-oversize-bold-74";
    expectOk(server, "products.attach_image", await attach({ slug, imageUrl: "https://images.example.com/twice.jpg" }));
    const existing = await images(slug);
    const audits = await auditCount(server);
    const result = expectOk(server, "products.attach_image", await attach({ slug, imageUrl: "https://images.example.com/twice.jpg", alt: "Overwrite?" }));
    expect(await auditCount(server)).toBe(audits);
    expect(result).toEqual({ ok: true, slug, alreadyAttached: true, totalImages: existing.length });
    expect(await images(slug)).toEqual(existing);
    const row = await server.prisma.productImage.findFirstOrThrow({ where: { url: "https://images.example.com/twice.jpg" } });
    expect(row.alt).not.toBe("Overwrite?");
  });

  it("answers 404 for unknown and soft-deleted products", async () => {
    const before = await auditCount(server);
    expectProblem(await attach({ slug: "no-such-product", imageUrl: "https://images.example.com/a.jpg" }), 404, "not_found");
    expectProblem(await attach({ slug: "gucci-cat-eye-classic-54", imageUrl: "https://images.example.com/a.jpg" }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.attach_image", { slug: "persol-oversize-vinter-5", imageUrl: "https://images.example.com/scope.jpg" });
  });

  it("rejects bad input: http, non-URLs, other hosts' paths, long alt, unknown fields", async () => {
    const slug = "gucci-oversize-bold-74";
    const count = () => server.prisma.productImage.count();
    await expectRejected(server, "products.attach_image", key, [
      { slug, imageUrl: "http://images.example.com/a.jpg" },
      { slug, imageUrl: "ftp://images.example.com/a.jpg" },
      { slug, imageUrl: "not a url" },
      { slug, imageUrl: "//images.example.com/a.jpg" },
      { slug, imageUrl: "/\\images.example.com/a.jpg" },
      // The contract says https: a bare path (as the demo's own pictures have) is for products.create/update only.
      { slug, imageUrl: "/demo-images/gucci-oversize-bold-74-2.svg" },
      { slug, imageUrl: "/demo images/a.svg" },
      { slug },
      { imageUrl: "https://images.example.com/a.jpg" },
      { slug, imageUrl: "https://images.example.com/a.jpg", alt: "x".repeat(201) },
      { slug, imageUrl: "https://images.example.com/a.jpg", sourceId: 5 },
      { slug, imageUrl: "https://images.example.com/a.jpg", position: 0 },
    ], async () => [await count(), await auditCount(server)]);
  });
});
