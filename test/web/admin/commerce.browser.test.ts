// The money sections of /admin/settings in headless Chromium: VAT and checkout needs saved, a currency change refused
// in a shop with orders, shipping rates and a free-shipping promotion added in the table editor, a bad row refused
// with the fields kept, and a row emptied to delete it; screenshots at desktop and phone width in test-artifacts/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getCommerceSettings } from "../../../src/tools/settings/commerce.ts";
import { staffUser } from "../../support/admin.ts";
import { describeBrowser, launchBrowser, openPage, type BrowserPage, signInToAdmin } from "../../support/browser.ts";
import { useServer } from "../../support/server.ts";

const EMAIL = "ejer@nordlys.dk";
const PASSWORD = "briller i nordisk lys";

describeBrowser("the currency and shipping-rate settings in a browser", () => {
  const { server } = useServer();
  let browser: Browser;
  const open: BrowserPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    await staffUser(server, EMAIL, ["*"], PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((tab) => tab.close()));
    await browser?.close();
  });

  async function signedIn(options: { width?: number; height?: number; phone?: boolean } = {}): Promise<BrowserPage> {
    const tab = await openPage(browser, server.url, options);
    open.push(tab);
    await signInToAdmin(tab.page, EMAIL, PASSWORD);
    return tab;
  }

  const stored = () => getCommerceSettings(server.prisma);
  const notice = (tab: BrowserPage) => tab.page.locator(".notice").first().innerText().catch(() => "");

  it("saves VAT and checkout needs, refuses another currency, and edits rates and promotions", { timeout: 90_000 }, async () => {
    const tab = await signedIn();
    const { page, problems, screenshot } = tab;
    await page.goto("/admin/settings");
    const commerce = page.locator("#commerce");
    await expect.poll(() => commerce.getByLabel("Valuta").inputValue()).toBe("DKK");

    await commerce.getByLabel("Priserne er inkl. 25 % moms").uncheck();
    await commerce.getByLabel("Kassen for AI-agenter kræver").selectOption("country");
    await commerce.getByLabel("Køb via AI-agenter").selectOption("signed");
    await commerce.getByRole("button", { name: "Gem valuta og moms" }).click();
    await expect.poll(() => notice(tab)).toBe("Valuta og moms er gemt.");
    expect(await stored()).toMatchObject({ currency: "DKK", pricesIncludeVat: false, checkoutNeeds: "country", agentAccess: "signed" });
    expect(await commerce.getByLabel("Køb via AI-agenter").inputValue()).toBe("signed");

    await commerce.getByLabel("Valuta").fill("EUR");
    await commerce.getByRole("button", { name: "Gem valuta og moms" }).click();
    await expect.poll(() => notice(tab)).toMatch(/valutaen kan ikke ændres/);
    expect((await stored()).currency).toBe("DKK");
    await commerce.getByLabel("Priserne er inkl. 25 % moms").check();
    await commerce.getByLabel("Kassen for AI-agenter kræver").selectOption("full_address");
    await commerce.getByLabel("Køb via AI-agenter").selectOption("open");
    await commerce.getByLabel("Valuta").fill("DKK");
    await commerce.getByRole("button", { name: "Gem valuta og moms" }).click();
    await expect.poll(() => notice(tab)).toBe("Valuta og moms er gemt.");

    const rates = page.locator("#rates");
    const fill = async (label: string, row: number, value: string) => rates.getByLabel(`Fragtpris ${row}: ${label}`, { exact: true }).fill(value);
    for (const [row, values] of [[1, ["dk-std", "DK", "standard", "PostNord", "49"]], [2, ["world-std", "default", "standard", "International", "149,50"]], [3, ["dk-exp", "dk", "express", "Express", "99"]]] as const) {
      for (const [index, label] of ["Id", "Land", "Niveau", "Navn", "Pris"].entries()) await fill(label, row, values[index]!);
    }
    await rates.getByLabel("Fri fragt 1: Id").fill("free-499");
    await rates.getByLabel("Fri fragt 1: Fra beløb").fill("499");
    await rates.getByLabel("Fri fragt 1: Beskrivelse").fill("Fri fragt over 499 kr.");
    await rates.getByRole("button", { name: "Gem fragtpriser" }).click();
    await expect.poll(() => notice(tab)).toBe("Fragtpriserne er gemt.");
    expect(await stored()).toMatchObject({
      shippingRates: [
        { id: "dk-std", country: "DK", serviceLevel: "standard", title: "PostNord", amount: 4900 },
        { id: "world-std", country: "default", serviceLevel: "standard", title: "International", amount: 14950 },
        { id: "dk-exp", country: "DK", serviceLevel: "express", title: "Express", amount: 9900 },
      ],
      promotions: [{ id: "free-499", type: "free_shipping", minSubtotal: 49900, productIds: null, description: "Fri fragt over 499 kr." }],
    });
    await expect.poll(() => rates.locator('input[name="rate.2.amount"]').inputValue()).toBe("99");
    await expect.poll(() => rates.locator('input[name="rate.5.id"]').count()).toBe(1);
    await screenshot("admin-settings-commerce");

    await rates.getByLabel("Fri fragt 2: Id").fill("unknown-product");
    await rates.getByLabel("Fri fragt 2: Produkter").fill("no-such-product");
    await rates.getByRole("button", { name: "Gem fragtpriser" }).click();
    await expect.poll(() => notice(tab)).toMatch(/produkterne findes ikke/);
    expect((await stored()).promotions).toHaveLength(1);

    await page.goto("/admin/settings#rates");
    for (const column of ["id", "country", "serviceLevel", "title", "amount"]) await rates.locator(`input[name="rate.2.${column}"]`).fill("");
    await rates.getByRole("button", { name: "Gem fragtpriser" }).click();
    await expect.poll(() => notice(tab)).toBe("Fragtpriserne er gemt.");
    expect((await stored()).shippingRates.map((rate) => rate.id)).toEqual(["dk-std", "world-std"]);
    expect(problems).toEqual([]);
  });

  it("fits a phone (390 × 844)", { timeout: 60_000 }, async () => {
    const tab = await signedIn({ width: 390, height: 844, phone: true });
    await tab.page.goto("/admin/settings#commerce");
    await tab.page.locator("#rates").getByRole("button", { name: "Gem fragtpriser" }).waitFor();
    await tab.page.locator("#commerce").screenshot({ path: "test-artifacts/admin-settings-commerce-phone.png" });
    await tab.page.locator("#rates").screenshot({ path: "test-artifacts/admin-settings-rates-phone.png" });
    // The page itself does not scroll sideways; only the tables do, inside their frame.
    expect(await tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBe(0);
    expect(tab.problems).toEqual([]);
  });
});
