// orders.get_payment through real HTTP: what the payment page shows of an order (paid or not, provider, instructions
// e-mailed, lines and totals), 404, the scope matrix and bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../../support/session.ts";
import { createOrder } from "./fixtures.ts";

type Payment = {
  orderId: string; email: string; status: string; paid: boolean; paymentProvider: "manual" | "stripe"; instructionsEmailed: boolean;
  items: Array<{ productName: string; variantSku: string | null; quantity: number; unitPriceDkk: number; lineTotalDkk: number }>;
  subtotalDkk: number; discountCode: string | null; discountDkk: number; shippingDkk: number; totalDkk: number; vatOere: number;
  giftCardDkk: number; outstandingDkk: number;
};

const { server, keys: { key } } = useServer({ keys: { key: ["orders:read"] } });

const get = async (orderId: string) => expectOk<Payment>(server, "orders.get_payment", await server.call("orders.get_payment", { orderId }, { key }));

describe("orders.get_payment", () => {
  it("shows an order's lines in order, its totals and that it awaits a bank transfer", async () => {
    const order = await createOrder(server, { status: "pending_payment", discountDkk: 12345, quantities: [2, 1], variant: true });
    const items = [...order.items].sort((a, b) => a.id.localeCompare(b.id));
    expect(await get(order.id)).toEqual({
      orderId: order.id,
      email: order.email,
      status: "pending_payment",
      paid: false,
      paymentProvider: "manual",
      instructionsEmailed: false,
      items: items.map((item) => ({
        productName: item.productName,
        variantSku: item.variantSku,
        quantity: item.quantity,
        unitPriceDkk: Number(item.unitPriceDkk),
        lineTotalDkk: Number(item.unitPriceDkk) * item.quantity,
      })),
      subtotalDkk: Number(order.subtotalDkk),
      discountCode: "SOMMER10",
      discountDkk: 12345,
      shippingDkk: 4900,
      totalDkk: Number(order.totalDkk),
      vatOere: Number(order.vatOere),
      giftCardDkk: 0,
      outstandingDkk: Number(order.totalDkk),
    });
  });

  it("tells what a gift card paid and what is left, and nothing left once paid", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const prisma = server.prisma;
    await prisma.paymentEntry.create({ data: { orderId: order.id, kind: "payment", method: "gift_card", amountDkk: 5000n, reference: "…Z8WA", actor: "system:test" } });
    expect(await get(order.id)).toMatchObject({ giftCardDkk: 5000, outstandingDkk: Number(order.totalDkk) - 5000 });
    const paid = await createOrder(server, { status: "paid" });
    expect(await get(paid.id)).toMatchObject({ giftCardDkk: 0, outstandingDkk: 0 });
  });

  it("says paid from paid until completed, and not before, after a refund or when cancelled", async () => {
    const paid = ["paid", "processing", "shipped", "delivered", "completed"];
    for (const status of [...paid, "pending_payment", "pending", "flagged_review", "cancelled", "refunded", "partial_refund", "disputed"]) {
      const order = await createOrder(server, { status });
      expect(await get(order.id), status).toMatchObject({ status, paid: paid.includes(status) });
    }
  });

  it("tells a Stripe order from a bank transfer, and whether the payment instructions were e-mailed", async () => {
    const stripe = await createOrder(server, { status: "pending_payment" });
    await server.prisma.order.update({ where: { id: stripe.id }, data: { paymentProvider: "stripe" } });
    expect(await get(stripe.id)).toMatchObject({ paymentProvider: "stripe", instructionsEmailed: false });

    const cookie = await newSession(server);
    const [product] = await plainProducts(server, 2);
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product!.slug }, { cookie }));
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const placed = expectOk<{ orderId: string }>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    expect(await get(placed.orderId)).toMatchObject({ paymentProvider: "manual", instructionsEmailed: true, email: ADDRESS.email.toLowerCase() });
  });

  it("derives the VAT of an order stored without it (25 % of the total, rounded half up)", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    await server.prisma.order.update({ where: { id: order.id }, data: { vatOere: null } });
    expect((await get(order.id)).vatOere).toBe(Number((order.totalDkk + 2n) / 5n));
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await server.call("orders.get_payment", { orderId: "nope" }, { key }), 404, "not_found");
  });

  it("needs orders:read, which a storefront session does not have", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    await expectScopeMatrix(server, "orders.get_payment", { orderId: order.id });
    expectProblem(await server.call("orders.get_payment", { orderId: order.id }, { cookie: await newSession(server) }), 403, "forbidden");
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.get_payment", key, [{}, { orderId: "" }, { orderId: 1 }, { orderId: "x".repeat(201) }, { orderId: "x", token: "y" }]);
  });
});
