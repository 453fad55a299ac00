// products.set_safety through real HTTP: staff set a product's GPSR safety information (audited, replacing what was
// there); unknown products are 404, shopper keys are refused, bad input is 400 and writes nothing.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { writer } } = useServer({ keys: { writer: ["products:write"] } });
const prisma = () => server.prisma;
const maker = { name: "Acme Optics Ltd.", address: "1 Harbour Road, Hong Kong", contact: "https://acme.example.com" };
const eu = { name: "Acme Europe GmbH", address: "Hafenstraße 1, 20457 Hamburg, Tyskland", contact: "safety@acme.example.com" };
const product = () => prisma().product.findFirstOrThrow({ where: { deletedAt: null, draft: false, giftCard: false }, orderBy: { slug: "asc" } });

describe("products.set_safety", () => {
  it("stores maker, EU responsible person and warnings, audited, and answers them", async () => {
    const { id, slug } = await product();
    const result = expectOk(server, "products.set_safety", await server.call("products.set_safety", { productId: id, manufacturer: maker, euResponsible: eu, warnings: "  Ikke legetøj.  " }, { key: writer }));
    expect(result).toEqual({ productId: id, slug, manufacturer: maker, euResponsible: eu, warnings: "Ikke legetøj." });
    expect(await lastAudit(server)).toMatchObject({ tool: "products.set_safety", subjectType: "product", subjectId: id, after: { safety: { manufacturer: maker, euResponsible: eu } } });
    // Set again without the optional parts: they are cleared, not kept.
    const again = expectOk<{ euResponsible: unknown; warnings: string }>(server, "products.set_safety", await server.call("products.set_safety", { productId: id, manufacturer: maker }, { key: writer }));
    expect(again).toMatchObject({ euResponsible: null, warnings: "" });
    expect((await prisma().product.findUniqueOrThrow({ where: { id } })).safety).toEqual({ manufacturer: maker, euResponsible: null, warnings: "" });
  });

  it("answers 404 for an unknown or deleted product", async () => {
    expectProblem(await server.call("products.set_safety", { productId: "no-such-product", manufacturer: maker }, { key: writer }), 404);
    const deleted = await prisma().product.findFirstOrThrow({ where: { deletedAt: { not: null } } });
    expectProblem(await server.call("products.set_safety", { productId: deleted.id, manufacturer: maker }, { key: writer }), 404);
  });

  it("needs products:write", async () => {
    await expectScopeMatrix(server, "products.set_safety", { productId: (await product()).id, manufacturer: maker });
  });

  it("rejects bad input with 400", async () => {
    const productId = (await product()).id;
    await expectRejected(server, "products.set_safety", writer, [
      { productId },
      { productId, manufacturer: { ...maker, name: "" } },
      { productId, manufacturer: { ...maker, address: "x" } },
      { productId, manufacturer: { name: "A", address: "Vej 1, 8000 Aarhus" } },
      { productId, manufacturer: maker, euResponsible: { name: "B" } },
      { productId, manufacturer: maker, warnings: "x".repeat(2001) },
      { productId, manufacturer: { ...maker, extra: 1 } },
      { productId: "", manufacturer: maker },
    ]);
  });
});
