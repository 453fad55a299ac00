// products.get_safety through real HTTP, without a key: a visible product's safety information (the demo products have
// it), null when none was given, 404 for unknown, deleted and draft products.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();
const prisma = () => server.prisma;

describe("products.get_safety", () => {
  it("answers a demo product's maker and warnings to anyone", async () => {
    const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, draft: false, category: { slug: "solbriller" } } });
    const result = expectOk(server, "products.get_safety", await server.call("products.get_safety", { productId: product.id }));
    expect(result).toEqual({
      productId: product.id,
      slug: product.slug,
      manufacturer: { name: "Nordlys Eyewear A/S", address: expect.stringContaining("Aarhus"), contact: expect.stringContaining("@") },
      euResponsible: null,
      warnings: expect.stringContaining("Se aldrig direkte på solen"),
    });
  });

  it("answers null for a product without safety information", async () => {
    const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, draft: false, giftCard: true } });
    expect(expectOk(server, "products.get_safety", await server.call("products.get_safety", { productId: product.id }))).toBeNull();
  });

  it("answers 404 for unknown, deleted and draft products", async () => {
    expectProblem(await server.call("products.get_safety", { productId: "no-such-product" }), 404);
    const deleted = await prisma().product.findFirstOrThrow({ where: { deletedAt: { not: null } } });
    expectProblem(await server.call("products.get_safety", { productId: deleted.id }), 404);
    const draft = await prisma().product.update({ where: { id: (await prisma().product.findFirstOrThrow({ where: { deletedAt: null, giftCard: false }, orderBy: { slug: "desc" } })).id }, data: { draft: true } });
    expectProblem(await server.call("products.get_safety", { productId: draft.id }), 404);
    // Staff read a draft's with drafts: true (products:write, as products.get); others may not ask.
    const writer = await server.key("products:write");
    expect(expectOk(server, "products.get_safety", await server.call("products.get_safety", { productId: draft.id, drafts: true }, { key: writer }))).toMatchObject({ productId: draft.id });
    expectProblem(await server.call("products.get_safety", { productId: draft.id, drafts: true }), 403);
  });

  it("needs no key", async () => {
    await expectScopeMatrix(server, "products.get_safety", { productId: "p000007342" });
  });

  it("rejects bad input with 400", async () => {
    await expectRejected(server, "products.get_safety", undefined, [{}, { productId: "" }, { productId: 1 }, { productId: "a", extra: true }, { productId: "a", drafts: "ja" }]);
  });
});
