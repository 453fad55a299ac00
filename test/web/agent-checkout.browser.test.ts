// The hand-off page of an agent's checkout session (UCP continue_url) in headless Chromium with JavaScript off, at
// desktop and phone width: what is missing, the buyer's details typed in, the order placed and its payment page;
// screenshots agent-checkout-*.png in test-artifacts/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkoutResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { describeBrowser, launchBrowser, openPage, type BrowserPage } from "../support/browser.ts";
import { sendJson, valid } from "../support/protocol.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { serveProfiles, shoppingCapabilities, type ProfileServer } from "../support/ucp-profile.ts";

describeBrowser("the hand-off page in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  let profiles: ProfileServer;
  const open: BrowserPage[] = [];
  beforeAll(async () => {
    [server, browser, profiles] = await Promise.all([
      startServer({ ucpTestMode: true, ucpAllowLocalProfiles: true }),
      launchBrowser(),
      serveProfiles({ "/agent.json": { name: "Shopping Helper", ucp: { version: "2026-04-08", capabilities: shoppingCapabilities() } } }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((tab) => tab.close()));
    await browser?.close();
    await server?.close();
    await profiles?.close();
  });

  for (const [name, options] of [["desktop", {}], ["phone", { width: 390, height: 844, phone: true }]] as const) {
    it(`completes the agent's checkout without JavaScript (${name})`, { timeout: 90_000 }, async () => {
      const products = await plainProducts(server, 5);
      const lines = products.slice(0, 2).map((product, index) => ({ item: { id: product.id }, quantity: index + 1 }));
      const reply = await sendJson(`${server.url}/ucp/checkout-sessions`, "POST", { "UCP-Agent": `profile="${profiles.base}/agent.json"`, "Content-Type": "application/json" }, { line_items: lines, buyer: { first_name: "Mette", last_name: "Hansen" } });
      const session = valid(checkoutResponse, reply);
      const link = new URL(session.continue_url!);
      const tab = await openPage(browser, server.url, { ...options, javaScript: false });
      open.push(tab);
      await tab.page.goto(`${link.pathname}${link.search}`);
      await expect.poll(() => tab.page.locator("h1").innerText()).toBe("Gennemfør dit køb");
      await expect.poll(() => tab.page.locator(".handoff-missing").innerText()).toContain("Leveringsadressen");
      await tab.screenshot(`agent-checkout-${name}`);
      expect(await tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);

      await tab.page.getByLabel("E-mail").fill(`mette.${name}@example.dk`);
      await tab.page.getByLabel("Adresse").fill("Strøget 12");
      await tab.page.getByLabel("Postnummer").fill("1160");
      await tab.page.getByLabel("By").fill("København K");
      await tab.page.getByRole("button", { name: /^Bestil og gå til betaling/ }).click();
      await expect.poll(() => tab.page.locator("h1").innerText()).toBe("Betaling");
      expect(new URL(tab.page.url()).pathname).toMatch(/^\/orders\/[\w-]+\/pay$/);
      await tab.screenshot(`agent-checkout-paid-${name}`);
      expect(tab.problems).toEqual([]);
      const done = valid(checkoutResponse, await sendJson(`${server.url}/ucp/checkout-sessions/${session.id}`, "GET", { "UCP-Agent": `profile="${profiles.base}/agent.json"` }));
      expect(done.status).toBe("completed");
    });
  }
});
