// The admin product page of a product with variants in headless Chromium at 1280 px (issue 39 item 11): the variants
// table fits without scrolling sideways, and no separate product stock is shown; screenshot
// admin-product-variants.png in test-artifacts/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { staffUser } from "../../support/admin.ts";
import { describeBrowser, launchBrowser, openPage, type BrowserPage, signInToAdmin } from "../../support/browser.ts";
import { startServer, type TestServer } from "../../support/server.ts";

const EMAIL = "ejer.varianter@nordlys.dk";
const PASSWORD = "briller i nordisk lys";

describeBrowser("the product page's variants in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  const open: BrowserPage[] = [];
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await staffUser(server, EMAIL, ["*"], PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((tab) => tab.close()));
    await browser?.close();
    await server?.close();
  });

  it("fits the variants table at 1280 px and shows no separate product stock", { timeout: 60_000 }, async () => {
    const tab = await openPage(browser, server.url, { width: 1280, height: 900 });
    open.push(tab);
    await signInToAdmin(tab.page, EMAIL, PASSWORD);
    const product = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, draft: false, variants: { some: {} } } });
    await tab.page.goto(`/admin/products/${product.slug}`);
    const wrap = tab.page.locator("#variants .table-wrap");
    const [client, scroll] = await wrap.evaluate((element) => [element.clientWidth, element.scrollWidth]);
    expect(scroll).toBeLessThanOrEqual(client!);
    expect(await tab.page.getByRole("button", { name: "Justér lager" }).count()).toBe(0);
    await tab.page.locator("#variants").screenshot({ path: "test-artifacts/admin-product-variants.png" });
    expect(tab.problems).toEqual([]);
  });
});
