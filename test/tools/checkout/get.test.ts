// checkout.get through real HTTP: the owner's session re-priced, others' sessions hidden, bad ids refused.
import { describe, expect, it } from "vitest";
import type { SessionView } from "../../../src/tools/checkout/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { openSession } from "./helpers.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["checkout:agent"] } });

describe("checkout.get", () => {
  it("returns the session re-priced from the catalogue while it is open", async () => {
    const { view, product } = await openSession(server, key);
    await server.prisma.product.update({ where: { id: product.id }, data: { priceDkk: BigInt(product.priceDkk + 100) } });
    const again = expectOk<SessionView>(server, "checkout.get", await server.call("checkout.get", { id: view.id }, { key }));
    expect(again.lines[0]!.unitPrice).toBe(product.priceDkk + 100);
    expect(again.status).toBe("ready_for_complete");
    await server.prisma.product.update({ where: { id: product.id }, data: { priceDkk: BigInt(product.priceDkk) } });
  });

  it("shows an expired session as canceled", async () => {
    const { view } = await openSession(server, key);
    await server.prisma.checkoutSession.update({ where: { id: view.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(expectOk<SessionView>(server, "checkout.get", await server.call("checkout.get", { id: view.id }, { key })).status).toBe("canceled");
  });

  it("hides unknown ids and other callers' sessions (404)", async () => {
    const { view } = await openSession(server, key);
    expectProblem(await server.call("checkout.get", { id: "chk_0000000000000000" }, { key }), 404, "not_found");
    expectProblem(await server.call("checkout.get", { id: view.id }, { key: await server.key("*") }), 404, "not_found");
    await expectScopeMatrix(server, "checkout.get", { id: view.id });
  });

  it("rejects bad input with 400", async () => {
    await expectRejected(server, "checkout.get", key, [{}, { id: "" }, { id: "order_1" }, { id: 5 }, { id: "chk_0000000000\u0000" }]);
  });
});
