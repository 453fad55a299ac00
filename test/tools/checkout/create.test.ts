// checkout.create through real HTTP: catalogue prices, statuses and messages, stacked codes, ownership, refusals, bad input.
import { describe, expect, it } from "vitest";
import type { SessionView } from "../../../src/tools/checkout/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { plainProducts, variantProduct } from "../../support/session.ts";
import { BUYER, DESTINATION, openSession } from "./helpers.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["checkout:agent"] } });

describe("checkout.create", () => {
  it("prices lines from the catalogue and is incomplete until buyer and destination are known", async () => {
    const [product] = await plainProducts(server, 2);
    const view = expectOk<SessionView>(server, "checkout.create", await server.call("checkout.create", { lines: [{ itemId: product!.id, quantity: 2 }] }, { key }));
    expect(view).toMatchObject({ status: "incomplete", currency: "DKK", protocol: "shop", orderId: null });
    expect(view.id).toMatch(/^chk_/);
    expect(view.lines).toEqual([{ id: "li_1", itemId: product!.id, productId: product!.id, variantId: null, title: product!.name, unitPrice: product!.priceDkk, quantity: 2, subtotal: 2 * product!.priceDkk }]);
    expect(view.messages.map((m) => [m.code, m.path])).toEqual([["missing", "buyer.email"], ["missing", "fulfillment.destination"]]);
    const types = view.totals.map((t) => t.type);
    expect(types[0]).toBe("subtotal");
    expect(types.at(-1)).toBe("total");
    expect(Date.parse(view.expiresAt) - Date.parse(view.createdAt)).toBe(6 * 3600 * 1000);
    expect(await lastAudit(server)).toMatchObject({ tool: "checkout.create", subjectType: "checkout_session", subjectId: view.id });
  });

  it("is ready_for_complete with buyer and destination, and stacks discount codes ignoring unknown ones", async () => {
    const [product] = await plainProducts(server, 1);
    const input = { lines: [{ itemId: product!.id, quantity: 1 }], buyer: BUYER, destination: DESTINATION, discountCodes: ["velkommen10", "NOPE", "SOMMER200"] };
    const view = expectOk<SessionView>(server, "checkout.create", await server.call("checkout.create", input, { key }));
    expect(view.status).toBe("ready_for_complete");
    expect(view.discounts.codes).toEqual(["velkommen10", "NOPE", "SOMMER200"]);
    const tenPercent = Math.floor((product!.priceDkk * 10 + 50) / 100);
    const fixed = Math.min(20000, product!.priceDkk - tenPercent);
    expect(view.discounts.applied).toEqual([
      { code: "VELKOMMEN10", title: expect.any(String), amount: tenPercent },
      { code: "SOMMER200", title: expect.any(String), amount: fixed },
    ]);
    expect(view.totals.find((t) => t.type === "discount")!.amount).toBe(-(tenPercent + fixed));
    expect(view.messages).toEqual([expect.objectContaining({ type: "warning", code: "discount_code_not_applied" })]);
    const sum = view.totals.filter((t) => t.type !== "total" && t.type !== "tax").reduce((s, t) => s + t.amount, 0);
    expect(view.totals.find((t) => t.type === "total")!.amount).toBe(sum);
  });

  it("takes a variant's id, and refuses a product that needs one or an unknown item", async () => {
    const product = await variantProduct(server);
    const variant = product.variants.find((v) => v.stock > 0n)!;
    const view = expectOk<SessionView>(server, "checkout.create", await server.call("checkout.create", { lines: [{ itemId: variant.id, quantity: 1 }] }, { key }));
    expect(view.lines[0]).toMatchObject({ itemId: variant.id, productId: product.id, variantId: variant.id, unitPrice: Number(variant.priceDkk ?? product.priceDkk) });
    expectProblem(await server.call("checkout.create", { lines: [{ itemId: product.id, quantity: 1 }] }, { key }), 422, "variant_required");
    expectProblem(await server.call("checkout.create", { lines: [{ itemId: "no-such-item", quantity: 1 }] }, { key }), 422, "item_unavailable");
  });

  it("records an out-of-stock line as a message, not a refusal", async () => {
    const [product] = await plainProducts(server, 1);
    await server.prisma.product.update({ where: { id: product!.id }, data: { stock: 0 } });
    const view = expectOk<SessionView>(server, "checkout.create", await server.call("checkout.create", { lines: [{ itemId: product!.id, quantity: 1 }], buyer: BUYER, destination: DESTINATION }, { key }));
    expect(view.status).toBe("incomplete");
    expect(view.messages).toContainEqual(expect.objectContaining({ code: "out_of_stock", path: "lines[0].quantity", severity: "recoverable" }));
    await server.prisma.product.update({ where: { id: product!.id }, data: { stock: product!.stock } });
  });

  it("is callable without a key, and the session belongs to its creator", async () => {
    const [product] = await plainProducts(server, 1);
    const anonymous = await server.call("checkout.create", { lines: [{ itemId: product!.id, quantity: 1 }] });
    expect(anonymous.status).toBe(200);
    const { view } = await openSession(server, key);
    expectProblem(await server.call("checkout.get", { id: view.id }, { key: await server.key("checkout:agent") }), 404, "not_found");
    expectProblem(await server.call("checkout.get", { id: view.id }), 404, "not_found");
    expect((await server.call("checkout.get", { id: view.id }, { key })).status).toBe(200);
  });

  it("answers every caller short of 401/403 (anonymous tool)", async () => {
    const [product] = await plainProducts(server, 5);
    await expectScopeMatrix(server, "checkout.create", { lines: [{ itemId: product!.id, quantity: 1 }] });
  });

  it("rejects bad input with 400 and writes nothing", async () => {
    const [product] = await plainProducts(server, 1);
    const line = { itemId: product!.id, quantity: 1 };
    await expectRejected(server, "checkout.create", key, [
      {},
      { lines: [] },
      { lines: [{ ...line, quantity: 0 }] },
      { lines: [{ ...line, quantity: 1_000_001 }] },
      { lines: [line], buyer: { email: "not-an-email" } },
      { lines: [line], destination: { ...DESTINATION, country: "Denmark" } },
      { lines: [line], discountCodes: Array.from({ length: 11 }, (_, i) => `C${i}`) },
      { lines: [line], protocol: "other" },
      { lines: [{ ...line, itemId: "a\u0000b" }] },
      { lines: [line], extra: true },
    ]);
  });
});
