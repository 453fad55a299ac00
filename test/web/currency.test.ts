// A shop in US dollars without VAT, set through settings.update_commerce: its product page, cart, checkout, payment
// page (the shopper's receipt), order e-mail and admin pages show dollar amounts, and nowhere a VAT ("moms") line.
import { beforeAll, describe, expect, it } from "vitest";
import { escapeHtml, formatMoney } from "../../src/web/html.ts";
import { AdminClient, staffUser } from "../support/admin.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";
import { ADDRESS, plainProducts, type DemoProduct } from "../support/session.ts";
import { captureMail } from "../tools/orders/fixtures.ts";
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";

const { server, keys: { owner } } = useServer({ keys: { owner: ["settings:write"] } });
const usd = (minor: number | bigint) => escapeHtml(formatMoney(minor, "USD"));

let product: DemoProduct;
beforeAll(async () => {
  // The demo shop has orders, whose amounts would be re-denominated: the currency changes only in a shop without any.
  await server.prisma.order.deleteMany();
  const result = await server.call("settings.update_commerce", { currency: "USD", pricesIncludeVat: false }, { key: owner });
  expect(expectOk(server, "settings.update_commerce", result)).toMatchObject({ currency: "USD", pricesIncludeVat: false });
  product = (await plainProducts(server, 3))[0]!;
});

/** No VAT line or note anywhere on the page (the Danish word is "moms"). */
const expectNoVat = (html: string) => expect(html.toLowerCase()).not.toContain("moms");

describe("a shop in USD without VAT", () => {
  it("formats one amount in dollars the Danish way", () => {
    expect(formatMoney(123450, "USD")).toBe("1.234,50 US$");
    expect(formatMoney(123450, "DKK")).toBe("1.234,50 kr.");
    expect(formatMoney(49900, "USD", { whole: true })).toBe("499 US$");
  });

  it("shows the product page, the cart and the checkout in dollars without VAT", async () => {
    const page = await new WebClient(server).get(`/products/${product.slug}`);
    expectHtmlPage(page);
    expect(page.html).toContain(`<span class="price">${usd(product.priceDkk)}</span>`);
    expect(page.html).toContain('<meta property="product:price:currency" content="USD">');
    expect(page.html).toContain('"priceCurrency":"USD"');
    expect(page.html).toContain("Alle priser er i USD.");
    expect(page.html).not.toContain(" kr.");
    expectNoVat(page.html);
    const search = await new WebClient(server).get(`/search?q=${encodeURIComponent(product.name)}`);
    expect(search.html).toContain(usd(product.priceDkk));
    expect(search.html).toContain("<legend>Pris i USD</legend>");
    expectNoVat(search.html);

    const client = new WebClient(server);
    expectRedirect(await client.post("/cart/add", { productSlug: product.slug, quantity: "2" }), "/cart?notice=added");
    const cart = await client.get("/cart");
    expectHtmlPage(cart);
    expect(cart.html).toContain(usd(product.priceDkk * 2));
    expect(cart.html).not.toContain('class="vat"');
    expectNoVat(cart.html);
    const checkout = await client.get("/checkout");
    expect(checkout.html).toContain('data-currency="USD"');
    expect(checkout.html).toContain('data-vat="0"');
    expectNoVat(checkout.html);
  });

  it("places an order in USD whose payment page and e-mail show dollars and no VAT line", async () => {
    const mail = captureMail(server);
    const client = new WebClient(server);
    expectRedirect(await client.post("/cart/add", { productSlug: product.slug, quantity: "1" }), "/cart?notice=added");
    expectHtmlPage(await client.get("/checkout"));
    const location = expectRedirect(await client.post("/checkout", ADDRESS), /^\/orders\/[\w-]+\/pay\?token=[\w-]+$/);
    const orderId = /^\/orders\/([\w-]+)\/pay/.exec(location)![1]!;
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order).toMatchObject({ currency: "USD", vatOere: null });

    const pay = await client.get(location);
    expectHtmlPage(pay);
    expect(pay.html).toContain(`<td class="num price">${usd(order.totalDkk)}</td>`);
    expect(pay.html).toContain(`Overfør <strong>${usd(order.totalDkk)}</strong>`);
    expectNoVat(pay.html);

    const toShopper = () => mail.sent.find((sent) => sent.to.toLowerCase() === ADDRESS.email.toLowerCase());
    await expect.poll(toShopper).toBeDefined();
    const message = toShopper()!;
    expect(message.text).toContain(`I alt: ${formatMoney(order.totalDkk, "USD")}`);
    expect(message.text).toContain(`Beløb: ${formatMoney(order.totalDkk, "USD")}`);
    expect(message.text).not.toContain(" kr.");
    expectNoVat(message.text);
    expectNoVat(message.html ?? "");

    await staffUser(server, "ejer@example.dk");
    const admin = new AdminClient(server);
    await admin.signIn("ejer@example.dk");
    const adminOrder = await admin.get(`/admin/orders/${orderId}`);
    expect(adminOrder.status).toBe(200);
    expect(adminOrder.html).toContain(usd(order.totalDkk));
    expect(adminOrder.html).not.toContain("Heraf moms");
    const adminProduct = await admin.get(`/admin/products/${product.slug}`);
    expect(adminProduct.html).toContain(usd(product.priceDkk));
    expect(adminProduct.html).toContain(">Pris i USD<");
    expect((await admin.get("/admin/settings")).html).toContain(">Fragt i USD<");
  });
});
