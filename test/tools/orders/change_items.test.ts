// orders.change_items through real HTTP: swap, lower, remove and raise lines before shipping; stock moves, totals are
// priced again, the difference goes through the ledger (card refund at the Stripe fake, gift cards, bank-transfer
// task) or a new payment session; every refusal writes nothing; concurrent edits never refund or restock twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vatOf } from "../../../src/tools/orders/pricing.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { startFakeStripe, type FakeStripe } from "../../support/fake-stripe.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, newSession } from "../../support/session.ts";
import { captureMail, createOrder, orderState, usePaymentProviders } from "./fixtures.ts";

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const { server, keys: { key } } = useServer({
  keys: { key: ["orders:write", "orders:read", "giftcards:write", "settings:write"] },
  config: () => ({ stripeSecretKey: "sk_test_change_items", stripeApiUrl: stripe.url }),
});

const prisma = () => server.prisma;
type Change = { orderItemId: string; quantity?: number; variantSku?: string };
type View = {
  id: string;
  status: string;
  lines: Array<{ orderItemId: string; productName: string; variantSku: string | null; quantity: number; unitPriceDkk: number }>;
  subtotalDkk: number;
  discountDkk: number;
  shippingDkk: number;
  totalDkk: number;
  vatOere: number | null;
  returnedDkk: number;
  outstandingDkk: number;
  paymentUrl: string | null;
};
type Entry = { kind: string; method: string; amountDkk: number; reference: string | null };

const edit = (orderId: string, items: Change[], extra: object = {}) => server.call("orders.change_items", { orderId, items, ...extra }, { key });
const edited = async (orderId: string, items: Change[], extra: object = {}) => expectOk<View>(server, "orders.change_items", await edit(orderId, items, extra));
const payments = async (orderId: string) => expectOk<Entry[]>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key }));
const orderRow = (id: string) => prisma().order.findUniqueOrThrow({ where: { id }, include: { items: true } });
const variantStock = async (id: string) => (await prisma().productVariant.findUniqueOrThrow({ where: { id } })).stock;
const productStock = async (id: string) => (await prisma().product.findUniqueOrThrow({ where: { id } })).stock;

/** An order whose first line is a variant (size S) of a product sold in S, M and L; L costs 100 kr more. */
async function variantOrder(status: string, quantities = [1, 2]) {
  const order = await createOrder(server, { status, variant: true, quantities });
  const line = order.items.find((item) => item.variantId)!;
  const plain = order.items.find((item) => !item.variantId)!;
  const variants = await prisma().productVariant.findMany({ where: { productId: line.productId }, orderBy: { sku: "asc" } });
  const sibling = (size: string) => variants.find((v) => v.sku.endsWith(`-${size}`))!;
  // Enough of each size that the swaps succeed unless a test empties one.
  await prisma().productVariant.updateMany({ where: { productId: line.productId }, data: { stock: 5n } });
  await prisma().product.update({ where: { id: plain.productId }, data: { stock: 20n } });
  return { order, line, plain, current: variants.find((v) => v.id === line.variantId)!, m: sibling("m"), l: sibling("l") };
}

/** Places an order through orders.create (on the Stripe shop: with a Checkout Session) for `quantity` of a plain product. */
async function placeOrder(quantity: number, pick: "asc" | "desc", discountCode?: string) {
  const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, variants: { none: {} }, stock: { gt: 5 } }, orderBy: { slug: pick } });
  const placed = expectOk<{ orderId: string }>(server, "orders.create", await server.call("orders.create", {
    items: [{ productSlug: product.slug, quantity }],
    email: "kunde@example.dk",
    shipping: { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K" },
    ...(discountCode ? { discountCode } : {}),
  }, { key }));
  return orderRow(placed.orderId);
}

/** Makes an order look paid by card at Stripe (its ledger payment carries the PaymentIntent). */
async function paidByCard(orderId: string, intent = `pi_ok_${orderId}`) {
  await prisma().order.update({ where: { id: orderId }, data: { paymentProvider: "stripe", paymentMethod: "card", paymentProviderPaymentIntentId: intent } });
  await prisma().paymentEntry.updateMany({ where: { orderId }, data: { method: "card", reference: intent } });
}

const { useManualPayments } = usePaymentProviders(server);

describe("orders.change_items", () => {
  it("swaps a line of an unpaid order to another variant at the catalogue price, moving stock, with a new payment link", async () => {
    useManualPayments();
    const { order, line, current, l } = await variantOrder("pending_payment");
    const result = await edited(order.id, [{ orderItemId: line.id, variantSku: l.sku }]);
    const unit = l.priceDkk!;
    const subtotal = order.subtotalDkk - line.unitPriceDkk + unit;
    const total = subtotal + order.shippingDkk;
    expect(result).toMatchObject({ id: order.id, status: "pending_payment", subtotalDkk: Number(subtotal), discountDkk: 0, shippingDkk: 4900, totalDkk: Number(total), vatOere: Number(vatOf(total)), returnedDkk: 0, outstandingDkk: Number(total) });
    expect(result.lines.find((x) => x.orderItemId === line.id)).toEqual({ orderItemId: line.id, productName: line.productName, variantSku: l.sku, quantity: 1, unitPriceDkk: Number(unit) });
    expect(result.paymentUrl).toMatch(new RegExp(`/orders/${order.id}/pay\\?token=`));
    expect(await variantStock(current.id)).toBe(6n);
    expect(await variantStock(l.id)).toBe(4n);
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ subtotalDkk: subtotal, totalDkk: total, vatOere: vatOf(total), refundedDkk: 0n });
    expect(row.items.find((x) => x.id === line.id)).toMatchObject({ variantId: l.id, variantSku: l.sku, variantAttributes: { size: "L" }, unitPriceDkk: unit });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.change_items", subjectType: "order", subjectId: order.id, before: { totalDkk: Number(order.totalDkk) } });
    expect((audit!.before as { items: Array<{ id: string; variantSku: string }> }).items.find((x) => x.id === line.id)!.variantSku).toBe(current.sku);
    expect(audit!.after).toMatchObject({ totalDkk: Number(total) });
    expect(await payments(order.id)).toEqual([]);
  });

  it("lowers and removes lines of a paid bank-transfer order, refunding the difference as a staff task in the ledger", async () => {
    const { order, line, plain, current } = await variantOrder("paid", [1, 3]);
    const plainBefore = await productStock(plain.productId);
    const result = await edited(order.id, [{ orderItemId: line.id, quantity: 0 }, { orderItemId: plain.id, quantity: 1 }], { refundAccount: "1234 0012345678" });
    const total = plain.unitPriceDkk + order.shippingDkk;
    const decrease = order.totalDkk - total;
    expect(result).toMatchObject({ status: "paid", totalDkk: Number(total), returnedDkk: Number(decrease), outstandingDkk: 0, paymentUrl: null });
    expect(result.lines).toEqual([{ orderItemId: plain.id, productName: plain.productName, variantSku: null, quantity: 1, unitPriceDkk: Number(plain.unitPriceDkk) }]);
    expect(await variantStock(current.id)).toBe(6n);
    expect(await productStock(plain.productId)).toBe(plainBefore + 2n);
    expect((await payments(order.id)).map((e) => [e.kind, e.method, e.amountDkk])).toEqual([["payment", "bank_transfer", Number(order.totalDkk)], ["refund", "bank_transfer", Number(decrease)]]);
    expect(await prisma().refundTask.findMany({ where: { orderId: order.id } })).toMatchObject([{ amountDkk: decrease, account: "1234 0012345678", status: "open" }]);
    // The total fell instead: refundedDkk stays, so total − refunded is still what the shop keeps.
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ totalDkk: total, refundedDkk: 0n, status: "paid" });
    expect(await prisma().orderItem.count({ where: { id: line.id } })).toBe(0);
  });

  it("refunds a card-paid order's decrease at Stripe through the SDK and books Stripe's refund id", async () => {
    const { order, plain } = await variantOrder("processing", [1, 2]);
    await paidByCard(order.id);
    const before = stripe.requests.length;
    const result = await edited(order.id, [{ orderItemId: plain.id, quantity: 1 }]);
    expect(result.returnedDkk).toBe(Number(plain.unitPriceDkk));
    const sent = stripe.requests.slice(before).filter((r) => r.path === "/v1/refunds");
    expect(sent.map((r) => Object.fromEntries(r.form))).toEqual([expect.objectContaining({ payment_intent: `pi_ok_${order.id}`, amount: String(plain.unitPriceDkk) })]);
    expect(sent[0]!.idempotencyKey).toBe(`refund-${order.id}-0-${plain.unitPriceDkk}`);
    expect((await payments(order.id)).at(-1)).toMatchObject({ kind: "refund", method: "card", amountDkk: Number(plain.unitPriceDkk), reference: expect.stringMatching(/^re_test_/) });
    expect(await prisma().refundTask.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("leaves everything as it was when Stripe refuses the refund (422 refund_failed)", async () => {
    const { order, plain } = await variantOrder("paid", [1, 2]);
    await paidByCard(order.id, `pi_fail_${order.id}`);
    const before = await orderState(server, order.id);
    expectProblem(await edit(order.id, [{ orderItemId: plain.id, quantity: 1 }]), 422, "refund_failed");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("gives an unpaid order a new Stripe session for the new amount and expires the old one", async () => {
    const order = await placeOrder(3, "asc");
    const oldSession = order.paymentProviderSessionId!;
    expect(oldSession).toMatch(/^cs_test_/);
    const before = stripe.requests.length;
    const result = await edited(order.id, [{ orderItemId: order.items[0]!.id, quantity: 1 }]);
    expect(result.totalDkk).toBe(Number(order.items[0]!.unitPriceDkk) + result.shippingDkk);
    expect(result).toMatchObject({ outstandingDkk: result.totalDkk, paymentUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/) });
    const sent = stripe.requests.slice(before);
    const created = sent.find((r) => r.path === "/v1/checkout/sessions")!;
    expect(created.form.get("line_items[0][quantity]")).toBe("1");
    expect(created.idempotencyKey).toBe(`order-${order.id}-after-${oldSession}-${result.totalDkk}`);
    expect(sent.some((r) => r.method === "POST" && r.path === `/v1/checkout/sessions/${oldSession}/expire`)).toBe(true);
    const row = await orderRow(order.id);
    expect(row.paymentProviderSessionId).not.toBe(oldSession);
    expect(result.paymentUrl).toContain(row.paymentProviderSessionId!);
  });

  it("asks the new Stripe session only for what a gift card paid at checkout leaves", async () => {
    const cookie = await newSession(server);
    const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, giftCard: false, variants: { none: {} }, stock: { gt: 5 }, priceDkk: { gt: 5000 } }, orderBy: { slug: "asc" } });
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product.slug, quantity: 3 }, { cookie }));
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const card = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 3000 }, { key })).code;
    const placed = expectOk<{ orderId: string }>(server, "cart.checkout", await server.call("cart.checkout", { giftCardCode: card }, { cookie }));
    const order = await orderRow(placed.orderId);
    const before = stripe.requests.length;
    const result = await edited(order.id, [{ orderItemId: order.items[0]!.id, quantity: 1 }]);
    expect(result.totalDkk).toBe(Number(product.priceDkk) + result.shippingDkk);
    expect(result).toMatchObject({ outstandingDkk: result.totalDkk - 3000, paymentUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//) });
    const created = stripe.requests.slice(before).find((r) => r.path === "/v1/checkout/sessions")!;
    expect(created.form.get("line_items[0][price_data][unit_amount]")).toBe(String(result.totalDkk - 3000));
    expect(created.form.get("line_items[1][quantity]")).toBeNull();
  });

  it("refuses when the shopper has just paid the old Stripe session (422 payment_in_progress), writing nothing", async () => {
    const order = await placeOrder(2, "desc");
    stripe.completed.add(order.paymentProviderSessionId!);
    const before = await orderState(server, order.id);
    expectProblem(await edit(order.id, [{ orderItemId: order.items[0]!.id, quantity: 1 }]), 422, "payment_in_progress");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("refuses to change the amount of a Stripe session the shop can no longer close (422 payment_provider_unavailable)", async () => {
    const order = await placeOrder(2, "asc");
    useManualPayments();
    const before = await orderState(server, order.id);
    expectProblem(await edit(order.id, [{ orderItemId: order.items[0]!.id, quantity: 1 }]), 422, "payment_provider_unavailable");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("gives gift-card money beyond the new total back to the card, and an unpaid order it now covers becomes paid", async () => {
    useManualPayments();
    const { order, line, plain } = await variantOrder("pending_payment", [1, 1]);
    const issued = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: Number(order.totalDkk) }, { key }));
    const part = order.totalDkk - 100n;
    expectOk(server, "giftcards.redeem", await server.call("giftcards.redeem", { code: issued.code, amountDkk: Number(part), orderId: order.id }, { key }));
    const result = await edited(order.id, [{ orderItemId: line.id, quantity: 0 }]);
    const total = plain.unitPriceDkk + order.shippingDkk;
    expect(result).toMatchObject({ status: "paid", totalDkk: Number(total), returnedDkk: Number(part - total), outstandingDkk: 0, paymentUrl: null });
    expect((await prisma().giftCard.findUniqueOrThrow({ where: { code: issued.code } })).balanceDkk).toBe(order.totalDkk - total);
    expect((await payments(order.id)).map((e) => [e.kind, e.method, e.amountDkk])).toEqual([["payment", "gift_card", Number(part)], ["refund", "gift_card", Number(part - total)]]);
    expect((await orderRow(order.id)).paidAt).not.toBeNull();
  });

  it("re-applies the order's discount code to the new subtotal", async () => {
    useManualPayments();
    const order = await placeOrder(3, "asc", "velkommen10");
    const unit = order.items[0]!.unitPriceDkk;
    expect(order.discountDkk).toBe((3n * unit * 10n + 50n) / 100n);
    const result = await edited(order.id, [{ orderItemId: order.items[0]!.id, quantity: 2 }]);
    expect(result.discountDkk).toBe(Number((2n * unit * 10n + 50n) / 100n));
    expect(result.totalDkk).toBe(result.subtotalDkk - result.discountDkk + result.shippingDkk);
  });

  it("scales a discount whose code no longer gives it, and moves shipping only across the free-shipping threshold", async () => {
    // A paid order with free shipping: removing a line takes its goods below the threshold, so the flat rate applies.
    const free = await variantOrder("paid", [1, 1]);
    await prisma().order.update({ where: { id: free.order.id }, data: { shippingDkk: 0n, totalDkk: free.order.subtotalDkk, vatOere: vatOf(free.order.subtotalDkk) } });
    await prisma().paymentEntry.updateMany({ where: { orderId: free.order.id }, data: { amountDkk: free.order.subtotalDkk } });
    const threshold = free.order.subtotalDkk - 1n;
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: Number(threshold) }, { key }));
    const below = await edited(free.order.id, [{ orderItemId: free.line.id, quantity: 0 }]);
    expect(below).toMatchObject({ shippingDkk: 4900, totalDkk: Number(free.plain.unitPriceDkk + 4900n), returnedDkk: Number(free.line.unitPriceDkk - 4900n) });

    // An unpaid order paying the flat rate: more units take it to the threshold, and shipping becomes free.
    useManualPayments();
    const flat = await variantOrder("pending", [1, 1]);
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: Number(flat.order.subtotalDkk + 1n) }, { key }));
    expect(await edited(flat.order.id, [{ orderItemId: flat.plain.id, quantity: 2 }])).toMatchObject({ shippingDkk: 0, subtotalDkk: Number(flat.order.subtotalDkk + flat.plain.unitPriceDkk) });

    // Code SOMMER10 does not exist: the fixture's 100 kr discount shrinks with the subtotal (half up).
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: 49900 }, { key }));
    const scaled = await createOrder(server, { status: "pending", quantities: [2, 2], discountDkk: 10000 });
    const row = await orderRow(scaled.id);
    const first = row.items[0]!;
    await prisma().product.update({ where: { id: first.productId }, data: { stock: 20n } });
    const result = await edited(scaled.id, [{ orderItemId: first.id, quantity: 1 }]);
    const subtotal = row.subtotalDkk - first.unitPriceDkk;
    expect(result.discountDkk).toBe(Number((2n * 10000n * subtotal + row.subtotalDkk) / (2n * row.subtotalDkk)));
  });

  it("sends the shopper a Danish order-changed e-mail after commit, listed in the timeline", async () => {
    const mail = captureMail(server);
    const { order, plain } = await variantOrder("paid", [1, 2]);
    await edited(order.id, [{ orderItemId: plain.id, quantity: 1 }]);
    await expect.poll(() => mail.sent.find((m) => m.to === order.email)?.subject ?? "").toMatch(new RegExp(`^Din ordre #${order.number} er ændret`));
    const message = mail.sent.find((m) => m.to === order.email)!;
    expect(message.text).toContain(`1 × ${plain.productName}`);
    expect(message.text).toMatch(/Vi tilbagebetaler [\d.,]+\s*kr\. til dig/);
    await expect.poll(() => prisma().emailMessage.count({ where: { orderId: order.id, kind: "order_changed" } })).toBe(1);
    const timeline = expectOk<Array<{ kind: string; emailKind?: string; tool?: string }>>(server, "orders.get_timeline", await server.call("orders.get_timeline", { orderId: order.id }, { key }));
    expect(timeline.filter((e) => e.kind === "email").map((e) => e.emailKind)).toEqual(["order_changed"]);
    expect(timeline.filter((e) => e.kind === "audit").map((e) => e.tool)).toEqual(["orders.change_items"]);
  });

  it("changes nothing, audits nothing and mails nothing when the lines already are as asked", async () => {
    const mail = captureMail(server);
    const { order, line, current } = await variantOrder("paid");
    const before = await orderState(server, order.id);
    const result = await edited(order.id, [{ orderItemId: line.id, quantity: line.quantity, variantSku: current.sku }]);
    expect(result).toMatchObject({ totalDkk: Number(order.totalDkk), returnedDkk: 0, outstandingDkk: 0 });
    expect(await orderState(server, order.id)).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mail.sent).toEqual([]);
  });

  it("refuses once the order has shipped (422 already_shipped), changing nothing", async () => {
    for (const status of ["shipped", "delivered", "completed", "cancelled", "refunded"]) {
      const { order, plain } = await variantOrder(status);
      const before = await orderState(server, order.id);
      expectProblem(await edit(order.id, [{ orderItemId: plain.id, quantity: 1 }]), 422, "already_shipped");
      expect(await orderState(server, order.id)).toEqual(before);
    }
  });

  it("refuses a variant of another product or an unknown SKU (422 invalid_variant), changing nothing", async () => {
    const { order, line, plain } = await variantOrder("pending");
    const other = await prisma().productVariant.findFirstOrThrow({ where: { productId: { not: line.productId } } });
    const before = await orderState(server, order.id);
    expectProblem(await edit(order.id, [{ orderItemId: line.id, variantSku: other.sku }]), 422, "invalid_variant");
    expectProblem(await edit(order.id, [{ orderItemId: line.id, variantSku: "no-such-sku" }]), 422, "invalid_variant");
    expectProblem(await edit(order.id, [{ orderItemId: plain.id, variantSku: other.sku }]), 422, "invalid_variant");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("refuses a swap or a raise beyond stock (422 out_of_stock), changing nothing", async () => {
    const { order, line, plain, m } = await variantOrder("pending");
    await prisma().productVariant.update({ where: { id: m.id }, data: { stock: 0n } });
    await prisma().product.update({ where: { id: plain.productId }, data: { stock: 1n } });
    const before = await orderState(server, order.id);
    // One change fits and the other does not: neither is written.
    expectProblem(await edit(order.id, [{ orderItemId: plain.id, quantity: 1 }, { orderItemId: line.id, variantSku: m.sku }]), 422, "out_of_stock");
    expectProblem(await edit(order.id, [{ orderItemId: plain.id, quantity: plain.quantity + 2 }]), 422, "out_of_stock");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("refuses to remove the last line (422 last_line, naming orders.cancel) and a paid order's rising total (422 payment_required)", async () => {
    const { order, line, plain, l } = await variantOrder("paid");
    const before = await orderState(server, order.id);
    const empty = await edit(order.id, [{ orderItemId: line.id, quantity: 0 }, { orderItemId: plain.id, quantity: 0 }]);
    expectProblem(empty, 422, "last_line");
    expect(String(empty.body.detail)).toContain("orders.cancel");
    expectProblem(await edit(order.id, [{ orderItemId: line.id, variantSku: l.sku }]), 422, "payment_required");
    expectProblem(await edit(order.id, [{ orderItemId: plain.id, quantity: plain.quantity + 1 }]), 422, "payment_required");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("answers 404 for an unknown order or a line of another order", async () => {
    const { order } = await variantOrder("pending");
    const other = await createOrder(server, { status: "pending" });
    expectProblem(await edit("no-such-order", [{ orderItemId: "x", quantity: 1 }]), 404, "not_found");
    const before = await orderState(server, order.id);
    expectProblem(await edit(order.id, [{ orderItemId: other.items[0]!.id, quantity: 1 }]), 404, "not_found");
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("refunds and restocks once when two edits race for the same paid order", async () => {
    const { order, line, plain, current } = await variantOrder("paid", [2, 2]);
    await paidByCard(order.id);
    const before = stripe.requests.filter((r) => r.path === "/v1/refunds").length;
    const same = await Promise.all([edit(order.id, [{ orderItemId: plain.id, quantity: 1 }]), edit(order.id, [{ orderItemId: plain.id, quantity: 1 }])]);
    expect(same.map((r) => r.status)).toEqual([200, 200]);
    expect((await payments(order.id)).filter((e) => e.kind === "refund").map((e) => e.amountDkk)).toEqual([Number(plain.unitPriceDkk)]);
    expect(stripe.requests.filter((r) => r.path === "/v1/refunds").length - before).toBe(1);
    expect(await productStock(plain.productId)).toBe(21n);

    // Different edits racing: both apply, one after the other, and the refunds add up to the fall in the total.
    const both = await Promise.all([edit(order.id, [{ orderItemId: line.id, quantity: 1 }]), edit(order.id, [{ orderItemId: plain.id, quantity: 0 }])]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const row = await orderRow(order.id);
    expect(row.items.map((item) => [item.id, item.quantity])).toEqual([[line.id, 1]]);
    const refunds = (await payments(order.id)).filter((e) => e.kind === "refund").reduce((sum, e) => sum + e.amountDkk, 0);
    expect(refunds).toBe(Number(order.totalDkk - row.totalDkk));
    expect(await variantStock(current.id)).toBe(6n);
    expect(await productStock(plain.productId)).toBe(22n);
  });

  it("needs orders:write", async () => {
    const { order, plain } = await variantOrder("pending");
    await expectScopeMatrix(server, "orders.change_items", { orderId: order.id, items: [{ orderItemId: plain.id, quantity: plain.quantity }] });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const { order, plain } = await variantOrder("paid");
    const line = (change: object) => ({ orderId: order.id, items: [{ orderItemId: plain.id, ...change }] });
    await expectRejected(
      server,
      "orders.change_items",
      key,
      [
        { orderId: order.id },
        { orderId: order.id, items: [] },
        line({}),
        line({ quantity: -1 }),
        line({ quantity: 1.5 }),
        line({ quantity: 101 }),
        line({ variantSku: "" }),
        line({ quantity: 1, price: 100 }),
        { orderId: order.id, items: [{ orderItemId: plain.id, quantity: 1 }, { orderItemId: plain.id, quantity: 0 }] },
        { ...line({ quantity: 1 }), refundAccount: "1" },
        { ...line({ quantity: 1 }), restock: false },
      ],
      () => orderState(server, order.id),
    );
  });
});
