// orders.update_status through real HTTP: legal transitions only, history, audit, stamps, restock, confirmation e-mail.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ORDER_TRANSITIONS } from "../../../src/tools/orders/transitions.ts";
import { captureMail, createOrder, orderState } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });
let mail: ReturnType<typeof captureMail>;
beforeAll(async () => {
  mail = captureMail(server);
});

const update = (orderId: string, status: string) => server.call("orders.update_status", { orderId, status }, { key });
const prisma = () => server.prisma;

describe("orders.update_status", () => {
  it("moves along a legal transition, with history and a full-row audit entry", async () => {
    const order = await createOrder(server, { status: "pending" });
    const result = expectOk(server, "orders.update_status", await update(order.id, "processing"));
    expect(result).toEqual({ id: order.id, status: "processing" });
    const keyRow = await prisma().apiKey.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    const [change] = await prisma().orderStatusChange.findMany({ where: { orderId: order.id } });
    expect(change).toMatchObject({ fromStatus: "pending", toStatus: "processing", actor: `key:${keyRow.id}` });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.update_status", subjectType: "order", subjectId: order.id, actor: `key:${keyRow.id}` });
    expect(audit!.before).toMatchObject({ id: order.id, status: "pending", totalDkk: Number(order.totalDkk), shippingZip: "8000" });
    expect(audit!.after).toMatchObject({ id: order.id, status: "processing" });
    expect(audit!.before).not.toHaveProperty("items");
  });

  it("refuses every illegal transition and the current status with 422 illegal_transition, writing nothing", async () => {
    const order = await createOrder(server, { status: "paid" });
    const before = await orderState(server, order.id);
    for (const target of ["pending", "pending_payment", "completed", "paid"]) {
      const response = await update(order.id, target);
      expectProblem(response, 422, "illegal_transition");
      expect(response.body.detail).toContain(`"paid"`);
      expect(response.body.detail).toContain(`"${target}"`);
    }
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("cancels a paid order with a refund to where the money came from (a bank-transfer refund task)", async () => {
    const order = await createOrder(server, { status: "paid" });
    expectOk(server, "orders.update_status", await update(order.id, "cancelled"));
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: order.id }, include: { payments: true, refundTasks: true } });
    expect(row).toMatchObject({ status: "cancelled", refundedDkk: order.totalDkk });
    expect(row.payments.map((e) => [e.kind, e.amountDkk])).toEqual([["payment", order.totalDkk], ["refund", order.totalDkk]]);
    expect(row.refundTasks.map((t) => [t.amountDkk, t.status])).toEqual([[order.totalDkk, "open"]]);
  });

  it("refuses the current status even where the table loops (partial_refund)", async () => {
    const order = await createOrder(server, { status: "partial_refund" });
    expectProblem(await update(order.id, "partial_refund"), 422, "illegal_transition");
  });

  it("treats cancelled and refunded as final", async () => {
    for (const status of ["cancelled", "refunded"]) {
      const order = await createOrder(server, { status });
      expect(ORDER_TRANSITIONS[status as "cancelled"]).toEqual([]);
      expectProblem(await update(order.id, "paid"), 422, "illegal_transition");
    }
  });

  it("stamps paidAt and sends the confirmation once after commit when an order becomes paid", async () => {
    const order = await createOrder(server, { status: "pending_payment", email: "betaler@example.dk" });
    const sentBefore = mail.sent.length;
    expectOk(server, "orders.update_status", await update(order.id, "paid"));
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.paidAt).not.toBeNull();
    expect(row.confirmationEmailSentAt).not.toBeNull();
    expect(mail.sent.slice(sentBefore).map((m) => m.to)).toEqual(["betaler@example.dk"]);
    const emails = await prisma().emailMessage.findMany({ where: { orderId: order.id } });
    expect(emails).toMatchObject([{ kind: "order_confirmation", to: "betaler@example.dk", transport: "smtp" }]);

    expectOk(server, "orders.update_status", await update(order.id, "flagged_review"));
    expectOk(server, "orders.update_status", await update(order.id, "paid"));
    expect(mail.sent.length).toBe(sentBefore + 1);
    const again = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(again.paidAt).toEqual(row.paidAt);
  });

  it("stamps disputedAt and refundedAt (with the full total as refunded)", async () => {
    const order = await createOrder(server, { status: "shipped" });
    expectOk(server, "orders.update_status", await update(order.id, "disputed"));
    expectOk(server, "orders.update_status", await update(order.id, "refunded"));
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.disputedAt).not.toBeNull();
    expect(row.refundedAt).not.toBeNull();
    expect(row.refundedDkk).toBe(row.totalDkk);
  });

  it("restocks products and variants when cancelling", async () => {
    const order = await createOrder(server, { status: "processing", variant: true, quantities: [2, 3] });
    const variantLine = order.items.find((i) => i.variantId)!;
    const plainLine = order.items.find((i) => !i.variantId)!;
    const variantBefore = await prisma().productVariant.findUniqueOrThrow({ where: { id: variantLine.variantId! } });
    const productBefore = await prisma().product.findUniqueOrThrow({ where: { id: plainLine.productId } });
    expectOk(server, "orders.update_status", await update(order.id, "cancelled"));
    const variantAfter = await prisma().productVariant.findUniqueOrThrow({ where: { id: variantLine.variantId! } });
    const productAfter = await prisma().product.findUniqueOrThrow({ where: { id: plainLine.productId } });
    expect(variantAfter.stock - variantBefore.stock).toBe(2n);
    expect(productAfter.stock - productBefore.stock).toBe(3n);
    const fromCatalogue = await server.call("products.get", { slug: productAfter.slug });
    expect((fromCatalogue.body.result as { stock: number }).stock).toBe(Number(productAfter.stock));
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.cancelledAt).not.toBeNull();
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await update("nope", "paid"), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "pending" });
    await expectScopeMatrix(server, "orders.update_status", { orderId: order.id, status: "processing" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await createOrder(server, { status: "pending" });
    await expectRejected(
      server,
      "orders.update_status",
      key,
      [{}, { orderId: order.id }, { status: "paid" }, { orderId: order.id, status: "sent" }, { orderId: "", status: "paid" }, { orderId: order.id, status: "paid", note: "x" }],
      () => orderState(server, order.id),
    );
  });
});
