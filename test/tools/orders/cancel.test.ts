// orders.cancel through real HTTP: reason kept, legal statuses only, items restocked in the same transaction.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder, orderState } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });

const cancel = (orderId: string, reason = "Kunden fortrød") => server.call("orders.cancel", { orderId, reason }, { key });
const prisma = () => server.runtime.database.prisma;

describe("orders.cancel", () => {
  it("cancels with a reason and restocks every line", async () => {
    const order = await createOrder(server, { status: "pending_payment", variant: true, quantities: [1, 4] });
    const variantLine = order.items.find((i) => i.variantId)!;
    const plainLine = order.items.find((i) => !i.variantId)!;
    const variantBefore = await prisma().productVariant.findUniqueOrThrow({ where: { id: variantLine.variantId! } });
    const productBefore = await prisma().product.findUniqueOrThrow({ where: { id: plainLine.productId } });
    const result = expectOk(server, "orders.cancel", await cancel(order.id, "  Betaling udeblev  "));
    expect(result).toEqual({ id: order.id, status: "cancelled" });
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ status: "cancelled", cancelReason: "Betaling udeblev" });
    expect(row.cancelledAt).not.toBeNull();
    expect((await prisma().productVariant.findUniqueOrThrow({ where: { id: variantLine.variantId! } })).stock).toBe(variantBefore.stock + 1n);
    const productAfter = await prisma().product.findUniqueOrThrow({ where: { id: plainLine.productId } });
    expect(productAfter.stock).toBe(productBefore.stock + 4n);
    const catalogue = await server.call("products.get", { slug: productAfter.slug });
    expect((catalogue.body.result as { stock: number }).stock).toBe(Number(productAfter.stock));
    const [change] = await prisma().orderStatusChange.findMany({ where: { orderId: order.id } });
    expect(change).toMatchObject({ fromStatus: "pending_payment", toStatus: "cancelled", reason: "Betaling udeblev" });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.cancel", subjectType: "order", subjectId: order.id });
    expect(audit!.before).toMatchObject({ status: "pending_payment", cancelReason: null });
    expect(audit!.after).toMatchObject({ status: "cancelled", cancelReason: "Betaling udeblev" });
  });

  it("still cancels when a product has since been deleted", async () => {
    const order = await createOrder(server, { status: "pending", quantities: [1] });
    await prisma().orderItem.update({ where: { id: order.items[0]!.id }, data: { productId: "gone" } });
    expectOk(server, "orders.cancel", await cancel(order.id));
  });

  it("refuses with 422 illegal_transition where cancelling is not legal, restocking nothing", async () => {
    for (const status of ["paid", "shipped", "delivered", "completed", "cancelled", "refunded", "disputed", "partial_refund"]) {
      const order = await createOrder(server, { status });
      const before = await orderState(server, order.id);
      expectProblem(await cancel(order.id), 422, "illegal_transition");
      expect(await orderState(server, order.id)).toEqual(before);
    }
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await cancel("nope"), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "pending" });
    await expectScopeMatrix(server, "orders.cancel", { orderId: order.id, reason: "Test" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "pending" });
    await expectRejected(
      server,
      "orders.cancel",
      key,
      [{ orderId: order.id }, { orderId: order.id, reason: "" }, { orderId: order.id, reason: "   " }, { orderId: order.id, reason: "x".repeat(501) }, { reason: "x" }, { orderId: order.id, reason: "x", restock: false }],
      () => orderState(server, order.id),
    );
  });
});
