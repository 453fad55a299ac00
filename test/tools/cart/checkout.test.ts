// cart.checkout through real HTTP: the order, its snapshots, stock and discount usage, refusals, doors, scopes, bad input.
import { describe, expect, it } from "vitest";
import type { CartSummary } from "../../../src/tools/cart/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { mcpCall } from "../../support/mcp.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, commerceSnapshot, expectRejectedInSession, newSession, plainProducts, sessionIdOf, variantProduct } from "../../support/session.ts";
import { captureMail } from "../orders/fixtures.ts";

const { server, keys: { staff } } = useServer({ config: { publicBaseUrl: "https://shop.example.dk" }, keys: { staff: ["giftcards:write", "orders:read", "orders:write"] } });

type Checkout = { orderId: string; status: string; totalDkk: number; paymentUrl: string };
const prisma = () => server.prisma;

async function filledCart(email = ADDRESS.email, quantities: number[] = [1, 2]) {
  const cookie = await newSession(server);
  const products = (await plainProducts(server, 3)).slice(-quantities.length);
  for (const [i, product] of products.entries()) {
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product.slug, quantity: quantities[i] }, { cookie }));
  }
  const summary = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", { ...ADDRESS, email }, { cookie }));
  return { cookie, products, summary };
}

/** A new gift card of `amountDkk` (issued through giftcards.issue). */
async function giftCard(amountDkk: number): Promise<string> {
  return expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk }, { key: staff })).code;
}
const balanceOf = async (code: string) => Number((await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk);
const ledgerOf = async (orderId: string) =>
  expectOk<Array<{ kind: string; method: string; amountDkk: number; reference: string | null }>>(server, "orders.payments", await server.call("orders.payments", { orderId }, { key: staff }))
    .map((entry) => [entry.kind, entry.method, entry.amountDkk, entry.reference]);
const BILLING = { name: "Firma ApS", address: "Vestergade 3", zip: "8000", city: "aarhus c" };
const pagePath = (paymentUrl: string) => `${new URL(paymentUrl).pathname}${new URL(paymentUrl).search}`;

describe("cart.checkout", () => {
  it("turns the cart into a pending_payment order with snapshots and stock taken, and signs nobody in", async () => {
    const { cookie, products, summary } = await filledCart("New.Shopper@example.dk");
    const stockBefore = await prisma().product.findMany({ where: { id: { in: products.map((p) => p.id) } }, orderBy: { id: "asc" } });
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    expect(result).toEqual({ orderId: expect.any(String), status: "pending_payment", totalDkk: summary.totalDkk, paymentUrl: expect.any(String) });
    expect(result.paymentUrl).toMatch(new RegExp(`^https://shop\\.example\\.dk/orders/${result.orderId}/pay\\?token=[\\w-]+$`));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { items: { orderBy: { productName: "asc" } }, statusHistory: true } });
    expect(order).toMatchObject({
      status: "pending_payment", email: "new.shopper@example.dk", shippingName: ADDRESS.name, shippingAddress: ADDRESS.address,
      shippingZip: "1160", shippingCity: "København K", phoneNumber: null, channel: "web", isAiGenerated: false, aiAgentSource: null,
      currency: "DKK", fxRate: 1, paymentProvider: "manual", sessionId: sessionIdOf(cookie), discountCode: null,
    });
    expect([order.subtotalDkk, order.discountDkk, order.shippingDkk, order.totalDkk, order.vatOere].map(Number)).toEqual([
      summary.subtotalDkk, 0, summary.shippingDkk, summary.totalDkk, summary.vatOere,
    ]);
    expect(order.items.map((item) => ({ productId: item.productId, unit: Number(item.unitPriceDkk), quantity: item.quantity, sku: item.variantSku })).sort((a, b) => a.productId.localeCompare(b.productId)))
      .toEqual(summary.lines.map((line) => ({ productId: products.find((p) => p.slug === line.productSlug)!.id, unit: line.unitPriceDkk, quantity: line.quantity, sku: null })).sort((a, b) => a.productId.localeCompare(b.productId)));
    expect(order.statusHistory.map((change) => [change.fromStatus, change.toStatus, change.actor])).toEqual([[null, "pending_payment", `session:${sessionIdOf(cookie)}`]]);
    const customer = await prisma().customer.findUniqueOrThrow({ where: { email: "new.shopper@example.dk" } });
    expect(order.userId).toBe(customer.id);
    // A new e-mail proves nothing either: the session stays a guest's until a login code signs it in.
    expect((await prisma().storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).customerId).toBeNull();
    const stockAfter = await prisma().product.findMany({ where: { id: { in: products.map((p) => p.id) } }, orderBy: { id: "asc" } });
    for (const [i, row] of stockAfter.entries()) {
      const quantity = summary.lines.find((line) => line.productSlug === row.slug)!.quantity;
      expect(row.stock).toBe(stockBefore[i]!.stock - BigInt(quantity));
      expect((await server.runtime.collaborators.catalog.product(row.slug))!.stock).toBe(Number(row.stock));
    }
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "cart.checkout", subjectType: "order", subjectId: order.id, before: null, door: "rest" });
    expect(audit!.after).toMatchObject({ id: order.id, status: "pending_payment", totalDkk: summary.totalDkk });
    const cart = await prisma().cart.findUniqueOrThrow({ where: { sessionId: sessionIdOf(cookie) }, include: { items: true } });
    expect(cart).toMatchObject({ orderId: order.id, discountCode: null, items: [] });
    const page = await fetch(`${server.url}${new URL(result.paymentUrl).pathname}${new URL(result.paymentUrl).search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`#${order.number}`);
    expect((await fetch(`${server.url}/orders/${order.id}/pay?token=forged`)).status).toBe(404);
    expect((await fetch(`${server.url}/webhooks/stripe`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("redeems the cart's discount code and snapshots variants", async () => {
    const cookie = await newSession(server);
    const product = await variantProduct(server);
    const variant = product.variants.find((v) => v.stock > 0n)!;
    await server.call("cart.add", { productSlug: product.slug, variantSku: variant.sku }, { cookie });
    expect((await server.call("discounts.try_apply", { code: "sommer200" }, { cookie })).status).toBe(200);
    const summary = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const usage = (await prisma().discount.findUniqueOrThrow({ where: { code: "SOMMER200" } })).usageCount;
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { items: true } });
    expect(order.discountCode).toBe("SOMMER200");
    expect(Number(order.discountDkk)).toBe(summary.discountDkk);
    expect(summary.discountDkk).toBe(Math.min(20000, summary.subtotalDkk));
    expect(order.items[0]).toMatchObject({ variantId: variant.id, variantSku: variant.sku, variantAttributes: variant.attributes });
    expect((await prisma().discount.findUniqueOrThrow({ where: { code: "SOMMER200" } })).usageCount).toBe(usage + 1n);
    expect((await prisma().productVariant.findUniqueOrThrow({ where: { id: variant.id } })).stock).toBe(variant.stock - 1n);
  });

  it("refuses an empty cart and a cart without address", async () => {
    const cookie = await newSession(server);
    expectProblem(await server.call("cart.checkout", {}, { cookie }), 422, "cart_empty");
    const [product] = await plainProducts(server);
    await server.call("cart.add", { productSlug: product!.slug }, { cookie });
    expectProblem(await server.call("cart.checkout", {}, { cookie }), 422, "shipping_address_required");
    expectProblem(await server.call("cart.checkout", {}, { key: await server.key("cart:write") }), 422, "cart_empty");
  });

  it("refuses when the stock is gone and rolls everything back", async () => {
    const { cookie, products } = await filledCart(ADDRESS.email, [1, 1]);
    await prisma().product.update({ where: { id: products[1]!.id }, data: { stock: 0n } });
    const before = await commerceSnapshot(server);
    expectProblem(await server.call("cart.checkout", {}, { cookie }), 422, "insufficient_stock");
    expect(await commerceSnapshot(server)).toEqual(before);
    await prisma().product.update({ where: { id: products[1]!.id }, data: { stock: BigInt(products[1]!.stock) } });
  });

  it("refuses a code that no longer applies unless dropDiscount is true", async () => {
    const { cookie } = await filledCart();
    await server.call("discounts.try_apply", { code: "VELKOMMEN10" }, { cookie });
    await prisma().discount.update({ where: { code: "VELKOMMEN10" }, data: { validUntil: new Date("2020-01-01T00:00:00Z") } });
    const before = await commerceSnapshot(server);
    const refused = await server.call("cart.checkout", {}, { cookie });
    expectProblem(refused, 422, "discount_unavailable");
    expect(refused.body.detail).toMatch(/expired/);
    expect(await commerceSnapshot(server)).toEqual(before);
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { dropDiscount: true }, { cookie }));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    expect([order.discountCode, order.discountDkk]).toEqual([null, 0n]);
    await prisma().discount.update({ where: { code: "VELKOMMEN10" }, data: { validUntil: null } });
  });

  it("does not bind the session to an existing customer by e-mail alone", async () => {
    await prisma().customer.create({ data: { email: "known@example.dk" } });
    const { cookie } = await filledCart("known@example.dk");
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { customer: true } });
    expect(order.customer!.email).toBe("known@example.dk");
    expect((await prisma().storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).customerId).toBeNull();
  });

  it("marks orders placed through MCP as AI-generated on the mcp channel", async () => {
    const { cookie } = await filledCart();
    const response = await mcpCall(server, "cart.checkout", {}, { headers: { cookie } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const result = response.body.result as Checkout;
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    expect(order).toMatchObject({ channel: "mcp", isAiGenerated: true });
    expect(order.aiAgentSource).toEqual(expect.any(String));
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.checkout", {});
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const { cookie } = await filledCart();
    const bad = [
      { dropDiscount: "yes" }, { dropDiscount: 1 }, { confirm: true }, { giftCardCode: "" }, { giftCardCode: "KXRT" }, { giftCardCode: 1234 }, { giftCardCode: "K".repeat(41) },
      { deliveryMethodId: "" }, { deliveryMethodId: 1 }, { pickupPointId: "x".repeat(51) }, { billingAddress: { name: "Jens" } },
      { billingAddress: { ...BILLING, country: "SE" } }, { billingAddress: { ...BILLING, zip: "123" } }, { billingAddress: "Vestergade 3" },
    ];
    await expectRejected(server, "cart.checkout", await server.key("cart:write"), bad);
    await expectRejectedInSession(server, "cart.checkout", cookie, bad);
  });
});

describe("cart.checkout with a gift card", () => {
  it("takes what the card holds and leaves the rest for the bank transfer: ledger, payment page and e-mail", async () => {
    const mail = captureMail(server);
    const { cookie, summary } = await filledCart("kort.delvis@example.dk");
    const code = await giftCard(5000);
    const typed = code.toLowerCase().replace(/-/g, " ");
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { giftCardCode: typed }, { cookie }));
    expect(result).toEqual({ orderId: expect.any(String), status: "pending_payment", totalDkk: summary.totalDkk, paymentUrl: expect.stringMatching(/\/pay\?token=/) });
    const rest = summary.totalDkk - 5000;
    expect(await balanceOf(code)).toBe(0);
    expect(await ledgerOf(result.orderId)).toEqual([["payment", "gift_card", 5000, `…${code.slice(-4)}`]]);
    const payment = expectOk<{ giftCardDkk: number; outstandingDkk: number; paid: boolean }>(server, "orders.get_payment", await server.call("orders.get_payment", { orderId: result.orderId }, { key: staff }));
    expect(payment).toMatchObject({ giftCardDkk: 5000, outstandingDkk: rest, paid: false });

    const page = await (await fetch(`${server.url}${pagePath(result.paymentUrl)}`)).text();
    const kr = (oere: number) => new Intl.NumberFormat("da-DK", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(oere / 100);
    expect(page).toContain(`Overfør <strong>${kr(rest)} kr.</strong>`);
    expect(page).toMatch(/Betalt med gavekort<\/th><td class="num">−50,00 kr\./);
    expect(page).toMatch(new RegExp(`Tilbage at betale</th><td class="num price">${kr(rest).replace(".", "\\.")} kr\\.`));
    await expect.poll(() => mail.sent.find((m) => m.to === "kort.delvis@example.dk")?.text ?? "").toContain(`Beløb: ${kr(rest)} kr.`);
    const instructions = mail.sent.find((m) => m.to === "kort.delvis@example.dk")!;
    expect(instructions.subject).toMatch(/^Betaling af ordre/);
    expect(instructions.text).toContain("Betalt med gavekort: -50,00 kr.");
    expect(instructions.text).toContain(`At betale: ${kr(rest)} kr.`);
  });

  it("pays the whole order when the card covers it: paid at once, confirmation mailed, no payment instructions", async () => {
    const mail = captureMail(server);
    const { cookie, summary } = await filledCart("kort.helt@example.dk");
    const code = await giftCard(summary.totalDkk + 1234);
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { giftCardCode: code }, { cookie }));
    expect(result).toMatchObject({ status: "paid", totalDkk: summary.totalDkk });
    expect(result.paymentUrl).toMatch(new RegExp(`^https://shop\\.example\\.dk/orders/${result.orderId}/pay\\?token=[\\w-]+$`));
    expect(await balanceOf(code)).toBe(1234);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { statusHistory: { orderBy: { createdAt: "asc" } } } });
    expect(order).toMatchObject({ status: "paid", paymentMethod: "gift_card", paymentProviderSessionId: null });
    expect(order.paidAt).toBeInstanceOf(Date);
    expect(order.statusHistory.map((change) => [change.fromStatus, change.toStatus])).toEqual([[null, "pending_payment"], ["pending_payment", "paid"]]);
    expect(await ledgerOf(order.id)).toEqual([["payment", "gift_card", summary.totalDkk, `…${code.slice(-4)}`]]);
    await expect.poll(() => prisma().emailMessage.findMany({ where: { orderId: order.id }, select: { kind: true } })).toEqual([{ kind: "order_confirmation" }]);
    expect(mail.sent.map((m) => m.subject)).toEqual([expect.stringMatching(/^Ordrebekræftelse/)]);
    const page = await (await fetch(`${server.url}${pagePath(result.paymentUrl)}`)).text();
    expect(page).toContain("Tak for din betaling");
    expect(page).toContain("Betalt med gavekort");
    expect(page).not.toContain("Tilbage at betale");
  });

  it("gives the card its money back when the order is cancelled (orders.cancel re-credits from the ledger)", async () => {
    const { cookie } = await filledCart();
    const code = await giftCard(3000);
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { giftCardCode: code }, { cookie }));
    expect(await balanceOf(code)).toBe(0);
    expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: result.orderId, reason: "Kunden fortrød" }, { key: staff }));
    expect(await balanceOf(code)).toBe(3000);
    expect(await ledgerOf(result.orderId)).toEqual([["payment", "gift_card", 3000, `…${code.slice(-4)}`], ["refund", "gift_card", 3000, `…${code.slice(-4)}`]]);
    expect(await prisma().refundTask.count({ where: { orderId: result.orderId } })).toBe(0);
  });

  it("refuses an unknown, expired or empty card and places nothing", async () => {
    const { cookie } = await filledCart();
    const expired = await giftCard(10000);
    await prisma().giftCard.update({ where: { code: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const empty = await giftCard(100);
    await prisma().giftCard.update({ where: { code: empty }, data: { balanceDkk: 0n } });
    const cards = await prisma().giftCard.findMany({ orderBy: { id: "asc" }, select: { id: true, balanceDkk: true } });
    const cases: Array<[string, number, string]> = [["AAAA-BBBB-CCCC-DDDD", 404, "not_found"], [expired, 422, "giftcard_expired"], [empty, 422, "giftcard_insufficient_balance"]];
    for (const [code, status, problem] of cases) {
      const before = await commerceSnapshot(server);
      expectProblem(await server.call("cart.checkout", { giftCardCode: code }, { cookie }), status, problem);
      expect(await commerceSnapshot(server)).toEqual(before);
    }
    expect(await prisma().giftCard.findMany({ orderBy: { id: "asc" }, select: { id: true, balanceDkk: true } })).toEqual(cards);
    expect(await prisma().paymentEntry.count({ where: { method: "gift_card", order: { sessionId: sessionIdOf(cookie) } } })).toBe(0);
  });

  it("never takes more than the card holds when checkouts race for it", async () => {
    // A product of its own per cart: stock rows do not queue the checkouts, only the card does.
    const products = (await plainProducts(server, 20)).filter((p) => p.priceDkk >= 10000).slice(0, 4);
    const carts = await Promise.all(products.map(async (product, i) => {
      const cookie = await newSession(server);
      expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product.slug }, { cookie }));
      const address = { ...ADDRESS, email: `kaploeb${i}@example.dk` };
      return { cookie, total: expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", address, { cookie })).totalDkk };
    }));
    const card = carts[0]!.total + carts[1]!.total + 2500;
    const code = await giftCard(card);
    const answers = await Promise.all(carts.map(({ cookie }) => server.call("cart.checkout", { giftCardCode: code }, { cookie })));
    for (const refused of answers.filter((a) => a.status !== 200)) expectProblem(refused, 422, "giftcard_insufficient_balance");
    const placed = answers.filter((a) => a.status === 200).map((a) => a.body.result as Checkout);
    const taken = await prisma().paymentEntry.findMany({ where: { orderId: { in: placed.map((p) => p.orderId) }, method: "gift_card" } });
    // Less on the card than the four totals: it is emptied exactly, each order taking what was left up to its total.
    expect(await balanceOf(code)).toBe(0);
    expect(taken.reduce((sum, entry) => sum + Number(entry.amountDkk), 0)).toBe(card);
    for (const order of placed) {
      const entry = taken.find((e) => e.orderId === order.orderId)!;
      expect(order.status).toBe(Number(entry.amountDkk) === order.totalDkk ? "paid" : "pending_payment");
    }
    expect(placed.filter((p) => p.status === "pending_payment")).toHaveLength(1);
    const movements = await prisma().giftCardMovement.aggregate({ where: { giftCard: { code } }, _sum: { amountDkk: true } });
    expect(movements._sum.amountDkk).toBe(0n);
  });
});


describe("cart.checkout with a delivery method and billing address", () => {
  const THRESHOLD = 49900;
  /** A cart below the free-shipping threshold, with the shipping address set. */
  async function cheapCart(email: string) {
    const cookie = await newSession(server);
    const product = (await plainProducts(server, 2)).find((p) => p.priceDkk < THRESHOLD)!;
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product.slug }, { cookie }));
    const summary = expectOk<CartSummary>(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", { ...ADDRESS, email }, { cookie }));
    return { cookie, summary };
  }
  /** The order's delivery as its shopper reads it (the session that placed it reaches it). */
  const delivery = async (cookie: string, orderId: string) =>
    expectOk<{ delivery: unknown }>(server, "user.get_order_status", await server.call("user.get_order_status", { orderId }, { cookie })).delivery;

  it("applies the first method, home delivery at the flat rate, when none is chosen", async () => {
    const { cookie, summary } = await cheapCart("hjem@example.dk");
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    expect(result.totalDkk).toBe(summary.totalDkk);
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    expect(order).toMatchObject({ deliveryMethodId: "postnord-hjem", deliveryMethodName: "PostNord Hjemmelevering", deliveryCarrier: "PostNord", pickupPoint: null, shippingDkk: 4900n, billingName: null });
    expect(await delivery(cookie, order.id)).toEqual({ method: "postnord-hjem", name: "PostNord Hjemmelevering", carrier: "PostNord", pickupPoint: null });
  });

  it("charges a parcel-shop method's price, keeps the parcel shop and the billing address, and mails them", async () => {
    const mail = captureMail(server);
    const { cookie, summary } = await cheapCart("pakkeshop@example.dk");
    const input = { deliveryMethodId: "gls-pakkeshop", pickupPointId: "gls-aarhus-spar", billingAddress: BILLING };
    const code = await giftCard(summary.subtotalDkk + 3500);
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { ...input, giftCardCode: code }, { cookie }));
    expect(result).toMatchObject({ status: "paid", totalDkk: summary.subtotalDkk + 3500 });
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } });
    const point = { id: "gls-aarhus-spar", name: "Spar Trøjborg", address: "Tordenskjoldsgade 20", zip: "8200", city: "Aarhus N" };
    expect(order).toMatchObject({
      deliveryMethodId: "gls-pakkeshop", deliveryMethodName: "GLS Pakkeshop", deliveryCarrier: "GLS", pickupPoint: point, shippingDkk: 3500n,
      billingName: "Firma ApS", billingAddress: "Vestergade 3", billingZip: "8000", billingCity: "Aarhus C", billingCountry: "DK",
    });
    expect(await delivery(cookie, order.id)).toEqual({ method: "gls-pakkeshop", name: "GLS Pakkeshop", carrier: "GLS", pickupPoint: point });
    await expect.poll(() => mail.sent.filter((m) => m.subject.startsWith("Ordrebekræftelse")).length).toBe(1);
    const confirmation = mail.sent.find((m) => m.subject.startsWith("Ordrebekræftelse"))!;
    expect(confirmation.text).toContain("Levering: GLS Pakkeshop\nAfhentes i pakkeshop: Spar Trøjborg, Tordenskjoldsgade 20, 8200 Aarhus N");
    expect(confirmation.html).toContain("Levering: GLS Pakkeshop<br>Afhentes i pakkeshop: Spar Trøjborg");
  });

  it("makes a parcel-shop method free above the threshold", async () => {
    const cookie = await newSession(server);
    const dear = (await plainProducts(server)).find((p) => p.priceDkk >= THRESHOLD)!;
    await server.call("cart.add", { productSlug: dear.slug }, { cookie });
    await server.call("cart.set_shipping_address", ADDRESS, { cookie });
    const result = expectOk<Checkout>(server, "cart.checkout", await server.call("cart.checkout", { deliveryMethodId: "postnord-pakkeshop", pickupPointId: "pn-kbh-netto-nansensgade" }, { cookie }));
    expect(result.totalDkk).toBe(dear.priceDkk);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: result.orderId } })).toMatchObject({ shippingDkk: 0n, deliveryMethodId: "postnord-pakkeshop" });
  });

  it("refuses an unknown method, a missing, unknown or other carrier's parcel shop and a bad billing address, writing nothing", async () => {
    const { cookie } = await cheapCart("afvist@example.dk");
    const before = await commerceSnapshot(server);
    const refusals: Array<[object, string]> = [
      [{ deliveryMethodId: "bring-hjem" }, "unknown_delivery_method"],
      [{ deliveryMethodId: "postnord-pakkeshop" }, "pickup_point_required"],
      [{ deliveryMethodId: "postnord-pakkeshop", pickupPointId: "gls-aarhus-spar" }, "invalid_pickup_point"],
      [{ deliveryMethodId: "gls-pakkeshop", pickupPointId: "gls-nowhere" }, "invalid_pickup_point"],
      [{ billingAddress: { ...BILLING, city: "Odense C" } }, "invalid_address"],
      [{ billingAddress: { ...BILLING, zip: "0001" } }, "invalid_address"],
    ];
    for (const [input, code] of refusals) expectProblem(await server.call("cart.checkout", input, { cookie }), 422, code);
    expect(await commerceSnapshot(server)).toEqual(before);
    expect((await prisma().cart.findUniqueOrThrow({ where: { sessionId: sessionIdOf(cookie) }, include: { items: true } })).items).toHaveLength(1);
  });
});
