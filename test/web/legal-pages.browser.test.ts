// The legal pages in headless Chromium: "Produktsikkerhed" on a product page (desktop and a 390 × 844 phone), edited
// in the admin product page's card at 1280 px, and the privacy policy on a phone; no sideways scrolling anywhere.
// Screenshots go to test-artifacts/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PASSWORD, staffUser } from "../support/admin.ts";
import { describeBrowser, launchBrowser, openPage, type BrowserPage, signInToAdmin } from "../support/browser.ts";
import { startServer, type TestServer } from "../support/server.ts";

describeBrowser("legal pages in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const sunglasses = () => server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, draft: false, category: { slug: "solbriller" } }, orderBy: { slug: "asc" } });
  const fits = async (tab: BrowserPage, name: string) => {
    expect(await tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"), name).toBeLessThanOrEqual(0);
    await tab.screenshot(name);
  };

  it("shows Produktsikkerhed on the product page and the privacy policy, on a desktop and a phone", async () => {
    const product = await sunglasses();
    for (const device of [{ name: "desktop" }, { name: "phone", width: 390, height: 844, phone: true }] as const) {
      const tab = await openPage(browser, server.url, device);
      try {
        await tab.page.goto(`/products/${product.slug}`);
        const section = tab.page.getByRole("region", { name: "Produktsikkerhed" });
        await section.scrollIntoViewIfNeeded();
        expect(await section.innerText()).toContain("Nordlys Eyewear A/S");
        await fits(tab, `product-safety-${device.name}`);
        await tab.page.goto("/info/privatlivspolitik");
        await tab.page.getByRole("heading", { name: "Privatlivspolitik", level: 1 }).waitFor();
        await fits(tab, `privacy-${device.name}`);
        expect(tab.problems).toEqual([]);
      } finally {
        await tab.close();
      }
    }
  });

  it("edits product safety in the admin product page's card", async () => {
    const product = await sunglasses();
    await staffUser(server, "gpsr@nordlys.dk", ["*"], PASSWORD);
    const tab = await openPage(browser, server.url, { width: 1280 });
    try {
      await signInToAdmin(tab.page, "gpsr@nordlys.dk", PASSWORD);
      await tab.page.goto(`/admin/products/${product.slug}`);
      const card = tab.page.locator("#safety");
      await card.getByRole("group", { name: "Producent" }).getByLabel("Navn").fill("Solskin Optics ApS");
      await card.getByLabel("Advarsler (på dansk)").fill("Ikke til svejsning.");
      await card.scrollIntoViewIfNeeded();
      await fits(tab, "admin-product-safety");
      await card.getByRole("button", { name: "Gem produktsikkerhed" }).click();
      await expect.poll(() => tab.page.locator(".notice").first().innerText().catch(() => "")).toContain("Produktsikkerheden er gemt.");
      await tab.page.goto(`/products/${product.slug}`);
      expect(await tab.page.getByRole("region", { name: "Produktsikkerhed" }).innerText()).toContain("Solskin Optics ApS");
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
