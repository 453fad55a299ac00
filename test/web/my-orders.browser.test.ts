// "Mine ordrer" in headless Chromium, as a shopper uses it: a guest finds an order by its number and the e-mailed code
// and cancels it as store credit without JavaScript; a signed-in shopper moves an order to a new address and returns a
// line of a delivered order with JavaScript; the order page and the address book fit a phone; and after a guest
// checkout the browser sees its order while "Mine ordrer" asks for the code. Screenshots go to test-artifacts/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openPage, type BrowserPage } from "../support/browser.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { captureMail, createCustomer, createOrder, sessionFor } from "../tools/orders/fixtures.ts";
import { shippedOrder } from "../tools/returns/fixtures.ts";

describeBrowser("Mine ordrer in a browser", () => {
  const { server } = useServer();
  let browser: Browser;
  let n = 0;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const prisma = () => server.prisma;
  const customer = () => createCustomer(server, { email: `browser-ordrer-${++n}@example.dk`, name: "Mette Hansen" });

  /** A browser context already signed in as the customer (the cookie a verified code leaves). */
  async function signedInTab(customerId: string, options: Parameters<typeof openPage>[2] = {}): Promise<BrowserPage> {
    const tab = await openPage(browser, server.url, options);
    const [name, value] = (await sessionFor(server, customerId)).split("=");
    await tab.context.addCookies([{ name: name!, value: value!, url: server.url }]);
    return tab;
  }

  it("lets a guest find an order by number and code, and cancel it as store credit, without JavaScript", async () => {
    const mail = captureMail(server);
    const guest = await customer();
    const order = await createOrder(server, { status: "paid", email: guest.email, userId: guest.id });
    const { number } = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    const tab = await openPage(browser, server.url, { javaScript: false });
    try {
      await tab.page.goto("/account");
      await tab.page.getByLabel("Ordrenummer").fill(`#${number}`);
      await tab.page.locator("#f-order-email").fill(guest.email);
      await tab.screenshot("my-orders-find");
      await tab.page.getByRole("button", { name: "Find min ordre" }).click();
      await tab.page.getByRole("heading", { name: "Skriv koden" }).waitFor();
      await expect.poll(() => mail.sent.find((message) => message.to === guest.email)?.subject ?? "").toMatch(/\d{6}/);
      const code = /(\d{6})/.exec(mail.sent.find((message) => message.to === guest.email)!.subject)![1]!;
      await tab.page.getByLabel("Kode").fill(code);
      await tab.page.getByRole("button", { name: "Log ind" }).click();
      await tab.page.waitForURL(`**/orders/${order.id}`);
      expect(await tab.page.locator(".order-ref").textContent()).toBe(`#${number}`);
      await tab.screenshot("my-orders-paid");

      await tab.page.getByLabel("Hvorfor annullerer du?").selectOption("mistake");
      await tab.page.getByLabel("Tilgodebevis (et nyt gavekort på e-mail)").check();
      await tab.page.getByRole("button", { name: "Annuller ordren" }).click();
      await tab.page.waitForURL(/notice=order-cancelled/);
      expect(await tab.page.locator(".notice").first().textContent()).toContain("Ordren er annulleret.");
      expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "cancelled", cancelReason: "Bestilt ved en fejl" });
      await tab.screenshot("my-orders-cancelled");
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it("moves an order to a new address and returns a delivered line, with JavaScript", async () => {
    const shopper = await customer();
    const unshipped = await createOrder(server, { status: "processing", email: shopper.email, userId: shopper.id });
    const delivered = await shippedOrder(server, { deliveredDaysAgo: 3, email: shopper.email, userId: shopper.id, quantities: [1] });
    const tab = await signedInTab(shopper.id);
    try {
      await tab.page.goto(`/orders/${unshipped.id}`);
      await tab.page.getByLabel("Adresse", { exact: true }).fill("Vestergade 10");
      await tab.page.getByLabel("Postnummer").fill("5000");
      await tab.page.getByLabel("By", { exact: true }).fill("Odense C");
      await tab.page.getByRole("button", { name: "Gem ny adresse" }).click();
      await tab.page.waitForURL(/notice=address-changed/);
      expect(await tab.page.locator(".delivery-address").textContent()).toContain("5000 Odense C");

      await tab.page.goto(`/orders/${delivered.id}`);
      await tab.page.getByLabel("Beskriv kort").fill("Passede ikke");
      await tab.screenshot("my-orders-return-form");
      await tab.page.getByRole("button", { name: "Anmod om retur" }).click();
      await tab.page.waitForURL(/notice=return-requested/);
      expect(await tab.page.locator(".return-list").textContent()).toContain("Anmodet");
      await tab.screenshot("my-orders-returned");
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it("fits a 390 × 844 phone: the order page and the address book", async () => {
    const shopper = await customer();
    const order = await createOrder(server, { status: "paid", email: shopper.email, userId: shopper.id });
    await prisma().address.create({ data: { customerId: shopper.id, name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K", isDefault: true } });
    const tab = await signedInTab(shopper.id, { width: 390, height: 844, phone: true });
    try {
      for (const [address, name] of [[`/orders/${order.id}`, "my-orders-phone"], ["/account", "my-account-phone"]] as const) {
        await tab.page.goto(address);
        const overflow = await tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
        expect(overflow, address).toBeLessThanOrEqual(0);
        await tab.screenshot(name);
      }
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it("moves a parcel-shop order to another parcel shop and to home delivery, without JavaScript, on a desktop and a 390 × 844 phone", async () => {
    const shopper = await customer();
    const order = await createOrder(server, { status: "paid", email: shopper.email, userId: shopper.id, shippingDkk: 3900 });
    await prisma().order.update({ where: { id: order.id }, data: { deliveryMethodId: "postnord-pakkeshop", deliveryMethodName: "PostNord Pakkeshop", deliveryCarrier: "PostNord", pickupPoint: { id: "pn-aarhus-foetex", name: "Føtex Aarhus C", address: "Guldsmedgade 3", zip: "8000", city: "Aarhus C" } } });
    const tab = await signedInTab(shopper.id, { javaScript: false });
    try {
      await tab.page.goto(`/orders/${order.id}`);
      expect(await tab.page.locator(".pickup-point").first().textContent()).toContain("Føtex Aarhus C");
      await tab.page.locator("label[for=change-gls-pakkeshop]").click();
      await tab.page.locator("#change-gls-pakkeshop-point").selectOption("gls-aarhus-spar");
      await tab.screenshot("my-orders-delivery-choose");
      await tab.page.getByRole("button", { name: "Gem leveringsmåde" }).click();
      await tab.page.waitForURL(/notice=delivery-changed/);
      expect(await tab.page.locator(".delivery-address").textContent()).toContain("Hentes i pakkeshop: Spar Trøjborg");
      await tab.screenshot("my-orders-delivery-changed");
      await tab.page.locator("label[for=change-postnord-hjem]").click();
      await tab.page.getByRole("button", { name: "Gem leveringsmåde" }).click();
      await tab.page.waitForURL(/notice=delivery-changed/);
      expect(await tab.page.locator(".delivery-address").textContent()).toContain("PostNord Hjemmelevering");
      expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ deliveryMethodId: "postnord-hjem", pickupPoint: null });
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
    const phone = await signedInTab(shopper.id, { width: 390, height: 844, phone: true });
    try {
      await prisma().order.update({ where: { id: order.id }, data: { deliveryMethodId: "gls-pakkeshop", deliveryMethodName: "GLS Pakkeshop", deliveryCarrier: "GLS", pickupPoint: { id: "gls-aarhus-spar", name: "Spar Trøjborg", address: "Tordenskjoldsgade 20", zip: "8200", city: "Aarhus N" } } });
      await phone.page.goto(`/orders/${order.id}#delivery`);
      const overflow = await phone.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBeLessThanOrEqual(0);
      await phone.screenshot("my-orders-delivery-phone");
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it("shows a guest the order just placed, while Mine ordrer asks for the code, on a desktop and a 390 × 844 phone", async () => {
    const [product] = await plainProducts(server, 5);
    const tab = await openPage(browser, server.url);
    const phone = await openPage(browser, server.url, { width: 390, height: 844, phone: true });
    try {
      await tab.page.goto(`/products/${product!.slug}`);
      await tab.page.getByRole("button", { name: "Læg i kurv" }).click();
      await tab.page.waitForURL(/\/cart\?notice=added/);
      await tab.page.goto("/checkout");
      await tab.page.getByLabel("E-mail").fill(`browser-gaest-${++n}@example.dk`);
      await tab.page.getByLabel("Fulde navn").fill("Bente Browser");
      await tab.page.getByLabel("Adresse", { exact: true }).fill("Vestergade 3, 1. th");
      await tab.page.getByLabel("Postnummer", { exact: true }).fill("8000");
      await expect.poll(() => tab.page.getByLabel("By", { exact: true }).inputValue()).toBe("Aarhus C");
      await tab.page.getByRole("button", { name: /Bestil og gå til betaling/ }).click();
      await tab.page.waitForURL(/\/orders\/[\w-]+\/pay\?token=/);
      const orderId = /\/orders\/([\w-]+)\/pay/.exec(tab.page.url())![1]!;
      const { number } = await prisma().order.findUniqueOrThrow({ where: { id: orderId } });

      await tab.page.goto(`/orders/${orderId}`);
      expect(await tab.page.locator(".order-ref").first().textContent()).toBe(`#${number}`);
      expect(await tab.page.getByRole("link", { name: "Betal nu" }).isVisible()).toBe(true);
      await tab.screenshot("guest-order");
      await tab.page.getByRole("link", { name: "Mine ordrer" }).first().click();
      await tab.page.waitForURL("**/account");
      expect(await tab.page.getByRole("heading", { level: 1 }).textContent()).toBe("Log ind");
      expect(await tab.page.getByRole("heading", { name: "Handlet uden konto?" }).isVisible()).toBe(true);
      expect(await tab.page.locator("main").textContent()).not.toContain(`#${number}`);
      await tab.screenshot("guest-account");

      // The same browser on a phone: its cookie in a phone-sized context.
      await phone.context.addCookies(await tab.context.cookies());
      for (const [address, name] of [[`/orders/${orderId}`, "guest-order-phone"], ["/account", "guest-account-phone"]] as const) {
        await phone.page.goto(address);
        const overflow = await phone.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
        expect(overflow, address).toBeLessThanOrEqual(0);
        await phone.screenshot(name);
      }
      expect(await phone.page.getByRole("heading", { name: "Handlet uden konto?" }).isVisible()).toBe(true);
      expect([...tab.problems, ...phone.problems]).toEqual([]);
    } finally {
      await Promise.all([tab.close(), phone.close()]);
    }
  });
});
