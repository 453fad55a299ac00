// The API reference in headless Chromium: Swagger UI renders the tools grouped by area under the strict CSP, with no
// request to any other host; "Try it out" without a key is refused, and after Authorize the same call answers 200
// with the key sent as a Bearer header; a tool's documented failures show under their status. The MCP guide fits a
// phone. Screenshots go to test-artifacts/docs-*.png.
import type { Browser, Request } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openPage } from "../support/browser.ts";
import { useServer } from "../support/server.ts";

const { server, keys: { reader } } = useServer({ keys: { reader: ["orders:read"] } });

/**
 * Swagger UI resolves the whole document (about 0.5 MB, every tool's schemas) before it shows the areas: about two
 * seconds on an idle machine, ten times that on a busy test runner. These bounds are for the busy runner.
 */
const RENDER_MS = 60_000;
const TEST_MS = 180_000;

describeBrowser("the API reference in a browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("groups the tools by area, and Try it out answers 200 once a key is given under Authorize", async () => {
    const { page, problems, screenshot, close } = await openPage(browser, server.url);
    const elsewhere: string[] = [];
    const calls: Request[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).origin !== server.url) elsewhere.push(request.url());
      if (request.url().endsWith("/api/v1/tools/orders.list")) calls.push(request);
    });
    try {
      await page.goto("/docs");
      // Not polled: while Swagger UI resolves the document the page's main thread answers nothing for seconds.
      expect(await page.title()).toBe("API reference – Nordlys Optik");
      const orders = page.locator('.opblock-tag[data-tag="orders"]');
      await orders.waitFor({ timeout: RENDER_MS });
      expect(await orders.textContent()).toContain("Orders from placement to delivery");
      expect(await page.locator(".opblock-tag").count()).toBeGreaterThanOrEqual(15);
      await screenshot("docs-reference");

      await orders.click();
      const operation = page.locator("#operations-orders-invoke_orders_list");
      await operation.locator(".opblock-summary").click();
      await operation.getByRole("button", { name: "Try it out" }).click();
      await operation.getByRole("button", { name: "Execute" }).click();
      const status = operation.locator(".live-responses-table .response .response-col_status");
      await expect.poll(() => status.first().textContent(), { timeout: RENDER_MS }).toContain("401");

      await page.locator(".auth-wrapper .authorize").click();
      const dialog = page.locator(".modal-ux");
      // Swagger UI's own accessible names for the key's field and the dialog's "Authorize" button.
      await dialog.getByLabel("auth-bearer-value").fill(reader);
      await dialog.getByRole("button", { name: "Apply credentials" }).click();
      await dialog.getByRole("button", { name: "Close", exact: true }).click();

      await operation.getByRole("button", { name: "Execute" }).click();
      await expect.poll(() => status.first().textContent(), { timeout: RENDER_MS }).toContain("200");
      expect(await operation.locator(".live-responses-table .response .response-col_description").first().textContent()).toContain('"ok": true');
      expect(calls.map((call) => call.headers().authorization)).toEqual([undefined, `Bearer ${reader}`]);
      await screenshot("docs-try-it");

      // A tool's documented failures stand under their status, each code with when it happens.
      const cancel = page.locator("#operations-orders-invoke_orders_cancel");
      await cancel.locator(".opblock-summary").click();
      const refused = cancel.locator(".responses-table tr.response[data-code='422'] .response-col_description");
      await refused.waitFor({ timeout: RENDER_MS });
      expect(await refused.textContent()).toMatch(/illegal_transition: shipped or already closed.*refund_failed/s);

      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, TEST_MS);

  it("fits a phone: the reference and the MCP guide scroll only downwards", async () => {
    const phone = await openPage(browser, server.url, { width: 390, height: 844 });
    try {
      await phone.page.goto("/docs");
      await phone.page.locator('.opblock-tag[data-tag="products"]').waitFor({ timeout: RENDER_MS });
      await phone.page.locator('.opblock-tag[data-tag="products"]').click();
      await phone.page.locator("#operations-products-invoke_products_search .opblock-summary").click();
      expect(await phone.page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.screenshot("docs-reference-phone");

      await phone.page.goto("/docs/mcp");
      expect(await phone.page.getByRole("heading", { level: 1 }).textContent()).toBe("Connect an MCP client");
      expect(await phone.page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.screenshot("docs-mcp-phone");
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.close();
    }
  }, TEST_MS);
});
