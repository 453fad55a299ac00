// The staff page in headless Chromium: the list and an invitation sent with ticked scopes, the user's page, and the
// e-mailed link's password form, with screenshots in test-artifacts/ and no console errors or CSP violations.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { staffUser } from "../../support/admin.ts";
import { describeBrowser, launchBrowser, openPage, type BrowserPage, signInToAdmin } from "../../support/browser.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../../tools/orders/fixtures.ts";
import { linkTokenTo } from "../../tools/staff/fixtures.ts";

const EMAIL = "ejer@nordlys.dk";
const PASSWORD = "briller i nordisk lys";

describeBrowser("the staff page in a browser", () => {
  const { server } = useServer();
  let browser: Browser;
  let tab: BrowserPage | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await tab?.close();
    await browser?.close();
  });

  it("invites a colleague with ticked scopes, who chooses a password through the e-mailed link", { timeout: 90_000 }, async () => {
    const mail = captureMail(server);
    await staffUser(server, EMAIL, ["*"], PASSWORD);
    await staffUser(server, "lager@nordlys.dk", ["orders:read", "orders:write", "catalog:read"]);
    tab = await openPage(browser, server.url);
    const { page, problems, screenshot } = tab;
    page.on("dialog", (dialog) => void dialog.accept());
    await signInToAdmin(page, EMAIL, PASSWORD);

    await page.getByRole("link", { name: "Medarbejdere" }).click();
    await page.waitForURL("**/admin/staff");
    await page.getByLabel("E-mail").fill("kundeservice@nordlys.dk");
    await page.getByLabel("Læse kundeservicehenvendelser").check();
    await page.getByLabel("Svare på og lukke kundeservicehenvendelser").check();
    await page.getByLabel("Læse ordrer og deres historik").check();
    await screenshot("admin-staff");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect.poll(() => page.locator(".notice").first().innerText().catch(() => "")).toBe("Invitationen er sendt til kundeservice@nordlys.dk.");
    await expect.poll(() => page.getByRole("link", { name: "kundeservice@nordlys.dk" }).count()).toBe(1);

    await page.getByRole("link", { name: "kundeservice@nordlys.dk" }).click();
    await page.getByRole("heading", { level: 1, name: "kundeservice@nordlys.dk" }).waitFor();
    await expect.poll(() => page.getByLabel("Læse kundeservicehenvendelser").isChecked()).toBe(true);
    await screenshot("admin-staff-user");

    const token = await linkTokenTo(server, mail, "kundeservice@nordlys.dk");
    const invitee = await openPage(browser, server.url);
    try {
      await invitee.page.goto(`/admin/password?token=${token}`);
      await invitee.page.getByLabel("Ny adgangskode").fill("kundeservice er sjovt");
      await invitee.page.getByLabel("Gentag adgangskoden").fill("kundeservice er sjovt");
      await invitee.screenshot("admin-password");
      await invitee.page.getByRole("button", { name: "Gem adgangskoden" }).click();
      await invitee.page.waitForURL("**/admin/login");
      await expect.poll(() => invitee.page.locator(".notice").first().innerText()).toBe("Din adgangskode er gemt. Log ind som kundeservice@nordlys.dk.");
      expect(invitee.problems).toEqual([]);
    } finally {
      await invitee.close();
    }
    expect(problems).toEqual([]);
  });
});
