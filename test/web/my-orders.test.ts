// "Mine ordrer" without JavaScript: a signed-in shopper sees an order's address and payments, changes the address and
// cancels it (refund to the original method or as store credit) through plain forms; refusals are shown in Danish on
// the page and change nothing; another customer's order stays out of reach. A guest checkout signs nobody in: that
// browser keeps the order it placed and reaches nothing else of the customer.
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../src/core/format.ts";
import { expectOk, expectProblem } from "../support/expect.ts";
import { mcpCall } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";
import { plainProducts, sessionIdOf } from "../support/session.ts";
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";
import { captureMail, createCustomer, createOrder, orderState, sessionFor, type OrderSeed } from "../tools/orders/fixtures.ts";
import { openReturn, shippedOrder } from "../tools/returns/fixtures.ts";

const { server } = useServer();
const prisma = () => server.prisma;
let n = 0;

async function signedIn(status: string, delivered?: { daysAgo: number } & OrderSeed) {
  const customer = await createCustomer(server, { email: `mine-ordrer-${++n}@example.dk`, name: "Mette Hansen" });
  const seed = { email: customer.email, userId: customer.id };
  const order = delivered ? await shippedOrder(server, { ...delivered, ...seed, deliveredDaysAgo: delivered.daysAgo }) : await createOrder(server, { status, ...seed });
  const client = new WebClient(server);
  const [name, value] = (await sessionFor(server, customer.id)).split("=");
  client.cookies.set(name!, value!);
  return { customer, order, client };
}

describe("Mine ordrer", () => {
  it("shows the order's lines, address and payments with the forms for an unshipped order", async () => {
    const { order, client } = await signedIn("paid");
    const page = await client.get(`/orders/${order.id}`);
    expectHtmlPage(page);
    expect(page.html).toContain(order.shippingAddress);
    expect(page.html).toContain("Betalinger");
    expect(page.html).toContain(`action="/orders/${order.id}/cancel"`);
    expect(page.html).toContain(`action="/orders/${order.id}/address"`);
    expect(page.html).toContain('name="refundAccount"');
  });

  it("says what cancelling gives back: the order's net paid, also when a gift card paid part of it", async () => {
    const { order, client } = await signedIn("pending_payment");
    const key = await server.key("giftcards:write");
    const { code } = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 1500 }, { key }));
    expectOk(server, "giftcards.redeem", await server.call("giftcards.redeem", { code, amountDkk: 1500, orderId: order.id }, { key }));
    expect((await client.get(`/orders/${order.id}`)).html).toContain(`Du får ${formatMoney(1500, order.currency)} tilbage`);
    const paid = await signedIn("paid");
    expect((await paid.client.get(`/orders/${paid.order.id}`)).html).toContain(`Du får ${formatMoney(paid.order.totalDkk, paid.order.currency)} tilbage`);
  });

  it("offers an unpaid order's own payment link", async () => {
    const { order, client } = await signedIn("pending_payment");
    const page = await client.get(`/orders/${order.id}`);
    const link = /href="(\/orders\/[\w-]+\/pay\?token=[\w-]+)">Betal nu</.exec(page.html)?.[1];
    expect(link).toBeDefined();
    const pay = await client.get(link!);
    expectHtmlPage(pay);
    expect(pay.html).toContain("afventer betaling");
    const paid = await signedIn("paid");
    const paidPage = await paid.client.get(`/orders/${paid.order.id}`);
    expectHtmlPage(paidPage);
    expect(paidPage.html).not.toContain("Betal nu");
  });

  it("changes the address, and shows a wrong postal code again with the reason, writing nothing", async () => {
    const { order, client } = await signedIn("processing");
    await client.get(`/orders/${order.id}`);
    const before = await orderState(server, order.id);
    const wrong = await client.post(`/orders/${order.id}/address`, { name: "Mette Hansen", address: "Vestergade 10", zip: "9999", city: "Odense C" });
    expectHtmlPage(wrong, 422);
    expect(wrong.html).toContain("Postnummer og by passer ikke sammen");
    expect(wrong.html).toContain('value="Vestergade 10"');
    expect(await orderState(server, order.id)).toEqual(before);
    expectRedirect(await client.post(`/orders/${order.id}/address`, { name: "Mette Hansen", address: "Vestergade 10", zip: "5000", city: "odense c" }), `/orders/${order.id}?notice=address-changed`);
    const after = await client.get(`/orders/${order.id}?notice=address-changed`);
    expect(after.html).toContain("Leveringsadressen er ændret.");
    expect(after.html).toContain("5000 Odense C");
  });

  it("moves an order to another parcel shop or home and shows what was chosen; a dearer method on a paid order is refused", async () => {
    const key = await server.key("settings:write");
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: 100_000_000 }, { key }));
    try {
      const { order, client } = await signedIn("paid");
      const page = await client.get(`/orders/${order.id}`);
      expect(page.html).toContain(`action="/orders/${order.id}/delivery"`);
      expect(page.html).toContain('name="pickupPoint-gls-pakkeshop"');
      // The order paid 49 kr. shipping: every method costs at most that, so none is disabled yet.
      expect(page.html).not.toMatch(/name="deliveryMethod"[^>]*disabled/);
      expectRedirect(await client.post(`/orders/${order.id}/delivery`, { deliveryMethod: "gls-pakkeshop", "pickupPoint-gls-pakkeshop": "gls-aarhus-spar" }), `/orders/${order.id}?notice=delivery-changed`);
      const after = await client.get(`/orders/${order.id}?notice=delivery-changed`);
      expect(after.html).toContain("Leveringsmåden er ændret.");
      expect(after.html).toContain("Levering: <strong>GLS Pakkeshop</strong>");
      expect(after.html).toContain("Hentes i pakkeshop: Spar Trøjborg");
      expect(after.html).toContain('<option value="gls-aarhus-spar" selected>');
      // Now 35 kr. paid for shipping: the dearer methods cannot be picked, and a forged post is refused in Danish.
      expect(after.html).toMatch(/value="postnord-hjem"[^>]*disabled/);
      const before = await orderState(server, order.id);
      const refused = await client.post(`/orders/${order.id}/delivery`, { deliveryMethod: "postnord-hjem" });
      expectHtmlPage(refused, 422);
      expect(refused.html).toContain("Ændringen gør ordren dyrere, og den er allerede betalt.");
      expect(await orderState(server, order.id)).toEqual(before);

      const unpaid = await signedIn("pending_payment");
      await unpaid.client.get(`/orders/${unpaid.order.id}`);
      expectRedirect(await unpaid.client.post(`/orders/${unpaid.order.id}/delivery`, { deliveryMethod: "postnord-pakkeshop", "pickupPoint-postnord-pakkeshop": "pn-aarhus-foetex" }), /notice=delivery-changed/);
      expectRedirect(await unpaid.client.post(`/orders/${unpaid.order.id}/delivery`, { deliveryMethod: "postnord-hjem" }), /notice=delivery-changed/);
      const home = await unpaid.client.get(`/orders/${unpaid.order.id}`);
      expect(home.html).toContain("Levering: <strong>PostNord Hjemmelevering</strong>");
      expect(home.html).not.toContain("Hentes i pakkeshop");
    } finally {
      expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: 49900 }, { key }));
    }
  });

  it("swaps a line to another size from the order page; a dearer size on a paid order cannot be picked and a forged post is refused", async () => {
    const customer = await createCustomer(server, { email: `mine-ordrer-${++n}@example.dk`, name: "Mette Hansen" });
    const order = await createOrder(server, { status: "paid", variant: true, quantities: [1, 1], email: customer.email, userId: customer.id });
    const client = new WebClient(server);
    const [name, value] = (await sessionFor(server, customer.id)).split("=");
    client.cookies.set(name!, value!);
    const line = order.items.find((item) => item.variantId)!;
    await prisma().productVariant.updateMany({ where: { productId: line.productId }, data: { stock: 5n } });
    const variants = await prisma().productVariant.findMany({ where: { productId: line.productId } });
    const other = variants.find((variant) => variant.id !== line.variantId && !variant.sku.endsWith("-l"))!;
    const large = variants.find((variant) => variant.sku.endsWith("-l"))!;
    const page = await client.get(`/orders/${order.id}`);
    expect(page.html).toContain("Skift størrelse eller farve");
    expect(page.html).toContain(`action="/orders/${order.id}/items"`);
    expect(page.html).toMatch(new RegExp(`<option value="${large.sku}" disabled>L \\(\\+100,00\\skr\\., kan ikke vælges\\)</option>`));
    expect(page.html).toMatch(new RegExp(`<option value="${other.sku}">[^<]* \\(samme pris\\)</option>`));
    expectRedirect(await client.post(`/orders/${order.id}/items`, { orderItemId: line.id, variantSku: other.sku }), `/orders/${order.id}?notice=items-changed#swap`);
    expect(await prisma().orderItem.findUniqueOrThrow({ where: { id: line.id } })).toMatchObject({ variantSku: other.sku });
    expect((await client.get(`/orders/${order.id}?notice=items-changed`)).html).toContain("Varen er skiftet.");
    const before = await orderState(server, order.id);
    const refused = await client.post(`/orders/${order.id}/items`, { orderItemId: line.id, variantSku: large.sku });
    expectHtmlPage(refused, 422);
    expect(refused.html).toContain("Ændringen gør ordren dyrere, og den er allerede betalt.");
    expect(await orderState(server, order.id)).toEqual(before);
    // Another customer's order line: the same 404 as for an unknown order.
    const stranger = await createOrder(server, { status: "paid", variant: true, quantities: [1] });
    expectHtmlPage(await client.post(`/orders/${stranger.id}/items`, { orderItemId: stranger.items[0]!.id, variantSku: other.sku }), 404);
  });

  it("cancels a paid order as store credit with a reason from the list; a shipped order offers no forms and refuses a forged post", async () => {
    const { order, client, customer } = await signedIn("paid");
    await client.get(`/orders/${order.id}`);
    expectRedirect(await client.post(`/orders/${order.id}/cancel`, { reason: "mistake", refundTo: "store_credit" }), `/orders/${order.id}?notice=order-cancelled`);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "cancelled", cancelReason: "Bestilt ved en fejl", refundedDkk: order.totalDkk });
    expect(await prisma().giftCard.findFirst({ where: { customerEmail: customer.email } })).toMatchObject({ source: "store_credit", balanceDkk: order.totalDkk });
    const page = await client.get(`/orders/${order.id}?notice=order-cancelled`);
    expect(page.html).toContain("Ordren er annulleret.");
    expect(page.html).toContain("Tilgodebevis");
    expect(page.html).not.toContain(`action="/orders/${order.id}/cancel"`);

    const shipped = await signedIn("shipped");
    const shippedPage = await shipped.client.get(`/orders/${shipped.order.id}`);
    expect(shippedPage.html).not.toContain(`action="/orders/${shipped.order.id}/cancel"`);
    await shipped.client.get("/account");
    const before = await orderState(server, shipped.order.id);
    const refused = await shipped.client.post(`/orders/${shipped.order.id}/cancel`, { reason: "regret" });
    expectHtmlPage(refused, 422);
    expect(refused.html).toContain("Ordren kan ikke længere annulleres");
    expect(await orderState(server, shipped.order.id)).toEqual(before);
  });

  it("answers 404 for another customer's order, and asks a visitor to sign in", async () => {
    const { client } = await signedIn("paid");
    const other = await signedIn("paid");
    await client.get("/account");
    expectHtmlPage(await client.get(`/orders/${other.order.id}`), 404);
    expectHtmlPage(await client.post(`/orders/${other.order.id}/cancel`, { reason: "regret" }), 404);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: other.order.id } })).status).toBe("paid");
    const visitor = new WebClient(server);
    await visitor.get("/");
    expect((await visitor.get(`/orders/${other.order.id}`)).html).toContain("Log ind med din e-mail");
  });

  it("lets a guest find an order by its number and a code sent to the order's e-mail, and reveals nothing otherwise", async () => {
    const mail = captureMail(server);
    const customer = await createCustomer(server, { email: `gaest-${++n}@example.dk` });
    const order = await createOrder(server, { status: "paid", email: customer.email, userId: customer.id });
    const { number } = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    const guest = new WebClient(server);
    const login = await guest.get("/account");
    expect(login.html).toContain('action="/account/order"');

    const wrong = await guest.post("/account/order", { number: `#${number}`, email: "en-anden@example.dk" });
    expectHtmlPage(wrong);
    expect(wrong.html).toContain("Skriv koden");
    const sent = mail.sent.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mail.sent.length).toBe(sent);

    const bad = await guest.post("/account/order", { number: "x1", email: customer.email });
    expectHtmlPage(bad, 400);
    expect(bad.html).toContain("Skriv ordrenummeret");

    const asked = await guest.post("/account/order", { number: String(number), email: customer.email });
    expectHtmlPage(asked);
    expect(asked.html).toContain(`value="/orders/number/${number}"`);
    await expect.poll(() => mail.sent.find((message) => message.to === customer.email)?.subject).toMatch(/\d{6}/);
    const code = /(\d{6})/.exec(mail.sent.find((message) => message.to === customer.email)!.subject)![1]!;
    expectRedirect(await guest.post("/account/verify", { email: customer.email, code, next: `/orders/number/${number}` }), `/orders/number/${number}`);
    expectRedirect(await guest.get(`/orders/number/${number}`), `/orders/${order.id}`);
    const page = await guest.get(`/orders/${order.id}`);
    expectHtmlPage(page);
    expect(page.html).toContain(`#${number}`);
    expect(page.html).toContain(`action="/orders/${order.id}/cancel"`);

    const other = await createOrder(server, { status: "paid" });
    const otherNumber = (await prisma().order.findUniqueOrThrow({ where: { id: other.id } })).number;
    expectHtmlPage(await guest.get(`/orders/number/${otherNumber}`), 404);
  });

  it("requests a return of a delivered line, lists it with its reference, and offers what is left", async () => {
    const { order, client } = await signedIn("delivered", { daysAgo: 3, quantities: [2, 1] });
    const page = await client.get(`/orders/${order.id}`);
    expect(page.html).toContain(`action="/orders/${order.id}/return"`);
    expect(page.html).not.toContain(`action="/orders/${order.id}/cancel"`);
    const line = order.items.find((item) => item.quantity === 2)!;
    const location = expectRedirect(await client.post(`/orders/${order.id}/return`, { orderItemId: line.id, quantity: "1", kind: "withdrawal", reason: "Passede ikke" }), /notice=return-requested/);
    const after = await client.get(location);
    expect(after.html).toContain("vi har modtaget din anmodning om retur");
    const [ret] = await prisma().returnRequest.findMany({ where: { orderId: order.id }, include: { items: true } });
    expect(ret).toMatchObject({ kind: "withdrawal", status: "requested", reason: "Passede ikke", items: [{ orderItemId: line.id, quantity: 1 }] });
    expect(after.html).toContain(`R-${ret!.id.slice(-8).toUpperCase()}`);
    expect(after.html).toContain("Anmodet");
    // One unit of that line and the other line are still returnable.
    expect(after.html.match(/name="orderItemId"/g)).toHaveLength(2);
  });

  it("says a received bank-transfer return 'refunderes' until staff have paid it out, then 'Refunderet'", async () => {
    const { order, client } = await signedIn("delivered", { daysAgo: 3, quantities: [1] });
    const key = await server.key("returns:write", "returns:read", "orders:read", "orders:write");
    const ret = await openReturn(server, key, order, { approve: true });
    expectOk(server, "returns.receive", await server.call("returns.receive", { returnId: ret.returnId, refundAccount: "1234 0012345678" }, { key }));
    const pending = await client.get(`/orders/${order.id}`);
    expectHtmlPage(pending);
    expect(pending.html).toContain("Modtaget – beløbet refunderes til din bankkonto");
    expect(pending.html).toContain("Refunderes · bankoverførsel");
    expect(pending.html).toContain("Beløbet refunderes til din bankkonto");
    expect(pending.html).not.toMatch(/Refunderet/);
    const listed = await client.get("/account");
    expect(listed.html).toMatch(/<span class="tag">Refunderes<\/span>/);
    expect(listed.html).not.toMatch(/<span class="tag">Refunderet<\/span>/);
    const [task] = await prisma().refundTask.findMany({ where: { orderId: order.id } });
    expectOk(server, "orders.complete_refund_task", await server.call("orders.complete_refund_task", { taskId: task!.id }, { key }));
    const paid = await client.get(`/orders/${order.id}`);
    expect(paid.html).not.toContain("refunderes");
    expect(paid.html).toContain("Refunderet · bankoverførsel");
    expect(paid.html).toContain("Ordren er refunderet.");
    expect(paid.html).toContain("Fortrydelse · Refunderet ·");
    expect((await client.get("/account")).html).toMatch(/<span class="tag">Refunderet<\/span>/);
  });

  it("lists the shopper's gift cards and the store credit of their cancelled order on the account page, codes masked", async () => {
    const { customer, order, client } = await signedIn("paid");
    const key = await server.key("giftcards:write");
    const issue = async (amountDkk: number, customerEmail: string) =>
      expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk, customerEmail }, { key })).code;
    const own = await issue(25_000, customer.email);
    const others = await issue(9_900, `en-anden-${++n}@example.dk`);
    await client.get(`/orders/${order.id}`);
    expectRedirect(await client.post(`/orders/${order.id}/cancel`, { reason: "regret", refundTo: "store_credit" }), `/orders/${order.id}?notice=order-cancelled`);
    const credit = await prisma().giftCard.findFirstOrThrow({ where: { orderId: order.id, source: "store_credit" } });
    const page = await client.get("/account");
    expectHtmlPage(page);
    expect(page.html).toContain("Tilgodebeviser og gavekort");
    expect(page.html).toContain(`…${own.slice(-4)}`);
    expect(page.html).toContain(formatMoney(25_000, order.currency));
    expect(page.html).toContain(`Tilgodebevis</strong> <span class="order-ref">…${credit.code.slice(-4)}`);
    expect(page.html).toContain(formatMoney(Number(credit.balanceDkk), order.currency));
    expect(page.html).toMatch(/Gælder til \d{1,2}\. \w+ \d{4}/);
    for (const code of [own, credit.code]) expect(page.html).not.toContain(code);
    expect(page.html).not.toContain(`…${others.slice(-4)}`);
    // A shopper with none sees no such section.
    const empty = await signedIn("paid");
    expect((await empty.client.get("/account")).html).not.toContain("Tilgodebeviser og gavekort");
  });

  it("shows a refused return at its line in Danish: past the 14 days, yet a complaint still goes through", async () => {
    const { order, client } = await signedIn("delivered", { daysAgo: 30, quantities: [1] });
    await client.get(`/orders/${order.id}`);
    const line = order.items[0]!;
    const before = await prisma().returnRequest.count();
    const late = await client.post(`/orders/${order.id}/return`, { orderItemId: line.id, quantity: "1", kind: "withdrawal", reason: "Fortrudt" });
    expectHtmlPage(late, 422);
    expect(late.html).toContain("Fristen for at returnere er udløbet");
    expect(await prisma().returnRequest.count()).toBe(before);
    expectRedirect(await client.post(`/orders/${order.id}/return`, { orderItemId: line.id, quantity: "1", kind: "complaint", reason: "Hængslet knækkede" }), /notice=return-requested/);
  });

  it("offers an exchange for another variant of a line's product", async () => {
    const { order, client } = await signedIn("delivered", { daysAgo: 2, quantities: [1], variant: true });
    const page = await client.get(`/orders/${order.id}`);
    const line = order.items[0]!;
    const other = await prisma().productVariant.findFirstOrThrow({ where: { productId: line.productId, id: { not: line.variantId! }, stock: { gt: 0 } } });
    expect(page.html).toContain(`<option value="${other.id}">Byt til`);
    expectRedirect(await client.post(`/orders/${order.id}/return`, { orderItemId: line.id, quantity: "1", kind: "withdrawal", reason: "Forkert størrelse", exchangeVariantId: other.id }), /notice=return-requested/);
    expect(await prisma().returnRequest.findFirst({ where: { orderId: order.id } })).toMatchObject({ exchangeVariantId: other.id });
  });

  it("keeps an address book on the account page: add, refuse a wrong postal code at its form, edit, make default, delete", async () => {
    const { client, customer } = await signedIn("paid");
    const page = await client.get("/account");
    expect(page.html).toContain("Adressebog");
    expectRedirect(await client.post("/account/addresses", { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "københavn k", phone: "" }), "/account?notice=address-saved#addresses");
    const addresses = () => prisma().address.findMany({ where: { customerId: customer.id }, orderBy: { createdAt: "asc" } });
    expect(await addresses()).toMatchObject([{ address: "Strøget 12", city: "København K", isDefault: true }]);
    const wrong = await client.post("/account/addresses", { name: "Mette Hansen", address: "Vestergade 10", zip: "9999", city: "Odense C", phone: "" });
    expectHtmlPage(wrong, 422);
    expect(wrong.html).toContain("Postnummer og by passer ikke sammen");
    expect(wrong.html).toContain('value="Vestergade 10"');
    expect(await addresses()).toHaveLength(1);
    expectRedirect(await client.post("/account/addresses", { name: "Mette Hansen", address: "Vestergade 10", zip: "5000", city: "Odense C", phone: "" }), /address-saved/);
    const [first, second] = await addresses();
    const edit = await client.get(`/account?edit=${first!.id}`);
    expect(edit.html).toContain(`value="${first!.id}"`);
    expectRedirect(await client.post("/account/addresses", { id: first!.id, name: "Mette H.", address: "Strøget 14", zip: "1160", city: "København K", phone: "+45 12 34 56 78" }), /address-saved/);
    expectRedirect(await client.post(`/account/addresses/${second!.id}/default`, {}), /address-default/);
    expect((await addresses()).map((a) => [a.address, a.isDefault, a.phone])).toEqual([["Strøget 14", false, "+45 12 34 56 78"], ["Vestergade 10", true, null]]);
    expectRedirect(await client.post(`/account/addresses/${first!.id}/delete`, {}), /address-deleted/);
    expect((await addresses()).map((a) => a.address)).toEqual(["Vestergade 10"]);
    const other = await signedIn("paid");
    await other.client.get("/account");
    expectHtmlPage(await other.client.post(`/account/addresses/${second!.id}/delete`, {}), 404);
    expect(await addresses()).toHaveLength(1);
  });
});

describe("signed-in checkout", () => {
  it("fills in the session customer's e-mail, also before any address is known; a guest gets an empty field", async () => {
    const customer = await createCustomer(server, { email: `kasse-${++n}@example.dk`, name: "Mette Hansen" });
    const client = new WebClient(server);
    const [name, value] = (await sessionFor(server, customer.id)).split("=");
    client.cookies.set(name!, value!);
    const [product] = await plainProducts(server, 5);
    await client.get(`/products/${product!.slug}`);
    expectRedirect(await client.post("/cart/add", { productSlug: product!.slug, quantity: "1" }), "/cart?notice=added");
    const page = await client.get("/checkout");
    expectHtmlPage(page);
    expect(page.html).toMatch(new RegExp(`name="email"[^>]*value="${customer.email}"|value="${customer.email}"[^>]*name="email"`));

    const guest = new WebClient(server);
    await guest.get(`/products/${product!.slug}`);
    expectRedirect(await guest.post("/cart/add", { productSlug: product!.slug, quantity: "1" }), "/cart?notice=added");
    const guestPage = await guest.get("/checkout");
    expectHtmlPage(guestPage);
    expect(guestPage.html).not.toContain(customer.email);
  });
});

/** A new browser that puts one product in the cart and checks out as a guest; the order and its payment page. */
async function guestCheckout(email: string, address = { address: "Strøget 12", zip: "1160", city: "københavn k" }) {
  const client = new WebClient(server);
  const [product] = await plainProducts(server, 5);
  await client.get(`/products/${product!.slug}`);
  expectRedirect(await client.post("/cart/add", { productSlug: product!.slug, quantity: "1" }), "/cart?notice=added");
  await client.get("/checkout");
  const pay = expectRedirect(await client.post("/checkout", { name: "Mette Hansen", email, phone: "", ...address }), /^\/orders\/[\w-]+\/pay\?token=[\w-]+$/);
  const order = await prisma().order.findUniqueOrThrow({ where: { id: /^\/orders\/([\w-]+)\/pay/.exec(pay)![1]! } });
  return { client, order, pay };
}

/** Signs a browser in with the code e-mailed to `email` (the "Log ind" form on /account). */
async function signInByCode(client: WebClient, mail: ReturnType<typeof captureMail>, email: string) {
  const before = mail.sent.length;
  await client.get("/account");
  expectHtmlPage(await client.post("/account/login", { email }));
  await expect.poll(() => mail.sent.slice(before).find((message) => message.to === email && /login-kode/.test(message.subject))).toBeDefined();
  const code = /(\d{6})/.exec(mail.sent.slice(before).find((message) => message.to === email && /login-kode/.test(message.subject))!.subject)![1]!;
  expectRedirect(await client.post("/account/verify", { email, code }), "/account?notice=logged-in");
}

describe("a guest checkout", () => {
  it("keeps the order it placed in reach of this browser, with its payment page and forms, and signs it in to nobody", async () => {
    const email = `ny-gaest-${++n}@example.dk`;
    const { client, order, pay } = await guestCheckout(email);
    const payment = await client.get(pay);
    expectHtmlPage(payment);
    expect(payment.html).toContain("Betal med bankoverførsel");
    const page = await client.get(`/orders/${order.id}`);
    expectHtmlPage(page);
    expect(page.html).toContain(`#${order.number}`);
    expect(page.html).toContain("Strøget 12");
    expect(page.html).toMatch(/href="\/orders\/[\w-]+\/pay\?token=[\w-]+">Betal nu</);
    expect(page.html).toContain(`action="/orders/${order.id}/cancel"`);
    expectRedirect(await client.get(`/orders/number/${order.number}`), `/orders/${order.id}`);

    // "Mine ordrer" asks for the code and shows neither the order nor the customer.
    const account = await client.get("/account");
    expectHtmlPage(account);
    expect(account.html).toContain('action="/account/login"');
    expect(account.html).toContain("Handlet uden konto?");
    expect(account.html).not.toContain(order.id);
    expect(account.html).not.toContain("Log ud");
    const cookie = client.cookie;
    const session = (await (await fetch(`${server.url}/api/v1/session`, { method: "POST", headers: { cookie } })).json()) as { result: { sessionId: string; customer: unknown } };
    expect(session.result).toMatchObject({ sessionId: sessionIdOf(cookie), customer: null });
    expect(await prisma().storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).toMatchObject({ customerId: null });
    for (const [name, input] of [["user.list_orders", {}], ["customer.list_addresses", {}]] as const) {
      expectProblem(await server.call(name, input, { cookie }), 422, "no_customer");
    }

    // Its own order: read over REST and cancelled through the page.
    expect(expectOk<{ status: string }>(server, "user.get_order_status", await server.call("user.get_order_status", { orderId: order.id }, { cookie }))).toMatchObject({ status: "pending_payment" });
    expect(expectOk<{ id: string }>(server, "orders.get", await server.call("orders.get", { orderId: order.id }, { cookie }))).toMatchObject({ id: order.id });
    expectRedirect(await client.post(`/orders/${order.id}/cancel`, { reason: "regret" }), `/orders/${order.id}?notice=order-cancelled`);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("cancelled");
  });

  it("keeps the owner's later order, placed and proven in another browser, out of the first browser's reach", async () => {
    const mail = captureMail(server);
    const email = `ejer-${++n}@example.dk`;
    const first = await guestCheckout(email);
    const owner = await guestCheckout(email, { address: "Vestergade 10", zip: "5000", city: "odense c" });
    await signInByCode(owner.client, mail, email);
    // The code signs the owner in: both orders of the e-mail are on the owner's account.
    const ownerAccount = await owner.client.get("/account");
    expect(ownerAccount.html).toContain(`href="/orders/${owner.order.id}"`);
    expect(ownerAccount.html).toContain(`href="/orders/${first.order.id}"`);

    const { client } = first;
    const target = owner.order;
    const item = await prisma().orderItem.findFirstOrThrow({ where: { orderId: target.id } });
    const before = await orderState(server, target.id);
    const page = await client.get(`/orders/${target.id}`);
    expectHtmlPage(page);
    expect(page.html).toContain("Log ind med din e-mail");
    expect(page.html).not.toContain("Vestergade 10");
    expect(page.html).not.toContain(`#${target.number}`);
    expect((await client.get(`/orders/number/${target.number}`)).html).toContain("Log ind med din e-mail");
    expect((await client.get("/account")).html).not.toContain(target.id);
    await client.get(`/orders/${first.order.id}`);
    for (const [path, fields] of [
      ["cancel", { reason: "regret" }],
      ["address", { name: "Tyv", address: "Nørregade 1", zip: "1165", city: "København K" }],
      ["return", { orderItemId: item.id, quantity: "1", kind: "withdrawal", reason: "x" }],
    ] as const) {
      const refused = await client.post(`/orders/${target.id}/${path}`, fields);
      expectHtmlPage(refused, 422);
      expect(refused.html).not.toContain("Vestergade 10");
    }

    // The same cookie over REST and MCP: every shopper tool refuses the order (422 no_customer: not signed in).
    const cookie = client.cookie;
    const calls: Array<[string, Record<string, unknown>]> = [
      ["orders.get", { orderId: target.id }],
      ["orders.get_number", { orderId: target.id }],
      ["orders.get_by_number", { number: target.number }],
      ["orders.payments", { orderId: target.id }],
      ["orders.item_options", { orderId: target.id }],
      ["orders.get_delivery", { orderId: target.id }],
      ["orders.cancel", { orderId: target.id, reason: "Fortrudt" }],
      ["orders.change_address", { orderId: target.id, name: "Tyv", address: "Nørregade 1", zip: "1165", city: "København K" }],
      ["returns.list", { orderId: target.id }],
      ["returns.request", { orderId: target.id, items: [{ orderItemId: item.id, quantity: 1 }], kind: "withdrawal", reason: "Fortrudt" }],
      ["user.get_order_status", { orderId: target.id }],
    ];
    for (const [name, input] of calls) expectProblem(await server.call(name, input, { cookie }), 422, "no_customer");
    for (const [name, input] of calls.filter(([tool]) => tool === "orders.get" || tool === "orders.cancel")) {
      expect((await mcpCall(server, name, input, { headers: { cookie } })).body).toMatchObject({ ok: false, status: 422, code: "no_customer" });
    }
    expect(await orderState(server, target.id)).toEqual(before);
  });
});
