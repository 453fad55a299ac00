// The admin in headless Chromium: the first-run link to the first staff user, sign-out and sign-in, an API key used
// over REST, an order from paid to shipped with tracking (without JavaScript), a price change seen on the
// storefront, and a deleted product brought back from the audit log. Screenshots land in test-artifacts/.
import type { Browser } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setupAnnouncement } from "../../../src/web/admin/pages/setup.ts";
import { staffUser } from "../../support/admin.ts";
import { describeBrowser, launchBrowser, openPage, type BrowserPage, signInToAdmin } from "../../support/browser.ts";
import { useServer } from "../../support/server.ts";
import { startWebhookReceiver } from "../../support/webhook-receiver.ts";
import { createOrder } from "../../tools/orders/fixtures.ts";

const EMAIL = "ejer@nordlys.dk";
const PASSWORD = "briller i nordisk lys";

describeBrowser("the admin in a browser", () => {
  const { server } = useServer({ config: { webhooksAllowLocal: true } });
  let browser: Browser;
  const open: BrowserPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((tab) => tab.close()));
    await browser?.close();
  });

  async function tab(options: { javaScript?: boolean } = {}): Promise<BrowserPage> {
    const page = await openPage(browser, server.url, options);
    // Destructive forms ask first (data-confirm); the person at the keyboard says yes.
    page.page.on("dialog", (dialog) => void dialog.accept());
    open.push(page);
    return page;
  }

  /** Signs in as the owner (created here when the first test did not run). */
  async function signIn(page: BrowserPage["page"]): Promise<void> {
    if (!(await server.prisma.adminUser.findUnique({ where: { email: EMAIL } }))) await staffUser(server, EMAIL, ["*"], PASSWORD);
    await signInToAdmin(page, EMAIL, PASSWORD);
  }

  /** The flash message of the page a form post led to (polled: the navigation may still be under way). */
  const notice = (page: BrowserPage["page"]) => page.locator(".notice").first().innerText().catch(() => "");

  it("creates the first staff user from the setup link, signs out and in, and makes an API key that works over REST", { timeout: 90_000 }, async () => {
    const link = (await setupAnnouncement(server.runtime))!.url;
    const { page, context, problems, screenshot } = await tab();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);

    await page.goto(new URL(link).pathname + new URL(link).search);
    await screenshot("admin-setup");
    await page.getByLabel("E-mail").fill(EMAIL);
    await page.getByLabel("Adgangskode", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Gentag adgangskoden").fill(PASSWORD);
    await page.getByRole("button", { name: "Opret og log ind" }).click();
    await page.waitForURL("**/admin");
    await expect.poll(() => notice(page)).toContain(`Velkommen, ${EMAIL}`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Overblik");

    await page.getByRole("button", { name: "Log ud" }).click();
    await page.waitForURL("**/admin/login");
    await expect.poll(() => notice(page)).toBe("Du er logget ud.");
    await page.getByLabel("E-mail").fill(EMAIL);
    await page.getByLabel("Adgangskode").fill("forkert kodeord");
    await page.getByRole("button", { name: "Log ind" }).click();
    await expect.poll(() => notice(page)).toBe("E-mail eller adgangskode er forkert.");
    await screenshot("admin-login-failed");
    await signIn(page);
    await screenshot("admin-dashboard");

    await page.getByRole("link", { name: "API-nøgler" }).click();
    await page.getByLabel("Navn").fill("Lagerstyring");
    await page.getByLabel("orders:read", { exact: true }).check();
    await page.getByLabel("catalog:read", { exact: true }).check();
    await screenshot("admin-api-keys");
    await page.getByRole("button", { name: "Opret nøgle" }).click();
    const key = await page.locator("#new-key").inputValue();
    expect(key).toMatch(/^shop_[A-Za-z0-9]{8}_\S+$/);
    await page.getByRole("button", { name: "Kopiér" }).click();
    await page.getByRole("button", { name: "Kopieret ✓" }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(key);
    await screenshot("admin-api-key-created");

    const listed = await server.call("orders.list", { limit: 1 }, { key });
    expect(listed.status).toBe(200);
    expect((await server.call("products.delete", { slug: "x", confirm: true }, { key })).status).toBe(403);
    await page.goto("/admin/api-keys");
    await page.getByRole("cell", { name: /Lagerstyring/ }).waitFor();
    expect(await page.content()).not.toContain(key);
    expect(problems).toEqual([]);
  });

  it("moves an order from paid through processing to shipped with tracking, with JavaScript off", { timeout: 90_000 }, async () => {
    const order = await createOrder(server, { status: "paid" });
    const { page, problems, screenshot } = await tab({ javaScript: false });
    await signIn(page);
    await page.getByRole("link", { name: "Ordrer", exact: true }).click();
    await page.getByLabel("Status").selectOption("paid");
    await page.getByRole("button", { name: "Filtrér" }).click();
    await page.getByRole("link", { name: `#${order.number}`, exact: true }).click();
    await expect.poll(() => page.locator("[data-status]").first().innerText()).toBe("Betalt");

    await page.getByRole("button", { name: "→ Behandles" }).click();
    await expect.poll(() => notice(page)).toBe("Ordren er nu behandles.");
    await expect.poll(() => page.locator("[data-status]").first().innerText()).toBe("Behandles");

    await page.getByLabel("Fragtfirma").fill("PostNord");
    await page.getByLabel("Trackingnummer").fill("00370712345678");
    await page.getByLabel("Tracking-link").fill("https://tracking.postnord.com/00370712345678");
    expect(await page.getByLabel("Markér ordren som afsendt").isChecked()).toBe(true);
    await page.getByRole("button", { name: "Gem forsendelse" }).click();
    await expect.poll(() => notice(page)).toBe("Forsendelsen er gemt, og ordren er afsendt.");
    await expect.poll(() => page.locator("[data-status]").first().innerText()).toBe("Afsendt");
    await expect.poll(() => page.locator(".timeline").innerText()).toContain("Status ændret fra Behandles til Afsendt af dig");
    expect(await page.locator(".timeline").innerText()).not.toMatch(/orders\.|staff:|→/);
    await screenshot("admin-order-shipped");
    await page.locator(".timeline").screenshot({ path: "test-artifacts/admin-order-history.png" });

    const stored = await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored).toMatchObject({ status: "shipped", carrier: "PostNord", trackingNumber: "00370712345678" });
    expect(problems).toEqual([]);
  });

  it("uploads a product image and edits variants without JavaScript; the slug of a new product fills from its name", { timeout: 90_000 }, async () => {
    const product = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, variants: { none: {} } }, orderBy: { slug: "desc" } });
    const { page, problems, screenshot } = await tab({ javaScript: false });
    await signIn(page);
    await page.goto(`/admin/products/${product.slug}`);
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 30, g: 110, b: 160 } } }).jpeg().toBuffer();
    await page.getByLabel("Læg et billede op").setInputFiles({ name: "forfra.jpg", mimeType: "image/jpeg", buffer: photo });
    await page.locator("#f-upload-alt").fill("Set forfra");
    await page.getByRole("button", { name: "Læg billede op" }).click();
    await expect.poll(() => notice(page)).toMatch(/^Billedet er lagt op \(1600 × 1200 px, \d+ i alt\)\.$/);
    await expect.poll(() => page.locator(".image-grid img[src*='/images/']").evaluate((element) => {
      const image = element as unknown as { complete: boolean; naturalWidth: number };
      return image.complete && image.naturalWidth;
    })).toBe(400);

    await page.locator("#vnew-sku").fill("TEST-M-SORT");
    await page.locator("#vnew-opt0-name").fill("Størrelse");
    await page.locator("#vnew-opt0-value").fill("M");
    await page.locator("#vnew-opt1-name").fill("Farve");
    await page.locator("#vnew-opt1-value").fill("Sort");
    await page.locator("#vnew-price").fill("899,50");
    await page.locator("#vnew-stock").fill("3");
    await page.getByRole("button", { name: "Tilføj variant" }).click();
    await expect.poll(() => notice(page)).toBe("Varianten TEST-M-SORT er oprettet.");
    await page.getByText("Ret TEST-M-SORT").click();
    await page.locator("#v0-stock").fill("7");
    await page.getByRole("button", { name: "Gem variant" }).click();
    await expect.poll(() => notice(page)).toBe("Varianten TEST-M-SORT er gemt.");
    await expect.poll(() => page.locator("#variants table").innerText()).toMatch(/TEST-M-SORT[\s\S]*899,50[\s\S]*7/);
    await page.locator("#images").scrollIntoViewIfNeeded();
    await screenshot("admin-product-editor");
    expect(problems).toEqual([]);

    const scripted = await tab();
    await signIn(scripted.page);
    await scripted.page.goto("/admin/products/new");
    await scripted.page.getByLabel("Navn").pressSequentially("Ærø Panto");
    await expect.poll(() => scripted.page.getByLabel("Adresse (slug)").inputValue()).toBe("aeroe-panto");
    await scripted.page.getByLabel("Adresse (slug)").fill("egen-adresse");
    await scripted.page.getByLabel("Navn").pressSequentially(" Grøn");
    expect(await scripted.page.getByLabel("Adresse (slug)").inputValue()).toBe("egen-adresse");
    expect(scripted.problems).toEqual([]);
  });

  it("changes a price that the storefront then shows, deletes the product and brings it back from the audit log", { timeout: 90_000 }, async () => {
    const product = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, variants: { none: {} } }, orderBy: { slug: "asc" } });
    const { page, problems, screenshot } = await tab();
    await signIn(page);

    await page.getByRole("link", { name: "Produkter" }).click();
    await page.getByLabel("Søg").fill(product.name);
    await page.getByRole("button", { name: "Søg", exact: true }).click();
    await page.getByRole("link", { name: product.name, exact: true }).click();
    await page.getByLabel("Pris i kr. inkl. moms").fill("1234");
    await page.getByRole("button", { name: "Gem ændringer" }).click();
    await expect.poll(() => notice(page)).toBe("Ændringerne er gemt.");
    await screenshot("admin-product");

    const productPage = `/products/${product.slug}`;
    await page.goto(productPage);
    await expect.poll(() => page.locator("main h1").innerText()).toBe(product.name);
    await expect.poll(() => page.locator("main").innerText()).toContain("1.234,00 kr.");

    await page.goto(`/admin/products/${product.slug}`);
    await page.getByLabel("Ja, slet produktet").check();
    await page.getByRole("button", { name: "Slet produkt" }).click();
    await page.waitForURL("**/admin/products");
    await expect.poll(() => notice(page)).toContain("Produktet er slettet");
    expect((await page.goto(productPage))?.status()).toBe(404);

    await page.goto("/admin");
    await page.getByRole("link", { name: "Ændringslog" }).click();
    await page.getByLabel("Emne").selectOption("product");
    await page.getByRole("button", { name: "Filtrér" }).click();
    await screenshot("admin-audit-log");
    const row = page.getByRole("row").filter({ hasText: "Slettede produkt" }).first();
    await row.getByRole("link").first().click();
    await expect.poll(() => page.locator("tr.changed").first().innerText()).toContain("Slettet");
    await screenshot("admin-audit-entry");
    await page.getByRole("button", { name: "Fortryd ændringen" }).click();
    await expect.poll(() => notice(page)).toBe("Produkt er gendannet.");
    await page.getByText(/Fortrudt .* af dig\./).waitFor();

    expect((await page.goto(productPage))?.status()).toBe(200);
    await expect.poll(() => page.locator("main h1").innerText()).toBe(product.name);
    await expect.poll(() => page.locator("main").innerText()).toContain("1.234,00 kr.");
    expect(problems).toEqual([]);
  });
  it("registers a webhook from its page, shows the secret once and logs the test event's delivery, also on a phone", { timeout: 90_000 }, async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { page, problems, screenshot } = await tab();
      await signIn(page);
      await page.getByRole("link", { name: "Webhooks" }).first().click();
      await page.getByLabel("Modtagerens URL").fill(`${receiver.url}/erp`);
      await page.getByLabel("order.paid", { exact: true }).check();
      await page.getByLabel("stock.low", { exact: true }).check();
      await screenshot("admin-webhooks");
      await page.getByRole("button", { name: /Opret/ }).click();
      const secret = await page.locator("#new-secret").inputValue();
      expect(secret).toMatch(/^whsec_/);
      receiver.trust("/erp", secret);
      await screenshot("admin-webhook-created");
      await page.getByRole("link", { name: "Til leveringsloggen" }).click();
      await page.getByRole("button", { name: "Send testhændelse" }).waitFor();
      const log = page.url();
      // The form posts and redirects back here; let that page load before reading it again.
      await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Send testhændelse" }).click()]);
      // Delivered and signed with the secret the page showed (the receiver verifies it).
      await expect.poll(() => receiver.at("/erp").some((delivery) => delivery.payload?.type === "webhook.test"), { timeout: 10_000 }).toBe(true);
      await page.goto(log);
      expect(await page.content()).not.toContain(secret);
      await screenshot("admin-webhook-log");
      expect(problems).toEqual([]);

      const phone = await openPage(browser, server.url, { width: 390, height: 844 });
      open.push(phone);
      await signIn(phone.page);
      await phone.page.goto("/admin/webhooks");
      await phone.screenshot("admin-webhooks-phone");
      const overflow = await phone.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow).toBeLessThanOrEqual(0);
      expect(phone.problems).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("answers a support ticket from the queue and closes it, also on a phone", { timeout: 90_000 }, async () => {
    const { page, problems, screenshot } = await tab();
    await signIn(page);
    await page.getByRole("link", { name: "Kundeservice" }).first().click();
    await page.getByRole("link", { name: "Hvornår kommer min pakke?" }).click();
    await page.getByLabel("Svar").fill("Pakken er sendt i dag med PostNord.\nDu får et sporingslink på mail.");
    await screenshot("admin-support-ticket");
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Send svar" }).click()]);
    await expect.poll(() => notice(page)).toBe("Svaret er sendt til kunden.");
    await expect.poll(() => page.locator(".message-staff").innerText()).toContain("Du får et sporingslink på mail.");
    await screenshot("admin-support-answered");
    expect(problems).toEqual([]);

    const phone = await openPage(browser, server.url, { width: 390, height: 844 });
    open.push(phone);
    await signIn(phone.page);
    await phone.page.goto("/admin/support?status=answered");
    await phone.page.getByRole("link", { name: "Hvornår kommer min pakke?" }).click();
    await phone.screenshot("admin-support-phone");
    const overflow = await phone.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await Promise.all([phone.page.waitForEvent("load"), phone.page.getByRole("button", { name: "Luk henvendelsen" }).click()]);
    await expect.poll(() => notice(phone.page)).toBe("Henvendelsen er lukket.");
    expect(phone.problems).toEqual([]);
  });

  it("approves a return and books an approved one received with its refund, without JavaScript, also on a phone", { timeout: 90_000 }, async () => {
    const { page, problems, screenshot } = await tab({ javaScript: false });
    await signIn(page);
    await page.getByRole("link", { name: "Returneringer" }).first().click();
    await page.getByRole("heading", { name: "Refusioner med frist" }).waitFor();
    await screenshot("admin-returns");
    await page.getByRole("link", { name: "R-RETURN-1" }).first().click();
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Godkend returneringen" }).click()]);
    await expect.poll(() => notice(page)).toContain("Returneringen er godkendt");

    await page.goto("/admin/returns/demo-return-2");
    await page.getByLabel("Reg.nr. og kontonr.").fill("1234 0012345678");
    await screenshot("admin-return-receive");
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Bogfør som modtaget" }).click()]);
    await expect.poll(() => notice(page)).toMatch(/Varen er modtaget, og [\d.,]+ kr\. er refunderet\./);
    await screenshot("admin-return-refunded");
    await page.goto("/admin/orders/demo-order-03");
    await page.locator("#returns").getByText("Refunderet").waitFor();
    await screenshot("admin-order-returns");
    expect(problems).toEqual([]);

    const phone = await openPage(browser, server.url, { width: 390, height: 844 });
    open.push(phone);
    await signIn(phone.page);
    await phone.page.goto("/admin/returns?status=approved");
    await phone.page.getByRole("link", { name: "R-RETURN-1" }).first().click();
    await phone.screenshot("admin-return-phone");
    const overflow = await phone.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    expect(phone.problems).toEqual([]);
  });

  it("issues a gift card and marks a bank-transfer refund paid out without JavaScript, also on a phone", { timeout: 90_000 }, async () => {
    const { page, problems, screenshot } = await tab({ javaScript: false });
    await signIn(page);
    await page.getByRole("link", { name: "Tilgodehavender" }).first().click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Tilgodehavender og gavekort");
    await page.getByLabel("Beløb i kr.").fill("300");
    await page.getByLabel("Send koden til").fill("gave.browser@example.dk");
    await page.getByLabel("Årsag").fill("Undskyld for ventetiden");
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Udsted gavekort" }).click()]);
    const code = await page.getByLabel("Gavekortets kode").inputValue();
    expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    await screenshot("admin-credit-issued");
    await page.getByRole("link", { name: "Tilbage til oversigten" }).click();
    await expect.poll(() => page.locator("body").innerText()).toContain(`…${code.slice(-4)}`);
    expect(await page.content()).not.toContain(code);
    await screenshot("admin-credit-refund-task");
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Markér som udbetalt" }).first().click()]);
    await expect.poll(() => notice(page)).toContain("er markeret som udbetalt");
    await screenshot("admin-credit");
    expect(problems).toEqual([]);

    const phone = await openPage(browser, server.url, { width: 390, height: 844 });
    open.push(phone);
    await signIn(phone.page);
    await phone.page.goto("/admin/credit");
    await phone.screenshot("admin-credit-phone");
    const overflow = await phone.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    expect(phone.problems).toEqual([]);
  });
});
