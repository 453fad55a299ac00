// Indstillinger in headless Chromium: the bank account (Kontakt → Bankkonto) and a delivery method's form filled in and
// saved as an owner would, a Danish refusal shown, and the cards at desktop and phone width (screenshots
// admin-settings-bank*.png and admin-settings-methods*.png in test-artifacts/).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getSaleTerms } from "../../../src/tools/settings/sale-terms.ts";
import { getSection } from "../../../src/tools/settings/settings-document.ts";
import { staffUser } from "../../support/admin.ts";
import { describeBrowser, launchBrowser, openPage, type BrowserPage, signInToAdmin } from "../../support/browser.ts";
import { startServer, type TestServer } from "../../support/server.ts";

const EMAIL = "ejer.indstillinger@nordlys.dk";
const PASSWORD = "briller i nordisk lys";

describeBrowser("the owner's settings in a browser", () => {
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

  async function signedIn(options: { width?: number; height?: number; phone?: boolean } = {}): Promise<BrowserPage> {
    const tab = await openPage(browser, server.url, options);
    open.push(tab);
    await signInToAdmin(tab.page, EMAIL, PASSWORD);
    return tab;
  }

  const notice = (tab: BrowserPage) => tab.page.locator(".notice[role]").first().innerText().catch(() => "");
  const prisma = () => server.prisma;

  it("saves the bank account and a delivery method, and refuses a bad IBAN in Danish", { timeout: 90_000 }, async () => {
    const tab = await signedIn({ width: 1280, height: 900 });
    const { page, problems, screenshot } = tab;
    await page.goto("/admin/settings#bank");
    const contact = page.locator("#contact");
    const fillBank = async (iban: string) => {
      await contact.locator('input[name="bankName"]').fill("Danske Bank");
      await contact.getByLabel("Reg.nr.").fill("0040");
      await contact.getByLabel("Kontonr.").fill("0440116243");
      await contact.getByLabel("IBAN").fill(iban);
      await contact.getByLabel("BIC (SWIFT)").fill("dabadkkk");
      await contact.getByRole("button", { name: "Gem bankkonto" }).click();
    };
    await fillBank("DK50 0040 0440 1162 44");
    await expect.poll(() => notice(tab)).toMatch(/IBAN: passer ikke/);
    await fillBank("DK50 0040 0440 1162 43");
    await expect.poll(() => notice(tab)).toBe("Bankkontoen er gemt.");
    expect((await getSaleTerms(prisma())).bankAccount).toEqual({ bankName: "Danske Bank", regNo: "0040", accountNo: "0440116243", iban: "DK5000400440116243", bic: "DABADKKK" });
    await contact.screenshot({ path: "test-artifacts/admin-settings-bank.png" });

    const gls = page.locator("#method-gls-pakkeshop");
    await gls.getByLabel("Pris i kr.").fill("29");
    await gls.getByLabel("Fri fragt fra kr.").fill("299");
    await gls.getByLabel("Levering senest (hverdage)").fill("3");
    await gls.getByRole("button", { name: "Gem leveringsmåde" }).click();
    await expect.poll(() => notice(tab)).toBe("GLS Pakkeshop er gemt.");
    const { methods } = await getSection(prisma(), "shipping");
    expect(methods.find((method) => method.id === "gls-pakkeshop")).toMatchObject({ priceDkk: 2900, maxDays: 3 });
    expect((await getSaleTerms(prisma())).freeShippingFrom).toEqual({ "gls-pakkeshop": 29900 });
    await page.locator("#methods").screenshot({ path: "test-artifacts/admin-settings-methods.png" });
    await page.locator("#pickup-points").screenshot({ path: "test-artifacts/admin-settings-pickup-points.png" });
    await screenshot("admin-settings-owner");
    expect(await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
    expect(problems).toEqual([]);
  });

  it("fits a phone (390 × 844)", { timeout: 60_000 }, async () => {
    const tab = await signedIn({ width: 390, height: 844, phone: true });
    await tab.page.goto("/admin/settings#methods");
    await tab.page.locator("#methods").getByRole("button", { name: "Tilføj leveringsmåde" }).waitFor();
    await tab.page.locator("#contact").screenshot({ path: "test-artifacts/admin-settings-bank-phone.png" });
    await tab.page.locator("#methods").screenshot({ path: "test-artifacts/admin-settings-methods-phone.png" });
    expect(await tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
    expect(tab.problems).toEqual([]);
  });
});
