// The storefront chat widget in headless Chromium against the scripted OpenAI-compatible model: a shopper asks, sees
// the answer stream in with product cards, has the assistant fill the cart (the header badge follows without a
// reload), reloads and finds the conversation, confirms the checkout in the chat and gets the payment link; hostile
// model text stays text; and a shop without a model key says so. Screenshots of the open widget go to test-artifacts/.
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { CartSummary } from "../../src/tools/cart/schemas.ts";
import { formatMoney } from "../../src/web/html.ts";
import { ARTIFACTS_DIR, describeBrowser, launchBrowser, openPage } from "../support/browser.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { ADDRESS, plainProducts, type DemoProduct } from "../support/session.ts";

/** How long a poll waits for the chat (a turn runs the model, the tools and the socket round trips). */
const WAIT = { timeout: 10_000 };
const HOSTILE =
  "Se her: <img src=x onerror=alert(1)> <script>alert(2)</script> og [klik](javascript:alert(3)), [ud](//evil.example/x), " +
  "[også ud](/\\evil.example/x) men [kurven](/cart) slut.";

/** The open widget as the person sees it (the viewport, not the whole page: the panel is fixed to the screen). */
async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
}

function panel(page: Page) {
  return page.getByRole("dialog", { name: "Spørg vores AI-assistent" });
}

async function ask(page: Page, text: string): Promise<void> {
  const input = page.getByRole("textbox", { name: "Skriv til assistenten" });
  await input.fill(text);
  await input.press("Enter");
}

/** The number of assistant answers in the log, to wait for the next one. */
function answers(page: Page) {
  return page.locator(".chat-msg-assistant");
}

describeBrowser("storefront chat widget in a browser", () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let browser: Browser;
  let product: DemoProduct;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    [server, browser] = await Promise.all([
      startServer({ openaiApiKey: "sk-fake", openaiBaseUrl: fake.url, openaiApiStyle: "chat" }),
      launchBrowser(),
    ]);
    product = (await plainProducts(server, 5))[0]!;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  it("streams answers with product cards, fills the cart, survives a reload and checks out after the shopper confirms", async () => {
    // A token every 40 ms: the loop below reads the answer while it grows, one browser round trip per read, and on a
    // busy machine (the suite runs files in parallel) a faster answer was complete before the second read.
    fake.tokenDelayMs = 40;
    fake.on("solbriller").callTool("products_search", { q: product.name, limit: 3 }).say((req) => {
      const hits = req.lastToolResult<unknown[]>() ?? [];
      return `Jeg fandt **${hits.length}** par, der passer:\n- ${product.name} er et godt bud\n- spørg gerne om flere`;
    });
    fake.on("læg").callTool("cart_add", { productSlug: product.slug, quantity: 2 }).say((req) => `Nu er der ${req.lastToolResult<CartSummary>()!.itemCount} i kurven.`);
    fake.on("adresse").callTool("cart_set_shipping_address", ADDRESS).say("Adressen er gemt.");
    fake.on("bestil").callTool("cart_checkout", {}).say((req) => `Tak! [Betal her](${req.lastToolResult<{ paymentUrl: string }>()!.paymentUrl})`);
    fake.on("html").say(HOSTILE);

    const { page, problems, close } = await openPage(browser, server.url);
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      // A product page starts no session: the widget gets one itself before it connects.
      await page.goto(`/products/${product.slug}`);
      const toggle = page.getByRole("button", { name: "Chat", exact: true });
      await toggle.click();
      await expect.poll(() => toggle.getAttribute("aria-expanded"), WAIT).toBe("true");
      const input = page.getByRole("textbox", { name: "Skriv til assistenten" });
      await expect.poll(() => input.evaluate((node) => node === node.ownerDocument.activeElement), WAIT).toBe(true);
      // AI Act art. 50(1): the panel says plainly, before anything is asked, that an AI answers.
      expect(await panel(page).locator(".chat-disclosure").textContent()).toContain("Du skriver med en AI, ikke et menneske");

      await ask(page, "Har I nogle gode solbriller?");
      await expect.poll(() => panel(page).getByRole("button", { name: "Stop" }).isVisible(), WAIT).toBe(true);
      // Streaming: the answer is read while it grows, and is seen at several lengths before it is complete.
      const answer = answers(page).first();
      const seen = new Set<string>();
      for (let i = 0; i < 500 && ![...seen].some((text) => text.includes("spørg gerne om flere")); i++) {
        seen.add((await answer.locator(".chat-text").textContent({ timeout: 10_000 })) ?? "");
      }
      const lengths = [...seen].map((text) => text.length);
      expect(lengths.length).toBeGreaterThan(3);
      expect(await answer.locator(".chat-text strong").textContent()).toBe("1");
      expect(await answer.locator(".chat-text li").count()).toBe(2);
      expect(await answer.locator(".chat-tool").textContent()).toBe("Søgte i sortimentet");
      const card = answer.getByRole("link", { name: new RegExp(product.name) });
      expect(await card.getAttribute("href")).toBe(`/products/${product.slug}`);
      expect(await card.textContent()).toContain(formatMoney(product.priceDkk, "DKK"));
      await expect.poll(() => panel(page).getByRole("button", { name: "Stop" }).isHidden(), WAIT).toBe(true);
      expect(await page.locator("[data-chat-announce]").textContent()).toContain("spørg gerne om flere");

      // The assistant fills the cart; the header badge follows on the same page.
      let navigations = 0;
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
      await ask(page, "Læg to af dem i kurven");
      await expect.poll(() => answers(page).nth(1).locator(".chat-tool").textContent(), WAIT).toBe(`Lagt i kurven: ${product.name}`);
      await expect.poll(() => page.locator("[data-cart-count]").textContent(), WAIT).toBe("2");
      expect(await page.locator("[data-cart-count]").isVisible()).toBe(true);
      expect(navigations).toBe(0);
      await shoot(page, "chat-widget");

      // Reload: the panel is open again with the whole conversation.
      await page.reload();
      await expect.poll(() => answers(page).count(), WAIT).toBe(2);
      expect(await panel(page).isVisible()).toBe(true);
      expect(await page.locator(".chat-msg-user").first().textContent()).toContain("Har I nogle gode solbriller?");
      expect(await answers(page).first().getByRole("link", { name: new RegExp(product.name) }).isVisible()).toBe(true);
      expect(await page.locator("[data-cart-count]").textContent()).toBe("2");

      // Checkout waits for the shopper: the confirm card shows the total; confirming places the order.
      await ask(page, "Min adresse er Strøget 12, 1160 København K");
      await expect.poll(() => answers(page).nth(2).textContent(), WAIT).toContain("Adressen er gemt.");
      await ask(page, "Bestil den");
      const confirm = panel(page).getByRole("group", { name: "Skal vi oprette bestillingen?" });
      await expect.poll(() => confirm.isVisible(), WAIT).toBe(true);
      await expect.poll(() => page.locator("[data-chat-announce]").textContent(), WAIT).toContain("Bekræft eller afvis nedenfor.");
      const confirmText = (await confirm.textContent()) ?? "";
      await shoot(page, "chat-widget-confirm");
      await confirm.getByRole("button", { name: "Bekræft bestilling" }).click();
      const pay = panel(page).getByRole("link", { name: "Betal her" });
      await expect.poll(() => pay.count(), WAIT).toBe(1);
      const order = await server.prisma.order.findFirstOrThrow({ where: { items: { some: { productId: product.id } } }, orderBy: { createdAt: "desc" } });
      expect(order).toMatchObject({ channel: "chat", isAiGenerated: true });
      expect(confirmText).toContain(formatMoney(Number(order.totalDkk), "DKK"));
      expect(await pay.getAttribute("href")).toMatch(new RegExp(`/orders/${order.id}/pay\\?token=`));
      // The placed order carries its own payment button, whatever the model writes.
      const payButton = panel(page).getByRole("link", { name: "Gå til betaling" });
      expect(await payButton.getAttribute("href")).toBe(await pay.getAttribute("href"));
      expect(await answers(page).nth(3).locator(".chat-tool").textContent()).toBe("Bestillingen er oprettet");
      await expect.poll(() => page.locator("[data-cart-count]").isHidden(), WAIT).toBe(true);

      // Model text with markup stays text: no element, no script run, no javascript: link.
      await ask(page, "Vis mig noget html");
      const hostile = answers(page).nth(4);
      await expect.poll(() => hostile.textContent(), WAIT).toContain("slut.");
      expect(await hostile.locator(".chat-text").textContent()).toBe("Se her: <img src=x onerror=alert(1)> <script>alert(2)</script> og klik, ud, også ud men kurven slut.");
      expect(await hostile.locator("img, script").count()).toBe(0);
      // Only the path on this site became a link: javascript:, "//host" and "/\host" stay text.
      expect(await hostile.locator("a").evaluateAll((links) => links.map((link) => link.getAttribute("href")))).toEqual(["/cart"]);
      expect(await page.locator("#chat-root [href^='javascript:' i]").count()).toBe(0);
      expect(dialogs).toEqual([]);

      // Esc closes the panel and gives focus back to the button.
      await input.press("Escape");
      expect(await panel(page).isHidden()).toBe(true);
      expect(await toggle.evaluate((node) => node === node.ownerDocument.activeElement)).toBe(true);
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      expect(problems).toEqual([]);
    } finally {
      fake.tokenDelayMs = 0;
      await close();
    }
  });

  it("stops an answer, offers a retry when the model fails, and picks up an answer still running after a reload", async () => {
    const story = Array.from({ length: 60 }, (_, i) => `ord${i}`).join(" ") + " SLUT";
    fake.on("historie").say(story);
    let failures = 0;
    fake.on((req) => /nede/i.test(req.lastUserText ?? "") && failures++ < 2).fail(500, "model service down");
    fake.on("nede").say("Nu virker det igen.");
    const { page, problems, close } = await openPage(browser, server.url);
    try {
      await page.goto("/");
      await page.getByRole("button", { name: "Chat", exact: true }).click();

      fake.tokenDelayMs = 40;
      await ask(page, "Fortæl en lang historie");
      const first = answers(page).first();
      await expect.poll(() => first.locator(".chat-text").textContent(), WAIT).toContain("ord3");
      await panel(page).getByRole("button", { name: "Stop" }).click();
      await expect.poll(() => panel(page).getByRole("button", { name: "Send" }).isEnabled(), WAIT).toBe(true);
      expect(await panel(page).getByRole("button", { name: "Stop" }).isHidden()).toBe(true);
      await expect.poll(() => fake.requests.at(-1)!.aborted, WAIT).toBe(true);
      expect(await first.textContent()).not.toContain("SLUT");

      fake.tokenDelayMs = 0;
      await ask(page, "Er modellen nede?");
      const alert = panel(page).getByRole("alert");
      await expect.poll(() => alert.textContent(), WAIT).toContain("Noget gik galt. Prøv igen om lidt.");
      await alert.getByRole("button", { name: "Prøv igen" }).click();
      await expect.poll(() => answers(page).last().textContent(), WAIT).toContain("Nu virker det igen.");
      expect(await alert.isHidden()).toBe(true);
      expect(await page.locator(".chat-msg-user").count()).toBe(2);

      // A reload in the middle of an answer: the new page resumes the turn the server kept running.
      fake.tokenDelayMs = 40;
      await ask(page, "Den historie igen");
      await expect.poll(() => answers(page).last().textContent(), WAIT).toContain("ord3");
      await page.reload();
      await expect.poll(() => answers(page).last().textContent(), WAIT).toContain("SLUT");
      expect(await answers(page).filter({ hasText: "SLUT" }).count()).toBe(1);
      expect(await page.locator(".chat-msg-user").allTextContents()).toEqual(["Du: Fortæl en lang historie", "Du: Er modellen nede?", "Du: Den historie igen"]);
      expect(problems).toEqual([]);
    } finally {
      fake.tokenDelayMs = 0;
      await close();
    }
  });

  it("shows stock on product cards and adds one to the cart from a card; a sold-out product offers no button", async () => {
    const [inStock, soldOut] = await plainProducts(server, 5);
    const staff = await server.key("products:write");
    await server.call("products.adjust_stock", { slug: soldOut!.slug, set: 0, reason: "Test: udsolgt" }, { key: staff });
    fake.on("briller").callTools([{ name: "products_search", input: { q: soldOut!.name, limit: 1 } }, { name: "products_search", input: { q: inStock!.name, limit: 1 } }]).say("Her er hvad vi har.");
    const { page, problems, close } = await openPage(browser, server.url);
    try {
      await page.goto("/");
      await page.getByRole("button", { name: "Chat", exact: true }).click();
      await ask(page, "Vis mig briller");
      const answer = answers(page).first();
      await expect.poll(() => answer.textContent(), WAIT).toContain("Her er hvad vi har.");
      const cards = answer.locator(".chat-product");
      const names = await cards.locator(".chat-product-name").allTextContents();
      const soldOutCard = cards.nth(names.indexOf(soldOut!.name));
      const inStockCard = cards.nth(names.indexOf(inStock!.name));
      expect(names).toContain(soldOut!.name);
      expect(await soldOutCard.locator(".chat-product-stock").textContent()).toBe("Udsolgt");
      expect(await soldOutCard.getByRole("button").count()).toBe(0);
      expect(await inStockCard.locator(".chat-product-stock").textContent()).toMatch(/På lager|Kun \d+ på lager/);
      await inStockCard.getByRole("button", { name: `Læg ${inStock!.name} i kurven` }).click();
      await expect.poll(() => inStockCard.getByRole("button").textContent(), WAIT).toBe("Lagt i kurven");
      await expect.poll(() => page.locator("[data-cart-count]").textContent(), WAIT).toBe("1");
      await shoot(page, "chat-widget-cards");
      expect(problems).toEqual([]);
    } finally {
      await server.call("products.adjust_stock", { slug: soldOut!.slug, set: soldOut!.stock, reason: "Test: tilbage" }, { key: staff });
      await close();
    }
  });

  it("fits a phone screen and starts a new conversation on request", async () => {
    fake.on("solbriller").callTool("products_search", { q: product.name, limit: 4 }).say("Her er et par forslag.");
    const phone = await openPage(browser, server.url, { width: 390, height: 844 });
    try {
      await phone.page.goto("/");
      await phone.page.getByRole("button", { name: "Chat", exact: true }).click();
      await ask(phone.page, "Solbriller til en lille pris?");
      await expect.poll(() => answers(phone.page).first().textContent(), WAIT).toContain("Her er et par forslag.");
      const box = await panel(phone.page).boundingBox();
      expect(box).toMatchObject({ x: 0, width: 390 });
      expect(await phone.page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(390);
      await shoot(phone.page, "chat-widget-phone");
      // The panel covers the page: Tab goes round inside it, never to the page behind.
      for (let step = 0; step < 8; step++) {
        await phone.page.keyboard.press(step % 2 ? "Shift+Tab" : "Tab");
        await phone.page.keyboard.press("Tab");
        expect(await panel(phone.page).evaluate((node) => node.contains(node.ownerDocument.activeElement))).toBe(true);
      }

      await panel(phone.page).getByRole("button", { name: "Ny samtale" }).click();
      expect(await answers(phone.page).count()).toBe(0);
      await phone.page.reload();
      await expect.poll(() => panel(phone.page).isVisible(), WAIT).toBe(true);
      await expect.poll(() => panel(phone.page).getByRole("textbox", { name: "Skriv til assistenten" }).isVisible(), WAIT).toBe(true);
      expect(await phone.page.locator(".chat-msg").count()).toBe(0);
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});

describeBrowser("storefront chat widget without a model", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ openaiApiKey: undefined }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("still shows the chat button, and the panel says the assistant is not switched on instead of offering a text box", async () => {
    const { page, problems, close } = await openPage(browser, server.url);
    try {
      // The chat panel (the AI SDK and socket.io) is loaded at the first click, not with every page.
      const panelScripts: string[] = [];
      page.on("request", (request) => {
        if (/\/assets\/chat-panel\./.test(request.url())) panelScripts.push(request.url());
      });
      await page.goto("/");
      expect(panelScripts).toEqual([]);
      await page.getByRole("button", { name: "Chat", exact: true }).click();
      await expect.poll(() => panelScripts.length, WAIT).toBe(1);
      const note = panel(page).getByText("Vores chatassistent er ikke slået til lige nu.", { exact: false });
      await expect.poll(() => note.isVisible(), WAIT).toBe(true);
      expect(await panel(page).getByRole("textbox").count()).toBe(0);
      await expect.poll(() => note.evaluate((node) => node === node.ownerDocument.activeElement), WAIT).toBe(true);
      await shoot(page, "chat-widget-not-configured");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
