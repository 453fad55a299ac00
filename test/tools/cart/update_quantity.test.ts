// cart.update_quantity through real HTTP: set, remove with 0, stock limit, unknown line, scopes, bad input.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { expectRejectedInSession, newSession, plainProducts } from "../../support/session.ts";

const { server } = useServer();

const call = (input: object, cookie: string) => server.call("cart.update_quantity", input, { cookie });

async function cartWithLine(quantity = 1) {
  const cookie = await newSession(server);
  const product = (await plainProducts(server, 3)).find((p) => p.stock <= 100)!;
  const summary = expectOk<CartSummary>(server, "cart.add", await server.call("cart.add", { productSlug: product.slug, quantity }, { cookie }));
  return { cookie, product, lineId: summary.lines[0]!.lineId };
}

describe("cart.update_quantity", () => {
  it("sets a line's quantity and reprices the cart", async () => {
    const { cookie, product, lineId } = await cartWithLine();
    const result = expectOk<CartSummary>(server, "cart.update_quantity", await call({ lineId, quantity: 3 }, cookie));
    expect(result.lines[0]).toMatchObject({ lineId, quantity: 3, lineTotalDkk: product.priceDkk * 3 });
    expect(result.subtotalDkk).toBe(product.priceDkk * 3);
    const lower = expectOk<CartSummary>(server, "cart.update_quantity", await call({ lineId, quantity: 2 }, cookie));
    expect(lower.itemCount).toBe(2);
  });

  it("removes the line at quantity 0", async () => {
    const { cookie, lineId } = await cartWithLine(2);
    const result = expectOk<CartSummary>(server, "cart.update_quantity", await call({ lineId, quantity: 0 }, cookie));
    expect(result.lines).toEqual([]);
    expect(await server.prisma.cartItem.count({ where: { id: lineId } })).toBe(0);
  });

  it("refuses more than the stock (422) and unknown lines (404)", async () => {
    const { cookie, product, lineId } = await cartWithLine();
    expectProblem(await call({ lineId, quantity: product.stock + 1 }, cookie), 422, "insufficient_stock");
    expectProblem(await call({ lineId: "no-such-line", quantity: 1 }, cookie), 404, "not_found");
    const other = await newSession(server);
    expectProblem(await call({ lineId, quantity: 1 }, other), 404, "not_found");
    expectProblem(await server.call("cart.update_quantity", { lineId, quantity: 1 }, { key: await server.key("cart:write") }), 404, "not_found");
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.update_quantity", { lineId: "no-such-line", quantity: 1 });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const { cookie, lineId } = await cartWithLine();
    const bad = [{}, { lineId }, { lineId, quantity: -1 }, { lineId, quantity: 101 }, { lineId, quantity: 1.5 }, { lineId: "", quantity: 1 }, { lineId, quantity: 1, x: 1 }];
    await expectRejected(server, "cart.update_quantity", await server.key("cart:write"), bad);
    await expectRejectedInSession(server, "cart.update_quantity", cookie, bad);
  });
});
