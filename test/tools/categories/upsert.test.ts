// categories.upsert through real HTTP: creates, renames (visible in the next search summaries), audited, slug rules.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Category = { id: string; slug: string; name: string; description: string | null; productCount: number };

const { server, keys: { key } } = useServer({ keys: { key: ["categories:write"] } });

const upsert = (input: object) => server.call("categories.upsert", input, { key });
const list = async () => expectOk<Category[]>(server, "categories.list", await server.call("categories.list", {}));

describe("categories.upsert", () => {
  it("creates a category that the very next categories.list shows (empty)", async () => {
    const result = expectOk<{ id: string; slug: string; name: string }>(server, "categories.upsert", await upsert({ slug: "skibriller", name: "Skibriller", description: "Til sne." }));
    expect(result).toMatchObject({ slug: "skibriller", name: "Skibriller" });
    expect((await list()).find((c) => c.slug === "skibriller")).toEqual({ ...result, description: "Til sne.", productCount: 0 });
    expect(await lastAudit(server)).toMatchObject({ tool: "categories.upsert", subjectType: "category", subjectId: result.id, before: null, after: { slug: "skibriller", name: "Skibriller" } });
  });

  it("renames an existing category: same id, description kept, new name in the next search summaries", async () => {
    const old = (await list()).find((c) => c.slug === "solbriller")!;
    const result = expectOk<{ id: string; name: string }>(server, "categories.upsert", await upsert({ slug: "solbriller", name: "Solbriller & UV" }));
    expect(result).toEqual({ id: old.id, slug: "solbriller", name: "Solbriller & UV" });
    expect((await list()).find((c) => c.slug === "solbriller")).toEqual({ ...old, name: "Solbriller & UV" });
    const hits = expectOk<Array<{ categoryName: string }>>(server, "products.search", await server.call("products.search", { categorySlug: "solbriller", limit: 100 }));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((p) => p.categoryName === "Solbriller & UV")).toBe(true);
    expect(await lastAudit(server)).toMatchObject({ before: { name: "Solbriller" }, after: { name: "Solbriller & UV", description: old.description } });
    expectOk(server, "categories.upsert", await upsert({ slug: "solbriller", name: "Solbriller", description: "Ny tekst." }));
    expect((await list()).find((c) => c.slug === "solbriller")!.description).toBe("Ny tekst.");
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "categories.upsert", { slug: "scope-test", name: "Scope test" });
  });

  it("rejects bad slugs, short names and unknown fields", async () => {
    const count = () => server.prisma.category.count();
    await expectRejected(server, "categories.upsert", key, [
      { slug: "Ski Briller", name: "Ski" },
      { slug: "a", name: "Ski" },
      { slug: "ski_briller", name: "Ski" },
      { slug: "ski", name: "S" },
      { slug: "ski" },
      { name: "Ski" },
      { slug: "ski", name: "Ski", description: 5 },
      { slug: "ski", name: "Ski", productCount: 2 },
    ], async () => [await count(), await auditCount(server)]);
  });
});
