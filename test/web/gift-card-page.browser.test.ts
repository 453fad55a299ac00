// /gavekort in headless Chromium with JavaScript off, at desktop and phone width: the code typed, the balance shown;
// screenshots gift-card-page*.png in test-artifacts/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openPage, type BrowserPage } from "../support/browser.ts";
import { startServer, type TestServer } from "../support/server.ts";

describeBrowser("the gift-card balance page in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  const open: BrowserPage[] = [];
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((tab) => tab.close()));
    await browser?.close();
    await server?.close();
  });

  for (const [name, options] of [["desktop", {}], ["phone", { width: 390, height: 844, phone: true }]] as const) {
    it(`shows the balance without JavaScript (${name})`, { timeout: 60_000 }, async () => {
      const tab = await openPage(browser, server.url, { ...options, javaScript: false });
      open.push(tab);
      await tab.page.goto("/gavekort");
      await tab.page.getByLabel("Gavekortets kode").fill("kxrt 7m2q pb4n z8wa");
      await tab.page.getByRole("button", { name: "Se saldo" }).click();
      await expect.poll(() => tab.page.locator(".gift-card-balance").innerText().catch(() => "")).toMatch(/^Saldo: [\d.]+,\d{2} kr\.$/);
      await tab.screenshot(`gift-card-page-${name}`);
      expect(await tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
      expect(tab.problems).toEqual([]);
    });
  }
});
