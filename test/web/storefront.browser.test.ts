// A person shops in headless Chromium: searches, opens a product, adds two to the cart, applies a code, checks out
// with an address (the postal code fills in the city) and sees the payment page; screenshots of the main pages are
// kept under test-artifacts/, and no page may log a CSP violation or script error.
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { formatMoney } from "../../src/web/html.ts";
import { ARTIFACTS_DIR, describeBrowser, launchBrowser, openPage } from "../support/browser.ts";
import { useServer } from "../support/server.ts";
import { plainProducts, type DemoProduct } from "../support/session.ts";

/**
 * Run in the page (a string: the test's TypeScript has no DOM types): the page's width, the visible controls that
 * stick out of the screen, and the widest culprits, leaving out strips that scroll sideways on purpose (the category bar).
 */
const MEASURE_OVERFLOW = `(() => {
  const limit = document.documentElement.clientWidth;
  const scrolls = (node) => {
    for (let parent = node.parentElement; parent; parent = parent.parentElement) {
      if (["auto", "scroll"].includes(getComputedStyle(parent).overflowX)) return true;
    }
    return false;
  };
  const describe = (node) => node.tagName.toLowerCase() + " " + JSON.stringify((node.textContent || node.getAttribute("aria-label") || "").trim().slice(0, 30));
  const out = (node) => { const box = node.getBoundingClientRect(); return box.width > 0 && (box.right > limit + 1 || box.left < -1); };
  const cut = [...document.querySelectorAll("header a, header button, header input, main a, main button, main input, main select")]
    .filter((node) => node.offsetParent !== null && !scrolls(node) && out(node)).map(describe);
  const wide = [...document.querySelectorAll("body *")].filter((node) => !scrolls(node) && out(node)).map(describe).slice(0, 12);
  return { scrollWidth: document.documentElement.scrollWidth, cut, wide };
})()`;

describeBrowser("storefront in a browser", () => {
  const { server } = useServer();
  let browser: Browser;
  let product: DemoProduct;
  beforeAll(async () => {
    browser = await launchBrowser();
    // A product without variants that costs under the free-shipping threshold, so shipping shows in the totals.
    product = (await plainProducts(server, 5)).find((candidate) => candidate.priceDkk < 20000)!;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("searches, adds two to the cart, applies a code, checks out and lands on the payment page", async () => {
    const { page, problems, screenshot, close } = await openPage(browser, server.url);
    try {
      await page.goto("/");
      await expect.poll(() => page.title()).toContain("Nordlys Optik");
      await screenshot("home");

      await page.getByRole("searchbox", { name: "Søg i butikken" }).fill(product.name);
      await page.getByRole("button", { name: "Søg", exact: true }).click();
      await page.waitForURL(/\/search\?q=/);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain(product.name);
      await screenshot("search");

      await page.getByRole("link", { name: new RegExp(product.name) }).first().click();
      await page.waitForURL(`**/products/${product.slug}`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(product.name);
      await screenshot("product");

      await page.getByLabel("Antal").fill("2");
      await page.getByRole("button", { name: "Læg i kurv" }).click();
      await page.waitForURL(/\/cart\?notice=added/);
      await expect.poll(() => page.locator("[data-cart-count]").textContent()).toBe("2");
      expect(await page.getByRole("status").first().textContent()).toContain("Varen er lagt i kurven.");

      await page.getByLabel("Rabatkode").fill("velkommen10");
      await page.getByRole("button", { name: "Brug" }).click();
      await page.waitForURL(/\/cart\?notice=discount/);
      const discount = Math.round(product.priceDkk * 2 * 0.1);
      expect(await page.locator(".totals").textContent()).toContain(`−${formatMoney(discount, "DKK")}`);
      await screenshot("cart");

      await page.getByRole("link", { name: "Gå til kassen" }).click();
      await page.waitForURL("**/checkout");
      await page.getByLabel("E-mail").fill("browser@example.dk");
      await page.getByLabel("Fulde navn").fill("Bente Browser");
      await page.getByLabel("Adresse", { exact: true }).fill("Vestergade 3, 1. th");
      await page.getByLabel("Postnummer", { exact: true }).fill("8000");
      await expect.poll(() => page.getByLabel("By", { exact: true }).inputValue()).toBe("Aarhus C");
      // A parcel shop of GLS: its select shows once its radio is chosen; the billing fields once their box is ticked.
      expect(await page.locator("#delivery-gls-pakkeshop-point").isVisible()).toBe(false);
      await page.locator("#delivery-gls-pakkeshop").check();
      await page.locator("#delivery-gls-pakkeshop-point").selectOption("gls-aarhus-spar");
      await expect.poll(() => page.locator(".checkout-layout .totals").textContent()).toContain(formatMoney(3500, "DKK"));
      expect(await page.getByLabel("Navn på fakturaen").isVisible()).toBe(false);
      const checkoutButton = (await page.getByRole("button", { name: /Bestil og gå til betaling/ }).textContent())?.trim();
      await screenshot("checkout");
      await page.getByLabel("Faktureringsadresse er en anden").check();
      expect(await page.getByLabel("Navn på fakturaen").isVisible()).toBe(true);
      await page.getByLabel("Faktureringsadresse er en anden").uncheck();
      await page.getByRole("button", { name: /Bestil og gå til betaling/ }).click();
      await page.waitForURL(/\/orders\/[\w-]+\/pay\?token=/);
      expect(await page.getByRole("heading", { level: 2, name: "Betal med bankoverførsel" }).isVisible()).toBe(true);
      const orderId = /\/orders\/([\w-]+)\/pay/.exec(page.url())![1]!;
      const order = await server.prisma.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
      expect(order).toMatchObject({ status: "pending_payment", channel: "web", discountCode: "VELKOMMEN10", shippingCity: "Aarhus C", email: "browser@example.dk" });
      expect(order).toMatchObject({ deliveryMethodId: "gls-pakkeshop", pickupPoint: { id: "gls-aarhus-spar" }, shippingDkk: 3500n, billingName: null });
      expect(order.items).toMatchObject([{ productId: product.id, quantity: 2 }]);
      expect(await page.locator("main").textContent()).toContain(formatMoney(Number(order.totalDkk), "DKK"));
      expect(checkoutButton).toBe(`Bestil og gå til betaling · ${formatMoney(Number(order.totalDkk), "DKK")}`);
      await expect.poll(() => page.locator("[data-cart-count]").isHidden()).toBe(true);
      await screenshot("payment");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("fits a 390 × 844 touch phone with an item in the cart: nothing wider than the screen, nothing cut off", async () => {
    const phone = await openPage(browser, server.url, { width: 390, height: 844, phone: true });
    const category = (await server.prisma.category.findFirstOrThrow({ where: { products: { some: {} } }, orderBy: { slug: "asc" } })).slug;
    try {
      await phone.page.goto(`/products/${product.slug}`);
      await phone.page.getByRole("button", { name: "Læg i kurv" }).click();
      await phone.page.waitForURL(/\/cart/);
      for (const [address, name] of [["/", "home"], [`/categories/${category}`, "category"], [`/products/${product.slug}`, "product"], ["/cart", "cart"]] as const) {
        await phone.page.goto(address);
        const overflow = await phone.page.evaluate<{ scrollWidth: number; cut: string[]; wide: string[] }>(MEASURE_OVERFLOW);
        expect(overflow.scrollWidth, `${address} ${overflow.wide.join(", ")}`).toBeLessThanOrEqual(390);
        expect(overflow.cut, address).toEqual([]);
        // The first screen, as the shopper sees it on arrival.
        await phone.page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}-phone-cart.png`) });
      }
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it("works on a phone-sized screen, and without JavaScript", async () => {
    const phone = await openPage(browser, server.url, { width: 390, height: 844 });
    try {
      await phone.page.goto("/");
      await phone.screenshot("home-phone");
      await phone.page.goto(`/products/${product.slug}`);
      // Nothing wider than the screen (no sideways scrolling): the page's own width as the browser measures it.
      const width = await phone.page.locator("html").evaluate((root) => root.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await phone.screenshot("product-phone");
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.close();
    }
    const noScript = await openPage(browser, server.url, { javaScript: false });
    try {
      await noScript.page.goto(`/products/${product.slug}`);
      await noScript.page.getByRole("button", { name: "Læg i kurv" }).click();
      await noScript.page.waitForURL(/\/cart\?notice=added/);
      expect(await noScript.page.locator(".line-name").textContent()).toBe(product.name);
      expect(await noScript.page.locator("[data-cart-count]").textContent()).toBe("1");
    } finally {
      await noScript.close();
    }
  });
});
