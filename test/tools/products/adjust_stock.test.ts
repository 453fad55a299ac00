// products.adjust_stock through real HTTP: delta and set on products and variants, never below 0 (also concurrently), audited.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { changeStock } from "../../../src/tools/products/product-rows.ts";

type Result = { ok: true; slug: string; sku: string | null; previousStock: number; stock: number };

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const adjust = (input: object) => server.call("products.adjust_stock", input, { key });
const stockOf = async (slug: string) => expectOk<{ stock: number }>(server, "products.get", await server.call("products.get", { slug })).stock;

describe("products.adjust_stock", () => {
  it("adds and removes units with delta; the very next products.get shows the new stock", async () => {
    const slug = "prada-wayfarer-bold-9";
    const start = await stockOf(slug);
    expect(expectOk(server, "products.adjust_stock", await adjust({ slug, delta: 5, reason: "Levering" }))).toEqual({ ok: true, slug, sku: null, previousStock: start, stock: start + 5 });
    expect(expectOk<Result>(server, "products.adjust_stock", await adjust({ slug, delta: -3, reason: "Knust" })).stock).toBe(start + 2);
    expect(await stockOf(slug)).toBe(start + 2);
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "products.adjust_stock", subjectType: "product", note: "Knust", before: { slug, stock: start + 5 }, after: { slug, stock: start + 2 } });
    expect(Array.isArray((entry!.after as { images: unknown }).images)).toBe(true);
  });

  it("sets an absolute count, including 0, and adjusts a variant by sku", async () => {
    const slug = "vogue-clubmaster-sommer-2";
    expect(expectOk<Result>(server, "products.adjust_stock", await adjust({ slug, set: 0, reason: "Optælling" })).stock).toBe(0);
    expect(await stockOf(slug)).toBe(0);
    const sku = `${slug}-m`;
    const result = expectOk<Result>(server, "products.adjust_stock", await adjust({ slug, sku, set: 11, reason: "Optælling" }));
    expect(result).toMatchObject({ sku, stock: 11 });
    expect(await lastAudit(server)).toMatchObject({ subjectType: "productVariant", before: { sku }, after: { sku, stock: 11 } });
    expect(expectOk<Result>(server, "products.adjust_stock", await adjust({ slug, sku, delta: -11, reason: "Solgt" })).stock).toBe(0);
  });

  it("refuses a delta below 0 with 422 insufficient_stock and changes nothing", async () => {
    const slug = "persol-oversize-vinter-5";
    const start = await stockOf(slug);
    const before = await auditCount(server);
    expectProblem(await adjust({ slug, delta: -(start + 1), reason: "Fejl" }), 422, "insufficient_stock");
    expectProblem(await adjust({ slug, sku: "nope", delta: -1, reason: "Fejl" }), 404, "not_found");
    expectProblem(await adjust({ slug: "gucci-cat-eye-classic-54", delta: 1, reason: "Fejl" }), 404, "not_found");
    expectProblem(await adjust({ slug: "no-such-product", set: 1, reason: "Fejl" }), 404, "not_found");
    expect(await stockOf(slug)).toBe(start);
    expect(await auditCount(server)).toBe(before);
  });

  it("never goes below 0 under concurrent adjustments", async () => {
    const slug = "oakley-panto-studio-59";
    expectOk(server, "products.adjust_stock", await adjust({ slug, set: 4, reason: "Optælling" }));
    const responses = await Promise.all(Array.from({ length: 10 }, () => adjust({ slug, delta: -1, reason: "Salg" })));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of responses.filter((r) => r.status !== 200)) expectProblem(r, 422, "insufficient_stock");
    expect(await stockOf(slug)).toBe(0);
    const row = await server.prisma.product.findUniqueOrThrow({ where: { slug } });
    expect(row.stock).toBe(0n);
  });

  it("the conditional UPDATE alone never drives stock below 0, even for concurrent writers that take no row lock", async () => {
    const prisma = server.prisma;
    const product = await prisma.product.update({ where: { slug: "lindberg-panto-slim-50" }, data: { stock: 4n } });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => prisma.$transaction((tx) => changeStock(tx, "Product", product.id, { delta: -3 }, new Date()))),
    );
    expect(results.filter((stock) => stock !== null)).toEqual([1]);
    expect((await prisma.product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(1n);
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.adjust_stock", { slug: "gucci-oversize-bold-74", delta: 1, reason: "Test" });
  });

  it("rejects bad input: both or neither of delta/set, negative set, missing reason", async () => {
    const slug = "gucci-oversize-bold-74";
    const row = () => server.prisma.product.findUniqueOrThrow({ where: { slug } });
    await expectRejected(server, "products.adjust_stock", key, [
      { slug, reason: "x" },
      { slug, delta: 1, set: 2, reason: "x" },
      { slug, set: -1, reason: "x" },
      { slug, delta: 0, reason: "x" },
      { slug, delta: 1.5, reason: "x" },
      { slug, delta: 1 },
      { slug, delta: 1, reason: "" },
      { slug, delta: 1, reason: "x".repeat(501) },
      { slug, delta: "1", reason: "x" },
      { slug, delta: 1, reason: "x", note: "y" },
    ], async () => [await row(), await auditCount(server)]);
  });
});
