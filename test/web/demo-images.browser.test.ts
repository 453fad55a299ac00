// The demo shop without JavaScript in headless Chromium: on the front page, a category page and a product page every
// picture loads (nothing hides a broken one without scripts); screenshots under test-artifacts/demo-images-*.png.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { demoProducts } from "../../prisma/seed/demo.ts";
import { describeBrowser, launchBrowser, openPage } from "../support/browser.ts";
import { useServer } from "../support/server.ts";

describeBrowser("demo pictures without JavaScript", () => {
  const { server } = useServer();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows every picture of the front page, a category page and a product page", async () => {
    const product = demoProducts(80).find((p) => p.featured && p.images.length === 2 && !p.deleted)!;
    const { page, problems, screenshot, close } = await openPage(browser, server.url, { javaScript: false });
    try {
      for (const [name, pagePath] of [["home", "/"], ["category", `/categories/${product.categorySlug}`], ["product", `/products/${product.slug}`]] as const) {
        await page.goto(pagePath, { waitUntil: "load" });
        const images = page.locator("img");
        expect(await images.count(), pagePath).toBeGreaterThan(0);
        for (const image of await images.all()) {
          await image.scrollIntoViewIfNeeded();
          const src = await image.getAttribute("src");
          await expect.poll(() => image.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0), { message: `${pagePath}: ${src}` }).toBe(true);
        }
        await screenshot(`demo-images-${name}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
