// /fortryd in headless Chromium, without JavaScript as the law's "easily accessible" function must work: from the
// footer link through "Bekræft fortrydelse" to the receipt, on a desktop and a 390 × 844 phone (no sideways scrolling),
// and from the order page with a choice of lines. Screenshots go to test-artifacts/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openPage } from "../support/browser.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { captureMail, createCustomer, sessionFor } from "../tools/orders/fixtures.ts";
import { shippedOrder } from "../tools/returns/fixtures.ts";

describeBrowser("/fortryd in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const prisma = () => server.prisma;

  for (const device of [{ name: "desktop" }, { name: "phone", width: 390, height: 844, phone: true }] as const) {
    it(`withdraws from the footer link to the receipt without JavaScript (${device.name})`, async () => {
      const mail = captureMail(server);
      const order = await shippedOrder(server, { deliveredDaysAgo: 4 });
      const tab = await openPage(browser, server.url, { ...device, javaScript: false });
      const fits = async (step: string) => {
        const overflow = await tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
        expect(overflow, step).toBeLessThanOrEqual(0);
        await tab.screenshot(`withdrawal-${step}-${device.name}`);
      };
      try {
        await tab.page.goto("/");
        await tab.page.getByRole("link", { name: "Fortryd købet her" }).click();
        await tab.page.getByRole("heading", { name: "Fortryd købet" }).waitFor();
        await tab.page.getByLabel("Ordrenummer").fill(`#${order.number}`);
        await tab.page.getByLabel("E-mail, du bestilte med").fill(order.email);
        await tab.page.getByLabel("Navn på ordren").fill("Mette Hansen");
        await fits("step1");
        await tab.page.getByRole("button", { name: "Fortsæt" }).click();
        await tab.page.getByRole("heading", { name: "Bekræft fortrydelse" }).waitFor();
        await fits("step2");
        await tab.page.getByRole("button", { name: "Bekræft fortrydelse" }).click();
        await tab.page.getByRole("heading", { name: "Vi har modtaget din fortrydelse" }).waitFor();
        await fits("receipt");
        await expect.poll(() => prisma().returnRequest.count({ where: { orderId: order.id, kind: "withdrawal" } })).toBe(1);
        await expect.poll(() => mail.sent.some((m) => m.to === order.email && m.subject.startsWith("Kvittering for din fortrydelse"))).toBe(true);
        expect(tab.problems).toEqual([]);
      } finally {
        await tab.close();
      }
    });
  }

  it("lets the signed-in owner pick lines from the order page", async () => {
    const customer = await createCustomer(server, { email: "fortryd-browser@example.dk", name: "Mette Hansen" });
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [2, 1], email: customer.email, userId: customer.id });
    const tab = await openPage(browser, server.url, { width: 390, height: 844, phone: true });
    const [name, value] = (await sessionFor(server, customer.id)).split("=");
    await tab.context.addCookies([{ name: name!, value: value!, url: server.url }]);
    try {
      await tab.page.goto(`/orders/${order.id}`);
      await tab.page.locator("#main").getByRole("link", { name: "Fortryd købet her" }).click();
      const two = order.items.find((item) => item.quantity === 2)!;
      const one = order.items.find((item) => item.quantity === 1)!;
      await tab.page.locator(`select[name="line:${one.id}"]`).selectOption("0");
      await tab.screenshot("withdrawal-lines-phone");
      await tab.page.getByRole("button", { name: "Fortsæt" }).click();
      await tab.page.getByRole("button", { name: "Bekræft fortrydelse" }).click();
      await tab.page.getByRole("heading", { name: "Vi har modtaget din fortrydelse" }).waitFor();
      await expect.poll(async () => (await prisma().returnItem.findMany({ where: { request: { orderId: order.id } } })).map((i) => [i.orderItemId, i.quantity])).toEqual([[two.id, 2]]);
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
