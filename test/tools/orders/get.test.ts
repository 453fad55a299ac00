// orders.get through real HTTP: every detail field, lines with variant snapshots, 404 and scopes.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { orderDetail } from "../../../src/tools/orders/schemas.ts";
import { createOrder } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:read"] } });

describe("orders.get", () => {
  it("returns exactly the SPEC.md order detail fields", async () => {
    const order = await createOrder(server, { variant: true, quantities: [1, 3] });
    const detail = expectOk<Record<string, unknown> & { items: Array<Record<string, unknown>> }>(
      server,
      "orders.get",
      await server.call("orders.get", { orderId: order.id }, { key }),
    );
    expect(Object.keys(detail).sort()).toEqual(Object.keys(orderDetail.shape).sort());
    expect(Object.keys(detail)).toHaveLength(42);
    expect(detail).toMatchObject({
      id: order.id,
      status: "paid",
      totalDkk: Number(order.totalDkk),
      vatOere: Number(order.totalDkk / 5n),
      currency: "DKK",
      fxRate: 1,
      channel: "web",
      isAiGenerated: false,
      refundedAt: null,
      billingName: null,
    });
    expect(detail.paidAt).toMatch(/Z$/);
    const variantLine = detail.items.find((i) => i.variantId !== null)!;
    expect(variantLine.variantAttributes).toEqual(order.items.find((i) => i.variantId)!.variantAttributes);
    expect(variantLine.variantSku).toEqual(expect.any(String));
    const plainLine = detail.items.find((i) => i.variantId === null)!;
    expect(plainLine).toMatchObject({ variantSku: null, variantAttributes: null, quantity: 3, orderId: order.id });
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await server.call("orders.get", { orderId: "nope" }, { key }), 404, "not_found");
  });

  it("needs orders:read", async () => {
    const order = await createOrder(server);
    await expectScopeMatrix(server, "orders.get", { orderId: order.id });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.get", key, [{}, { orderId: "" }, { orderId: 5 }, { orderId: "x", extra: 1 }]);
  });
});
