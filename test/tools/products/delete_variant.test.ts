// products.delete_variant through real HTTP: hard delete with confirm, audited with after null, 404s.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const remove = (slug: string, sku: string) => server.call("products.delete_variant", { slug, sku, confirm: true }, { key });
const skus = async (slug: string) =>
  expectOk<Array<{ sku: string }>>(server, "products.list_variants", await server.call("products.list_variants", { slug }, { key: await server.key("catalog:read") })).map((v) => v.sku);

describe("products.delete_variant", () => {
  it("deletes the variant and audits its last state", async () => {
    const slug = "gucci-oversize-slim-12";
    const variant = await server.prisma.productVariant.findFirstOrThrow({ where: { sku: `${slug}-l` } });
    expect(expectOk(server, "products.delete_variant", await remove(slug, `${slug}-l`))).toEqual({ ok: true, slug, sku: `${slug}-l` });
    expect((await skus(slug)).sort()).toEqual([`${slug}-m`, `${slug}-s`]);
    expect(await lastAudit(server)).toMatchObject({ tool: "products.delete_variant", subjectType: "productVariant", subjectId: variant.id, before: { sku: `${slug}-l`, stock: Number(variant.stock) }, after: null });
  });

  it("answers 404 for a second delete, an unknown sku, product or soft-deleted product", async () => {
    const before = await auditCount(server);
    expectProblem(await remove("gucci-oversize-slim-12", "gucci-oversize-slim-12-l"), 404, "not_found");
    expectProblem(await remove("gucci-oversize-slim-12", "vogue-clubmaster-sommer-2-s"), 404, "not_found");
    expectProblem(await remove("no-such-product", "x"), 404, "not_found");
    expectProblem(await remove("gucci-cat-eye-classic-54", "x"), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.delete_variant", { slug: "gucci-aviator-coast-17", sku: "gucci-aviator-coast-17-s", confirm: true });
  });

  it("rejects bad input, confirm false included", async () => {
    const count = () => server.prisma.productVariant.count();
    const base = { slug: "vogue-clubmaster-sommer-2", sku: "vogue-clubmaster-sommer-2-s" };
    await expectRejected(server, "products.delete_variant", key, [
      { ...base, confirm: false },
      base,
      { ...base, confirm: 1 },
      { slug: base.slug, confirm: true },
      { ...base, sku: "", confirm: true },
      { ...base, confirm: true, force: true },
    ], async () => [await count(), await auditCount(server)]);
  });
});
