// products.upsert_variant through real HTTP: creates, updates by (slug, sku), clears the price override, audited, 404s.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Result = { created: boolean; variant: { id: string; sku: string; attributes: Record<string, string>; priceDkk: number | null; stock: number } };

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const upsert = (input: object) => server.call("products.upsert_variant", input, { key });
const slug = "gucci-oversize-bold-74";

describe("products.upsert_variant", () => {
  it("creates a variant with defaults, then updates it by sku", async () => {
    const created = expectOk<Result>(server, "products.upsert_variant", await upsert({ slug, sku: "gob-74-m", attributes: { size: "M" } }));
    expect(created).toMatchObject({ created: true, variant: { sku: "gob-74-m", attributes: { size: "M" }, priceDkk: null, stock: 0 } });
    expect(await lastAudit(server)).toMatchObject({ tool: "products.upsert_variant", subjectType: "productVariant", subjectId: created.variant.id, before: null, after: { sku: "gob-74-m", stock: 0 } });

    const updated = expectOk<Result>(server, "products.upsert_variant", await upsert({ slug, sku: "gob-74-m", priceDkk: 150000, stock: 4 }));
    expect(updated).toEqual({ created: false, variant: { id: created.variant.id, sku: "gob-74-m", attributes: { size: "M" }, priceDkk: 150000, stock: 4 } });
    expect(await lastAudit(server)).toMatchObject({ subjectId: created.variant.id, before: { stock: 0, priceDkk: null }, after: { stock: 4, priceDkk: 150000 } });

    const cleared = expectOk<Result>(server, "products.upsert_variant", await upsert({ slug, sku: "gob-74-m", priceDkk: null }));
    expect(cleared.variant).toMatchObject({ priceDkk: null, stock: 4 });
    const listed = expectOk<Result["variant"][]>(server, "products.list_variants", await server.call("products.list_variants", { slug }, { key: await server.key("catalog:read") }));
    expect(listed).toEqual([cleared.variant]);
  });

  it("answers 404 for unknown and soft-deleted products", async () => {
    const before = await auditCount(server);
    expectProblem(await upsert({ slug: "no-such-product", sku: "x-1" }), 404, "not_found");
    expectProblem(await upsert({ slug: "ray-ban-multifocal-studio-27", sku: "x-1" }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.upsert_variant", { slug, sku: "gob-74-scope", stock: 1 });
  });

  it("rejects bad input", async () => {
    const count = () => server.prisma.productVariant.count();
    await expectRejected(server, "products.upsert_variant", key, [
      { slug },
      { slug, sku: "" },
      { slug, sku: "x".repeat(101) },
      { slug, sku: "a", stock: -1 },
      { slug, sku: "a", stock: 1.5 },
      { slug, sku: "a", priceDkk: 0 },
      { slug, sku: "a", attributes: { size: 1 } },
      { slug, sku: "a", color: "red" },
    ], async () => [await count(), await auditCount(server)]);
  });
});
