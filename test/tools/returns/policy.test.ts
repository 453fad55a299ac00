// returns.policy through real HTTP: open to anyone; products.update's returnable switches it without changing products.*
// answers; the demo's toric lenses (made to the shopper's prescription) cannot be withdrawn from.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { writer } } = useServer({ keys: { writer: ["products:write"] } });
const policy = async (slug: string) => expectOk(server, "returns.policy", await server.call("returns.policy", { slug }));

describe("returns.policy", () => {
  it("answers anyone whether a product may be withdrawn from, and the periods", async () => {
    expect(await policy("oakley-aviator-coast-1")).toEqual({ slug: "oakley-aviator-coast-1", returnable: true, withdrawalDays: 14, complaintMonths: 24 });
    expect(await policy("prada-toric-slim-69")).toMatchObject({ returnable: false });
  });

  it("follows products.update's returnable, whose answer and the product's stay as they were, audited", async () => {
    const slug = "oakley-aviator-coast-1";
    const product = await server.call("products.get", { slug });
    const update = expectOk(server, "products.update", await server.call("products.update", { slug, patch: { returnable: false } }, { key: writer }));
    expect(update).toEqual({ id: expect.any(String), slug });
    expect(await policy(slug)).toMatchObject({ returnable: false });
    expect(await lastAudit(server)).toMatchObject({ tool: "products.update", before: { returnable: true }, after: { returnable: false } });
    expect((await server.call("products.get", { slug })).body).toEqual(product.body);
    expectOk(server, "products.update", await server.call("products.update", { slug, patch: { returnable: true } }, { key: writer }));
    expect(await policy(slug)).toMatchObject({ returnable: true });
    expectProblem(await server.call("products.update", { slug, patch: { returnable: "no" } }, { key: writer }), 400, "invalid_input");
  });

  it("answers 404 for an unknown or deleted product", async () => {
    expectProblem(await server.call("returns.policy", { slug: "no-such-product" }), 404, "not_found");
    const deleted = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: { not: null } } });
    expectProblem(await server.call("returns.policy", { slug: deleted.slug }), 404, "not_found");
  });

  it("is open without a key", async () => {
    await expectScopeMatrix(server, "returns.policy", { slug: "oakley-aviator-coast-1" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "returns.policy", undefined, [{}, { slug: "" }, { slug: "a", id: "b" }]);
  });
});
