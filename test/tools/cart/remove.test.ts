// cart.remove through real HTTP: removes one line, 404 for unknown lines, scopes, bad input.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { expectRejectedInSession, newSession, plainProducts } from "../../support/session.ts";

const { server } = useServer();

describe("cart.remove", () => {
  it("removes one line and keeps the others", async () => {
    const cookie = await newSession(server);
    const [a, b] = await plainProducts(server);
    await server.call("cart.add", { productSlug: a!.slug }, { cookie });
    const both = expectOk<CartSummary>(server, "cart.add", await server.call("cart.add", { productSlug: b!.slug }, { cookie }));
    const result = expectOk<CartSummary>(server, "cart.remove", await server.call("cart.remove", { lineId: both.lines[0]!.lineId }, { cookie }));
    expect(result.lines.map((line) => line.productSlug)).toEqual([b!.slug]);
    expect(result.subtotalDkk).toBe(b!.priceDkk);
    expectProblem(await server.call("cart.remove", { lineId: both.lines[0]!.lineId }, { cookie }), 404, "not_found");
  });

  it("answers 404 for a line of another session", async () => {
    const cookie = await newSession(server);
    const [a] = await plainProducts(server);
    const summary = expectOk<CartSummary>(server, "cart.add", await server.call("cart.add", { productSlug: a!.slug }, { cookie }));
    expectProblem(await server.call("cart.remove", { lineId: summary.lines[0]!.lineId }, { cookie: await newSession(server) }), 404, "not_found");
    expect(await server.prisma.cartItem.count({ where: { id: summary.lines[0]!.lineId } })).toBe(1);
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.remove", { lineId: "no-such-line" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const bad = [{}, { lineId: "" }, { lineId: 5 }, { lineId: "x", quantity: 1 }];
    await expectRejected(server, "cart.remove", await server.key("cart:write"), bad);
    await expectRejectedInSession(server, "cart.remove", await newSession(server), bad);
  });
});
