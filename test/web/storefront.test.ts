// The storefront pages over real HTTP: markup from the tools, escaping, headers, the session cookie, and every form
// working without JavaScript (POST + 303), with CSRF, same-origin and ownership denials tested as carefully.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml, formatMoney } from "../../src/web/html.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";
import { plainProducts, variantProduct, type DemoProduct } from "../support/session.ts";
import { startSmtp, type SmtpCapture } from "../support/smtp-capture.ts";
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";

let smtp: SmtpCapture;
let products: DemoProduct[];
beforeAll(async () => {
  smtp = await startSmtp();
});
const { server } = useServer({ config: () => ({ smtpUrl: smtp.url }) });
beforeAll(async () => {
  products = await plainProducts(server, 10);
});
afterAll(async () => {
  await smtp.close();
});

const ADDRESS = { name: "Mette Hansen", email: "mette.web@example.dk", phone: "+45 12 34 56 78", address: "Strøget 12", zip: "1160", city: "københavn k" };

async function shopperWithCart(quantity = 2): Promise<{ client: WebClient; product: DemoProduct }> {
  const client = new WebClient(server);
  const product = products[3]!;
  await client.get(`/products/${product.slug}`);
  expectRedirect(await client.post("/cart/add", { productSlug: product.slug, quantity: String(quantity) }), "/cart?notice=added");
  // As a browser does: follow the redirect, whose page carries forms with tokens of the session just started.
  await client.get("/cart?notice=added");
  return { client, product };
}

describe("GET /", () => {
  it("shows the shop name and tagline from settings, featured products, categories and a search form, and starts the session", async () => {
    const client = new WebClient(server);
    const page = await client.get("/");
    expectHtmlPage(page);
    const setCookie = page.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^shop_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(page.html).toContain("<title>Nordlys Optik – Briller og solbriller med nordisk lys</title>");
    expect(page.html).toContain("Briller og solbriller med nordisk lys</h1>");
    expect(page.html).toMatch(/<form class="hero-search" role="search" action="\/search" method="get">/);
    const featured = expectOk<Array<{ slug: string; name: string; priceDkk: number }>>(server, "products.search", await server.call("products.search", { featured: true, inStock: true, limit: 8 }));
    expect(featured.length).toBeGreaterThan(0);
    for (const product of featured) {
      expect(page.html).toContain(`href="/products/${product.slug}"`);
      expect(page.html).toContain(escapeHtml(formatMoney(product.priceDkk, "DKK")));
    }
    expect(page.html).toContain('href="/categories/solbriller"');
    expect(page.html).toContain('<link rel="canonical" href="http://localhost:3000/">');
    expect(page.html).toContain('<meta property="og:title" content="Nordlys Optik">');
    expect(page.html).toContain('<meta property="og:url" content="http://localhost:3000/">');
    expect(page.html).toMatch(/<button class="utility-link chat-toggle" type="button" data-chat-toggle [^>]*hidden>/);
    const again = await client.get("/");
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(await server.prisma.storefrontSession.count({ where: { id: client.cookies.get("shop_session")!.split(".")[0] } })).toBe(1);
  });

  it("renders the shop name from settings, escaped", async () => {
    const key = await server.key("settings:write");
    expectOk(server, "settings.update_branding", await server.call("settings.update_branding", { tagline: `<script>alert("t")</script>` }, { key }));
    try {
      let html = "";
      for (let attempt = 0; attempt < 40 && !html.includes("&lt;script&gt;"); attempt++) {
        html = (await new WebClient(server).get("/")).html;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(html).toContain("&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;");
      expect(html).not.toContain('<script>alert("t")');
    } finally {
      await server.call("settings.update_branding", { tagline: "Briller og solbriller med nordisk lys" }, { key });
    }
  });
});

describe("GET /search", () => {
  it("finds products by words, with the query kept in the form", async () => {
    const page = await new WebClient(server).get("/search?q=aviator");
    expectHtmlPage(page);
    const found = expectOk<Array<{ slug: string }>>(server, "products.search", await server.call("products.search", { q: "aviator", limit: 24 }));
    expect(found.length).toBeGreaterThan(0);
    for (const product of found) expect(page.html).toContain(`href="/products/${product.slug}"`);
    expect(page.html).toContain('name="q" type="search" value="aviator"');
    expect(page.html).toContain('<meta name="robots" content="noindex">');
  });

  it("filters by category, brand, price and stock, pages through results and says when nothing matches", async () => {
    const client = new WebClient(server);
    const page1 = await client.get("/search");
    expect(page1.html.match(/class="product-card"/g)).toHaveLength(24);
    expect(page1.html).toContain('rel="next" href="/search?page=2"');
    const last = await client.get("/search?page=4");
    expect(last.html).toContain('rel="prev" href="/search?page=3"');
    expect(last.html).not.toContain('rel="next"');
    const filtered = await client.get("/search?category=solbriller&minPrice=1000&maxPrice=2000&inStock=1");
    const expected = expectOk<Array<{ slug: string }>>(server, "products.search", await server.call("products.search", { categorySlug: "solbriller", minPriceOere: 100000, maxPriceOere: 200000, inStock: true, limit: 25 }));
    expect(filtered.html.match(/class="product-card"/g) ?? []).toHaveLength(expected.length);
    expect(filtered.html).toContain('<option value="solbriller" selected>');
    const none = await client.get("/search?q=zzzz-findes-ikke");
    expectHtmlPage(none);
    expect(none.html).toContain("Ingen varer passer til søgningen");
  });

  it("answers 400 for malformed parameters", async () => {
    const client = new WebClient(server);
    for (const query of ["minPrice=abc", "maxPrice=-5", "page=0", "page=99999", "category=%3Cscript%3E", `q=${"x".repeat(201)}`]) {
      const page = await client.get(`/search?${query}`);
      expectHtmlPage(page, 400);
      expect(page.html).toContain("Ugyldig forespørgsel");
    }
  });

  it("escapes the query everywhere it is shown", async () => {
    const page = await new WebClient(server).get(`/search?q=${encodeURIComponent(`"><script>alert(1)</script>`)}`);
    expectHtmlPage(page);
    expect(page.html).not.toContain("<script>alert(1)");
    expect(page.html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("GET /categories/<slug>", () => {
  it("lists the category's products only, and answers 404 for an unknown category", async () => {
    const client = new WebClient(server);
    const page = await client.get("/categories/solbriller");
    expectHtmlPage(page);
    expect(page.html).toContain("<h1>Solbriller</h1>");
    const inCategory = expectOk<Array<{ slug: string }>>(server, "products.search", await server.call("products.search", { categorySlug: "solbriller", limit: 24 }));
    for (const product of inCategory) expect(page.html).toContain(`href="/products/${product.slug}"`);
    const other = expectOk<Array<{ slug: string }>>(server, "products.search", await server.call("products.search", { categorySlug: "briller", limit: 5 }));
    for (const product of other) expect(page.html).not.toContain(`href="/products/${product.slug}"`);
    expectHtmlPage(await client.get("/categories/findes-ikke"), 404);
    expectHtmlPage(await client.get("/categories/%00"), 404);
  });
});

describe("GET /products/<slug>", () => {
  it("shows price in kroner, stock, answers, an add-to-cart form, canonical, Open Graph and schema.org JSON-LD", async () => {
    const withAnswers = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, answerSummary: { not: null }, giftCard: false, variants: { none: {} }, stock: { gt: 5 } }, orderBy: { slug: "asc" } });
    const page = await new WebClient(server).get(`/products/${withAnswers.slug}`);
    expectHtmlPage(page);
    expect(page.html).toContain(`<h1>${escapeHtml(withAnswers.name)}</h1>`);
    expect(page.html).toContain(escapeHtml(formatMoney(Number(withAnswers.priceDkk), "DKK")));
    expect(page.html).toContain("På lager");
    expect(page.html).toContain(escapeHtml(withAnswers.answerSummary!));
    const faq = withAnswers.faq as Array<{ q: string }>;
    expect(page.html).toContain(`<summary>${escapeHtml(faq[0]!.q)}</summary>`);
    // The demo pictures are paths on the shop; link previews and search engines get whole URLs.
    const images = await server.prisma.productImage.findMany({ where: { productId: withAnswers.id }, orderBy: { position: "asc" } });
    expect(images[0]!.url).toMatch(/^\/demo-images\//);
    expect(page.html).toContain(`<meta property="og:image" content="http://localhost:3000${images[0]!.url}">`);
    expect(page.html).toContain(`<link rel="canonical" href="http://localhost:3000/products/${withAnswers.slug}">`);
    expect(page.html).toContain('<meta property="og:type" content="product">');
    expect(page.html).toMatch(/<form class="buy-form" action="\/cart\/add" method="post">\n<input type="hidden" name="_csrf" value="[\w.-]+">/);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page.html)![1]!);
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Product",
      name: withAnswers.name,
      image: images.map((image) => `http://localhost:3000${image.url}`),
      offers: { "@type": "Offer", price: (Number(withAnswers.priceDkk) / 100).toFixed(2), priceCurrency: "DKK", availability: "https://schema.org/InStock" },
    });
  });

  it("offers the variants, sold-out ones disabled, with an Offer each", async () => {
    const product = await variantProduct(server);
    const page = await new WebClient(server).get(`/products/${product.slug}`);
    expectHtmlPage(page);
    for (const variant of product.variants) {
      const input = new RegExp(`<input type="radio" id="v-${variant.sku}" name="variantSku" value="${variant.sku}" required${variant.stock === 0n ? " disabled" : ""}`);
      expect(page.html).toMatch(input);
    }
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page.html)![1]!) as { offers: Array<{ sku: string }> };
    expect(ld.offers.map((offer) => offer.sku)).toEqual(product.variants.map((variant) => variant.sku));
  });

  it("answers the 404 page for deleted, unknown and malformed slugs", async () => {
    const deleted = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: { not: null } } });
    const client = new WebClient(server);
    for (const path of [`/products/${deleted.slug}`, "/products/findes-ikke", "/products/%3Cscript%3E", "/products/%00"]) {
      const page = await client.get(path);
      expectHtmlPage(page, 404);
      expect(page.html).toContain("Siden findes ikke");
    }
  });

  it("escapes product data in the page and in the JSON-LD", async () => {
    const key = await server.key("products:write");
    const evil = `Ond </script><script>alert(1)</script> "brille"`;
    expectOk(server, "products.create", await server.call("products.create", { name: evil, slug: "ond-brille", description: "<img src=x onerror=alert(2)> beskrivelse", priceDkk: 10000, stock: 3, brand: "<b>Mærke</b>", categorySlug: "briller" }, { key }));
    const page = await new WebClient(server).get("/products/ond-brille");
    expectHtmlPage(page);
    expect(page.html).not.toMatch(/<script>alert|<img src=x|<b>Mærke/);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page.html)![1]!;
    expect(ld).not.toContain("<");
    expect(JSON.parse(ld).name).toBe(evil);
  });
});

describe("cart forms without JavaScript", () => {
  it("adds to the cart with POST + 303, shows the lines and changes quantities", async () => {
    const { client, product } = await shopperWithCart(2);
    const cart = await client.get("/cart?notice=added");
    expectHtmlPage(cart);
    expect(cart.html).toContain("Varen er lagt i kurven.");
    expect(cart.html).toContain(escapeHtml(product.name));
    expect(cart.html).toContain(escapeHtml(formatMoney(product.priceDkk * 2, "DKK")));
    expect(cart.html).toMatch(/<span class="badge" data-cart-count="2" data-session>2<\/span>/);
    // Without Stripe the shop takes bank transfers only, and says so (never "eller kort").
    expect(cart.html).toContain("Sikker betaling · Bankoverførsel</p>");
    const lineId = /name="lineId" value="([^"]+)"/.exec(cart.html)![1]!;
    expectRedirect(await client.post("/cart/update", { lineId, quantity: "3" }), "/cart?notice=updated");
    expect((await client.get("/cart")).html).toContain(escapeHtml(formatMoney(product.priceDkk * 3, "DKK")));
    expectRedirect(await client.post("/cart/remove", { lineId }), "/cart?notice=removed");
    expect((await client.get("/cart")).html).toContain("Din kurv er tom");
  });

  it("sends refusals back to the product page as a Danish notice, changing nothing", async () => {
    const client = new WebClient(server);
    const product = products[0]!;
    await client.get(`/products/${product.slug}`);
    expectRedirect(await client.post("/cart/add", { productSlug: product.slug, quantity: String(product.stock + 1) }), `/products/${product.slug}?error=insufficient_stock`);
    const page = await client.get(`/products/${product.slug}?error=insufficient_stock`);
    expect(page.html).toContain("Der er desværre ikke så mange på lager.");
    const variant = await variantProduct(server);
    expectRedirect(await client.post("/cart/add", { productSlug: variant.slug, quantity: "1" }), `/products/${variant.slug}?error=variant_required`);
    expectRedirect(await client.post("/cart/add", { productSlug: product.slug, quantity: "x" }), `/products/${product.slug}?error=invalid_input`);
    expect((await client.get("/cart")).html).toContain("Din kurv er tom");
  });

  it("applies a discount code and explains codes that do not apply", async () => {
    const { client, product } = await shopperWithCart(2);
    expectRedirect(await client.post("/cart/discount", { code: "udlobet" }), "/cart?discount=expired");
    expect((await client.get("/cart?discount=expired")).html).toContain("Rabatkoden er udløbet.");
    expectRedirect(await client.post("/cart/discount", { code: "findes-ikke" }), "/cart?discount=unknown");
    expectRedirect(await client.post("/cart/discount", { code: "velkommen10" }), "/cart?notice=discount");
    const cart = await client.get("/cart");
    expect(cart.html).toContain('<span class="tag">VELKOMMEN10</span>');
    expect(cart.html).toContain(`−${escapeHtml(formatMoney(Math.round(product.priceDkk * 2 * 0.1), "DKK"))}`);
  });

  it("refuses a post without a valid CSRF token, with another session's token, or from another site", async () => {
    const { client } = await shopperWithCart(1);
    const lineId = /name="lineId" value="([^"]+)"/.exec((await client.get("/cart")).html)![1]!;
    const stranger = new WebClient(server);
    await stranger.get("/");
    await stranger.get(`/products/${products[1]!.slug}`);
    const attempts = [
      () => client.post("/cart/update", { lineId, quantity: "9", _csrf: "" }),
      () => client.post("/cart/update", { lineId, quantity: "9", _csrf: "forged.token" }),
      () => client.post("/cart/update", { lineId, quantity: "9", _csrf: stranger.token }),
      () => client.post("/cart/update", { lineId, quantity: "9" }, { origin: "https://evil.example" }),
      () => client.post("/cart/update", { lineId, quantity: "9" }, { "sec-fetch-site": "cross-site" }),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expectHtmlPage(response, 403);
      expect(response.html).toContain("Det er ikke tilladt");
    }
    expect((await client.get("/cart")).html).toMatch(/name="quantity" type="number" inputmode="numeric" min="0" max="100" value="1"/);
    // A cross-site post without any session is refused too: it cannot plant a cart on a visitor.
    const anonymous = await fetch(`${server.url}/cart/add`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, body: `productSlug=${products[0]!.slug}`, redirect: "manual" });
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers.get("set-cookie")).toBeNull();
  });
});

describe("checkout", () => {
  it("takes the address, places the order (channel web) and ends on the payment page in the layout", async () => {
    const { client, product } = await shopperWithCart(2);
    const checkout = await client.get("/checkout");
    expectHtmlPage(checkout);
    expect(checkout.html).toContain('data-postal-code="f-city"');
    expect(checkout.html).toMatch(/<script type="module" src="\/assets\/checkout\.[0-9a-f]{12}\.js">/);
    const location = expectRedirect(await client.post("/checkout", ADDRESS), /^\/orders\/[\w-]+\/pay\?token=[\w-]+$/);
    const orderId = /^\/orders\/([\w-]+)\/pay/.exec(location)![1]!;
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    expect(order).toMatchObject({ status: "pending_payment", channel: "web", isAiGenerated: false, email: ADDRESS.email, shippingCity: "København K", shippingZip: "1160" });
    expect(order.items).toMatchObject([{ productId: product.id, quantity: 2 }]);
    const pay = await client.get(location);
    expectHtmlPage(pay);
    expect(pay.headers.get("referrer-policy")).toBe("no-referrer");
    expect(pay.html).toContain("Betal med bankoverførsel");
    expect(pay.html).toContain(`Ordrenummer <strong class="order-ref">#${order.number}</strong>`);
    expect(pay.html).toContain(`skriv ordrenummeret <strong class="order-ref">${order.number}</strong> som reference`);
    expect(pay.html).toContain(`<title>Betaling – ordre #${order.number}`);
    expect(pay.html).toContain(escapeHtml(formatMoney(Number(order.totalDkk), "DKK")));
    expect(pay.html).toContain('class="site-header"');
    expect((await client.get("/cart")).html).toContain("Din kurv er tom");
  });

  it("shows field errors for a bad address and orders nothing", async () => {
    const { client } = await shopperWithCart(1);
    const before = await server.prisma.order.count();
    const badZip = await client.post("/checkout", { ...ADDRESS, zip: "12a4" });
    expectHtmlPage(badZip, 400);
    expect(badZip.html).toContain("Et dansk postnummer har 4 cifre.");
    expect(badZip.html).toContain('value="Strøget 12"');
    const unknownZip = await client.post("/checkout", { ...ADDRESS, zip: "0000" });
    expectHtmlPage(unknownZip, 422);
    expect(unknownZip.html).toContain("Postnummeret findes ikke, eller byen passer ikke til det.");
    const wrongCity = await client.post("/checkout", { ...ADDRESS, city: "Aarhus C" });
    expectHtmlPage(wrongCity, 422);
    expect(wrongCity.html).toContain("Postnummeret findes ikke, eller byen passer ikke til det.");
    const badEmail = await client.post("/checkout", { ...ADDRESS, email: "ikke-en-mail" });
    expectHtmlPage(badEmail, 400);
    expect(badEmail.html).toContain("Skriv en gyldig e-mailadresse.");
    expect(badEmail.html).toContain('aria-invalid="true"');
    expect(await server.prisma.order.count()).toBe(before);
  });

  it("takes a gift card code in a plain form field: the card pays part, the payment page shows what is left", async () => {
    const { client } = await shopperWithCart(1);
    const key = await server.key("giftcards:write");
    const code = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 2000 }, { key })).code;
    const checkout = await client.get("/checkout");
    expect(checkout.html).toMatch(/<label for="f-giftCardCode">Gavekort eller tilgodebevis/);
    const location = expectRedirect(await client.post("/checkout", { ...ADDRESS, giftCardCode: code.toLowerCase() }), /^\/orders\/[\w-]+\/pay\?token=[\w-]+$/);
    const orderId = /^\/orders\/([\w-]+)\/pay/.exec(location)![1]!;
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    const rest = escapeHtml(formatMoney(Number(order.totalDkk) - 2000, "DKK"));
    const pay = await client.get(location);
    expectHtmlPage(pay);
    expect(pay.html).toContain(`Overfør <strong>${rest}</strong>`);
    expect(pay.html).toContain("Betalt med gavekort");
    expect(pay.html).toContain(`Tilbage at betale</th><td class="num price">${rest}`);
    expect((await server.prisma.giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk).toBe(0n);
  });

  it("shows why a gift card was refused next to its field, keeps the address and orders nothing", async () => {
    const { client } = await shopperWithCart(1);
    const before = await server.prisma.order.count();
    const unknown = await client.post("/checkout", { ...ADDRESS, giftCardCode: "AAAA-BBBB-CCCC-DDDD" });
    expectHtmlPage(unknown, 422);
    expect(unknown.html).toContain("Vi kender ikke den kode. Tjek den og prøv igen.");
    expect(unknown.html).toContain('value="AAAA-BBBB-CCCC-DDDD"');
    expect(unknown.html).toContain('value="Strøget 12"');
    const short = await client.post("/checkout", { ...ADDRESS, giftCardCode: "ABC" });
    expectHtmlPage(short, 400);
    expect(short.html).toContain("Skriv koden, som den står på gavekortet (16 tegn).");
    const key = await server.key("giftcards:write");
    const empty = expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 100 }, { key })).code;
    await server.prisma.giftCard.update({ where: { code: empty }, data: { balanceDkk: 0n } });
    const spent = await client.post("/checkout", { ...ADDRESS, giftCardCode: empty });
    expectHtmlPage(spent, 422);
    expect(spent.html).toContain("Der er ikke flere penge på gavekortet.");
    expect(await server.prisma.order.count()).toBe(before);
  });

  it("offers the delivery methods with price and estimate, and places a parcel-shop order with a billing address", async () => {
    const { client } = await shopperWithCart(1);
    const checkout = await client.get("/checkout");
    expectHtmlPage(checkout);
    const free = (await server.prisma.product.findUniqueOrThrow({ where: { id: products[3]!.id } })).priceDkk >= 49900n;
    expect(checkout.html).toMatch(/<input id="delivery-postnord-hjem" name="deliveryMethod" type="radio" value="postnord-hjem" data-shipping="\d+" checked>/);
    expect(checkout.html).toContain('<span class="delivery-name">GLS Pakkeshop</span>');
    expect(checkout.html).toContain(free ? "Gratis" : escapeHtml(formatMoney(3500, "DKK")));
    expect(checkout.html).toContain("Levering på 1–2 hverdage");
    expect(checkout.html).toMatch(/<select id="delivery-gls-pakkeshop-point" name="pickupPoint-gls-pakkeshop"><option value="gls-kbh-[\w-]+">/);
    expect(checkout.html).toContain('<label for="billing-different">Faktureringsadresse er en anden</label>');
    expect(checkout.html).toContain('<a href="/info/handelsbetingelser">handelsbetingelser</a>');
    const location = expectRedirect(
      await client.post("/checkout", {
        ...ADDRESS, email: "pakkeshop.web@example.dk", deliveryMethod: "gls-pakkeshop", "pickupPoint-gls-pakkeshop": "gls-aarhus-spar", "pickupPoint-postnord-pakkeshop": "pn-aarhus-foetex",
        billingDifferent: "1", "billing-name": "Firma ApS", "billing-address": "Vestergade 3", "billing-zip": "8000", "billing-city": "aarhus c",
      }),
      /^\/orders\/[\w-]+\/pay\?token=[\w-]+$/,
    );
    const orderId = /^\/orders\/([\w-]+)\/pay/.exec(location)![1]!;
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order).toMatchObject({ deliveryMethodId: "gls-pakkeshop", pickupPoint: { id: "gls-aarhus-spar" }, shippingDkk: free ? 0n : 3500n, billingName: "Firma ApS", billingCity: "Aarhus C" });
    const page = await client.get(`/orders/${orderId}`);
    expectHtmlPage(page);
    expect(page.html).toContain("Levering: <strong>GLS Pakkeshop</strong>");
    expect(page.html).toContain("Hentes i pakkeshop: Spar Trøjborg<br>Tordenskjoldsgade 20<br>8200 Aarhus N");
    expect(page.html).toContain("Faktureres til: Firma ApS, Vestergade 3, 8000 Aarhus C");
  });

  it("ignores the billing fields unless the box is ticked, and keeps the choice on a refusal", async () => {
    const { client } = await shopperWithCart(1);
    await client.get("/checkout");
    const before = await server.prisma.order.count();
    const otherCarrier = await client.post("/checkout", { ...ADDRESS, deliveryMethod: "postnord-pakkeshop", "pickupPoint-postnord-pakkeshop": "gls-aarhus-spar" });
    expectHtmlPage(otherCarrier, 422);
    expect(otherCarrier.html).toContain("Vælg en pakkeshop fra listen under leveringsmåden.");
    expect(otherCarrier.html).toMatch(/value="postnord-pakkeshop" data-shipping="\d+" checked>/);
    const badBilling = await client.post("/checkout", { ...ADDRESS, billingDifferent: "1", "billing-name": "Firma ApS", "billing-address": "Vestergade 3", "billing-zip": "80", "billing-city": "Aarhus C" });
    expectHtmlPage(badBilling, 400);
    expect(badBilling.html).toMatch(/id="f-billing-zip"[^>]*aria-invalid="true"/);
    expect(badBilling.html).toContain('id="billing-different" name="billingDifferent" type="checkbox" value="1" checked');
    const wrongCity = await client.post("/checkout", { ...ADDRESS, billingDifferent: "1", "billing-name": "Firma ApS", "billing-address": "Vestergade 3", "billing-zip": "8000", "billing-city": "Odense C" });
    expectHtmlPage(wrongCity, 422);
    expect(wrongCity.html).toMatch(/<p class="field-error" id="f-billing-zip-error">Postnummeret findes ikke/);
    expect(await server.prisma.order.count()).toBe(before);
    const location = expectRedirect(await client.post("/checkout", { ...ADDRESS, "billing-name": "Ikke brugt", "billing-zip": "80" }), /^\/orders\/[\w-]+\/pay/);
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: /^\/orders\/([\w-]+)\/pay/.exec(location)![1]! } });
    expect(order).toMatchObject({ billingName: null, deliveryMethodId: "postnord-hjem" });
  });

  it("sends an empty cart back to the cart page", async () => {
    const client = new WebClient(server);
    await client.get("/account");
    expectRedirect(await client.get("/checkout"), "/cart?notice=empty");
    expectRedirect(await client.post("/checkout", ADDRESS), "/cart?notice=empty");
  });
});

describe("GET /info/handelsbetingelser", () => {
  it("shows the terms saved in the policies (a demo text until then), linked from the footer", async () => {
    const page = await new WebClient(server).get("/info/handelsbetingelser");
    expectHtmlPage(page);
    expect(page.html).toContain("<h1>Handelsbetingelser</h1>");
    expect(page.html).toContain("<h2>Fortrydelsesret</h2>");
    expect(page.html).toContain('<li><a href="/info/handelsbetingelser">Handelsbetingelser</a></li>');
    const key = await server.key("settings:write");
    expectOk(server, "settings.update_policies", await server.call("settings.update_policies", { terms: "## Vilkår\n\nNye <betingelser> gælder." }, { key }));
    const saved = await new WebClient(server).get("/info/handelsbetingelser");
    expect(saved.html).toContain("<h2>Vilkår</h2>\n<p>Nye &lt;betingelser&gt; gælder.</p>");
    expect((await new WebClient(server).get("/info/ingen-side")).status).toBe(404);
  });
});

describe("orders and account", () => {
  it("shows the order this browser placed, asks anyone else to sign in, and lists it on the account once signed in by code", async () => {
    const { client } = await shopperWithCart(1);
    await client.get("/checkout");
    const location = expectRedirect(await client.post("/checkout", { ...ADDRESS, email: "ny.kunde@example.dk" }), /^\/orders\//);
    const orderId = /^\/orders\/([\w-]+)\//.exec(location)![1]!;
    const { number } = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    const own = await client.get(`/orders/${orderId}`);
    expectHtmlPage(own);
    expect(own.html).toContain("Afventer betaling");
    expect(own.html).toContain(`Ordrenummer <strong class="order-ref">#${number}</strong>`);
    expect(own.html, own.html.slice(own.html.indexOf("<main"), own.html.indexOf("</main>"))).toContain('aria-current="step">Bestilt');
    const stranger = new WebClient(server);
    await stranger.get("/");
    const prompt = await stranger.get(`/orders/${orderId}`);
    expectHtmlPage(prompt);
    expect(prompt.html).toContain("Log ind med din e-mail");
    expect(prompt.html).not.toContain("Afventer betaling");
    expect(prompt.html).not.toContain(`#${number}`);
    // A checkout signs nobody in: "Mine ordrer" asks for the code, and an unknown order is no different from another's.
    const guest = await client.get("/account");
    expect(guest.html).toContain('action="/account/login"');
    expect(guest.html).not.toContain(`/orders/${orderId}`);
    expect((await client.get("/orders/findes-ikke")).html).toContain("Log ind med din e-mail");
    await client.post("/account/login", { email: "ny.kunde@example.dk" });
    await server.runtime.background.idle();
    const mail = await smtp.waitFor((message) => message.to.includes("ny.kunde@example.dk") && message.raw.includes("Din login-kode"));
    const code = /Din login-kode: (\d{6})/.exec(mail.raw)![1]!;
    expectRedirect(await client.post("/account/verify", { email: "ny.kunde@example.dk", code }), "/account?notice=logged-in");
    expectHtmlPage(await client.get("/orders/findes-ikke"), 404);
    const account = await client.get("/account");
    expect(account.html).toContain(`href="/orders/${orderId}">Ordre <span class="order-ref">#${number}</span></a>`);
  });

  it("signs in with the e-mailed code, lists only the customer's orders, and signs out", async () => {
    const email = "web.login@example.dk";
    const prisma = server.prisma;
    const customer = await prisma.customer.create({ data: { email, name: "Web Login" } });
    const client = new WebClient(server);
    const login = await client.get("/account");
    expectHtmlPage(login);
    expect(login.html).toContain('action="/account/login"');
    const codeForm = await client.post("/account/login", { email: "Web.Login@example.dk" });
    expectHtmlPage(codeForm);
    expect(codeForm.html).toContain('action="/account/verify"');
    await server.runtime.background.idle();
    const mail = await smtp.waitFor((message) => message.to.includes(email));
    const code = /Din login-kode: (\d{6})/.exec(mail.raw)![1]!;
    const wrong = await client.post("/account/verify", { email, code: code === "000000" ? "111111" : "000000" });
    expectHtmlPage(wrong, 422);
    expect(wrong.html).toContain("Koden er forkert eller udløbet.");
    const planted = client.cookies.get("shop_session")!;
    // Someone who learnt the session cookie before sign-in (fixation) holds it in a second client.
    const intruder = new WebClient(server);
    intruder.cookies.set("shop_session", planted);
    expectRedirect(await client.post("/account/verify", { email, code }), "/account?notice=logged-in");
    expect(client.cookies.get("shop_session")).not.toBe(planted);
    const seen = await intruder.get("/account");
    expect(seen.html).toContain('action="/account/login"');
    expect(seen.html).not.toContain("<h2>Mine ordrer</h2>");
    expect(seen.html).not.toContain("Log ud");
    const account = await client.get("/account?notice=logged-in");
    expect(account.html).toContain("Du er logget ind.");
    expect(account.html).toContain("Ingen ordrer endnu");
    expect((await prisma.storefrontSession.findFirstOrThrow({ where: { customerId: customer.id } })).id).toBe(client.cookies.get("shop_session")!.split(".")[0]);
    expectRedirect(await client.post("/account/logout", {}), "/account?notice=logged-out");
    expect((await client.get("/account")).html).toContain('action="/account/login"');
  });

  it("rejects a malformed e-mail without sending anything", async () => {
    const client = new WebClient(server);
    await client.get("/account");
    const sent = smtp.messages.length;
    const page = await client.post("/account/login", { email: "ikke-en-mail" });
    expectHtmlPage(page, 400);
    expect(page.html).toContain("Skriv en gyldig e-mailadresse.");
    expect(smtp.messages.length).toBe(sent);
  });
});

describe("SEO", () => {
  it("serves robots.txt and a sitemap of the public pages", async () => {
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    const text = await robots.text();
    expect(text).toContain("Disallow: /checkout");
    expect(text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
    const sitemap = await fetch(`${server.url}/sitemap.xml`);
    expect(sitemap.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await sitemap.text();
    const visible = await server.prisma.product.findMany({ where: { deletedAt: null }, select: { slug: true } });
    for (const { slug } of visible) expect(xml).toContain(`<loc>http://localhost:3000/products/${slug}</loc>`);
    expect(xml).toContain("<loc>http://localhost:3000/categories/solbriller</loc>");
    expect(xml).toContain("<loc>http://localhost:3000/info/om-os</loc>");
    expect(xml).not.toContain("/info/vinterudsalg");
    expect(xml).not.toContain("/services/brilleservice");
  });
});
