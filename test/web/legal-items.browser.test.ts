// Issue 39 items 9-11 in headless Chromium, desktop (1280) and phone (390×844): the product page captions its photo with
// the alt text, "Mine ordrer" lists the shopper's gift cards and store credit, and an order page with a bank-transfer
// refund staff have not paid says "refunderes". Nothing may scroll sideways. Screenshots go to test-artifacts/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openPage, type BrowserPage } from "../support/browser.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";
import { createCustomer, sessionFor } from "../tools/orders/fixtures.ts";
import { openReturn, shippedOrder } from "../tools/returns/fixtures.ts";

const SIZES = [
  { name: "desktop", width: 1280, options: {} },
  { name: "phone", width: 390, options: { width: 390, height: 844, phone: true } },
] as const;

describeBrowser("issue 39 items 9-11 in a browser", () => {
  const { server } = useServer();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function fits(tab: BrowserPage, width: number): Promise<void> {
    expect(await tab.page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
  }

  it("captions the product photo, lists gift cards on the account page, and says a bank refund 'refunderes'", async () => {
    const key = await server.key("products:write", "giftcards:write", "returns:write", "returns:read", "orders:read", "orders:write");
    const product = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, draft: false, images: { some: {} } }, orderBy: { slug: "asc" } });
    const [first] = await server.prisma.productImage.findMany({ where: { productId: product.id }, orderBy: { position: "asc" } });
    await server.prisma.productImage.update({ where: { id: first!.id }, data: { alt: "Stellet set forfra på en lys baggrund" } });

    const customer = await createCustomer(server, { email: "browser-legal@example.dk", name: "Mette Hansen" });
    expectOk(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk: 25_000, customerEmail: customer.email }, { key }));
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, quantities: [1], email: customer.email, userId: customer.id });
    const ret = await openReturn(server, key, order, { approve: true });
    expectOk(server, "returns.receive", await server.call("returns.receive", { returnId: ret.returnId, refundAccount: "1234 0012345678" }, { key }));
    const [name, value] = (await sessionFor(server, customer.id)).split("=");

    for (const size of SIZES) {
      const tab = await openPage(browser, server.url, size.options);
      try {
        await tab.context.addCookies([{ name: name!, value: value!, url: server.url }]);
        await tab.page.goto(`/products/${product.slug}`);
        expect(await tab.page.locator(".product-gallery figcaption").first().textContent()).toBe("Stellet set forfra på en lys baggrund");
        await fits(tab, size.width);
        await tab.screenshot(`legal-caption-${size.name}`);

        await tab.page.goto("/account");
        await tab.page.getByRole("heading", { name: "Tilgodebeviser og gavekort" }).waitFor();
        expect(await tab.page.locator(".gift-card-row").count()).toBeGreaterThanOrEqual(1);
        await fits(tab, size.width);
        await tab.screenshot(`legal-gift-cards-${size.name}`);

        await tab.page.goto(`/orders/${order.id}`);
        await tab.page.getByText("Modtaget – beløbet refunderes til din bankkonto").waitFor();
        await fits(tab, size.width);
        await tab.screenshot(`legal-refunderes-${size.name}`);
      } finally {
        await tab.close();
      }
    }
  });
});
