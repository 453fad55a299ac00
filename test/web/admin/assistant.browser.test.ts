// The admin assistant page in headless Chromium against a scripted model: a discount deletion waits on an approval
// card (denied: the code stays; approved: it is gone and audited with the staff user as actor; refused by the shop: the
// problem is shown), a read runs without a card and shows its result as a table, an earlier chat reopens on a phone,
// and a shop without a model says so.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { staffUser } from "../../support/admin.ts";
import { describeBrowser, launchBrowser, openPage, type BrowserPage, signInToAdmin } from "../../support/browser.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.ts";
import { startServer, type TestServer } from "../../support/server.ts";

const EMAIL = "assistent@nordlys.dk";
const PASSWORD = "briller i nordisk lys";
const CODE = "SOMMER200";

describeBrowser("the admin assistant page in a browser", () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let unconfigured: TestServer;
  let browser: Browser;
  const open: BrowserPage[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    [server, unconfigured, browser] = await Promise.all([
      startServer({ openaiApiKey: "sk-fake", openaiBaseUrl: fake.url, openaiApiStyle: "chat" }),
      startServer({ openaiApiKey: undefined }),
      launchBrowser(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((tab) => tab.close()));
    await browser?.close();
    await Promise.all([server?.close(), unconfigured?.close()]);
    await fake?.close();
  });
  beforeEach(() => {
    fake.reset();
    fake.tokenDelayMs = 0;
  });

  /** A tab signed in as the staff user (created on that shop when missing), on the assistant page with the chat ready. */
  async function assistantTab(shop: TestServer, width?: number): Promise<BrowserPage> {
    const tab = await openPage(browser, shop.url, { width });
    open.push(tab);
    if (!(await shop.prisma.adminUser.findUnique({ where: { email: EMAIL } }))) await staffUser(shop, EMAIL, ["*"], PASSWORD);
    const { page } = tab;
    await signInToAdmin(page, EMAIL, PASSWORD);
    await page.getByRole("link", { name: "Assistent" }).click();
    await page.waitForURL("**/admin/assistant");
    await page.getByRole("heading", { name: "Samtaler" }).waitFor();
    return tab;
  }

  async function ask(page: Page, text: string): Promise<void> {
    await expect.poll(() => page.getByRole("button", { name: "Send" }).isEnabled()).toBe(true);
    await page.getByLabel("Besked til assistenten").fill(text);
    await page.getByLabel("Besked til assistenten").press("Enter");
  }

  const discount = async (key: string) => (await server.call("discounts.get", { code: CODE }, { key })).status;

  it("asks before deleting a discount: Afvis keeps it, Godkend deletes it (audited as the staff user), a refusal is shown", { timeout: 90_000 }, async () => {
    fake
      .on(/slet rabatkoden/i)
      .callTool("discounts_delete", (request) => ({ code: request.lastUserText.split(" ").at(-1), confirm: true }))
      .say((request) => (request.lastToolResult<{ ok?: boolean }>()?.ok ? `Rabatkoden ${CODE} er slettet.` : "Jeg lod rabatkoden være."));
    const key = await server.key("discounts:read", "audit:read");
    expect(await discount(key)).toBe(200);
    const { page, problems, screenshot } = await assistantTab(server);

    await ask(page, `Slet rabatkoden ${CODE}`);
    const asking = page.locator('.tool-card[data-state="approval-requested"]');
    await asking.waitFor();
    await expect.poll(() => asking.locator(".tool-name").innerText()).toBe("discounts.delete");
    expect(await asking.locator("dl").innerText()).toMatch(new RegExp(`Kode\\s+${CODE}\\s+confirm\\s+ja`));
    await screenshot("admin-assistant-approval");
    await asking.getByRole("button", { name: "Afvis" }).click();

    const denied = page.locator('.tool-card[data-tool="discounts.delete"]').first();
    await expect.poll(() => denied.getAttribute("data-state")).toBe("output-denied");
    await expect.poll(() => denied.locator(".tag").innerText()).toBe("Afvist af dig");
    await page.getByText("Jeg lod rabatkoden være.").waitFor();
    expect(await discount(key)).toBe(200);

    await ask(page, `Slet rabatkoden ${CODE}`);
    await asking.waitFor();
    await asking.getByRole("button", { name: "Godkend" }).click();
    const done = page.locator('.tool-card[data-tool="discounts.delete"]').nth(1);
    await expect.poll(() => done.getAttribute("data-state")).toBe("output-available");
    await expect.poll(() => done.locator(".tag").innerText()).toBe("Udført");
    await page.getByText(`Rabatkoden ${CODE} er slettet.`).waitFor();
    expect(await discount(key)).toBe(404);

    await ask(page, "Slet rabatkoden FINDESIKKE");
    await asking.getByRole("button", { name: "Godkend" }).click();
    const refused = page.locator('.tool-card[data-tool="discounts.delete"]').nth(2);
    await expect.poll(() => refused.getAttribute("data-state")).toBe("output-error");
    await expect.poll(() => refused.locator(".tag").innerText()).toBe("Ikke udført");
    expect(await refused.locator(".tool-problem").innerText()).toMatch(/^Not found\s+No discount code "FINDESIKKE"\.$/);
    await page.getByText("Jeg lod rabatkoden være.").nth(1).waitFor();
    await screenshot("admin-assistant-decided");

    // The turn is stored before its stream ends; Stop goes away when it has ended.
    await expect.poll(() => page.getByRole("button", { name: "Stop" }).isHidden()).toBe(true);
    await page.reload();
    const reopened = page.locator('.tool-card[data-tool="discounts.delete"]');
    await expect.poll(() => reopened.evaluateAll((cards) => cards.map((card) => card.getAttribute("data-state")))).toEqual(["output-denied", "output-available", "output-error"]);
    expect(await page.locator(".chat-list-item[aria-current=true]").innerText()).toContain(`Slet rabatkoden ${CODE}`);

    const staffId = (await server.prisma.adminUser.findUniqueOrThrow({ where: { email: EMAIL } })).id;
    const audit = await server.call("audit.list", { tool: "discounts.delete" }, { key });
    expect(audit.body.result).toMatchObject([{ tool: "discounts.delete", actor: `staff:${staffId}`, door: "admin-assistant", agent: "admin-assistant" }]);
    // Still as stored a moment after the reload: nothing replayed over it, no error.
    expect(await reopened.evaluateAll((cards) => cards.map((card) => card.getAttribute("data-state")))).toEqual(["output-denied", "output-available", "output-error"]);
    expect(await page.locator(".assistant-note").isHidden()).toBe(true);
    expect(problems).toEqual([]);

    const phone = await assistantTab(server, 390);
    await phone.page.locator(".chat-list-item", { hasText: `Slet rabatkoden ${CODE}` }).click();
    await phone.page.locator('.tool-card[data-state="output-error"]').waitFor();
    await phone.screenshot("admin-assistant-phone-decided");
    expect(phone.problems).toEqual([]);
  });

  it("runs reads without an approval card, shows a list as a table and a record as a definition list, and reopens the chat on a phone", { timeout: 90_000 }, async () => {
    fake.on(/seneste ordrer/i).callTool("orders_list", { limit: 5 }).say("Her er de **fem** seneste ordrer.");
    fake.on(/salget/i).callTool("analytics_summary", {}).say("Sådan gik salget.");
    const { page, problems, screenshot } = await assistantTab(server);
    await page.getByRole("button", { name: "Ny samtale" }).click();
    await page.getByRole("button", { name: "Vis de 5 seneste ordrer" }).click();
    await page.getByRole("button", { name: "Send" }).click();

    const card = page.locator('.tool-card[data-tool="orders.list"]');
    await expect.poll(() => card.getAttribute("data-state")).toBe("output-available");
    await page.locator(".chat-text strong", { hasText: "fem" }).waitFor();
    expect(await page.locator(".tool-card-write").count()).toBe(0);
    expect(await card.getByRole("button", { name: "Godkend" }).count()).toBe(0);
    const table = card.locator("table");
    expect(await table.locator("tbody tr").count()).toBe(5);
    expect(await table.locator("thead th").allTextContents()).toEqual(expect.arrayContaining(["E-mail", "Status", "Total", "Oprettet"]));
    const total = await table.locator("tbody tr").first().locator("td").nth(await columnIndex(table, "Total")).innerText();
    expect(total).toMatch(/^\d{1,3}(\.\d{3})*,\d{2}\s+kr\.$/);

    await ask(page, "Hvordan gik salget de sidste 7 dage?");
    const summary = page.locator('.tool-card[data-tool="analytics.summary"]');
    await expect.poll(() => summary.getAttribute("data-state")).toBe("output-available");
    await page.getByText("Sådan gik salget.").waitFor();
    const facts = await summary.locator(".tool-value > dl").innerText();
    expect(facts).toMatch(/Omsætning\s+\d{1,3}(\.\d{3})*,\d{2}\s+kr\./);
    expect(facts).toMatch(/Andel via AI\s+\d+(,\d)?\s+%/);
    expect(await page.locator(".tool-card-write").count()).toBe(0);
    await screenshot("admin-assistant-read");
    expect(problems).toEqual([]);

    const phone = await assistantTab(server, 390);
    await phone.page.locator(".chat-list-item", { hasText: "seneste ordrer" }).click();
    await phone.page.locator('.tool-card[data-tool="orders.list"] tbody tr').nth(4).waitFor();
    await phone.page.getByText("fem", { exact: true }).waitFor();
    await phone.screenshot("admin-assistant-phone");
    expect(phone.problems).toEqual([]);
  });

  it("stops a streaming answer with the Stop button and keeps what was written", { timeout: 60_000 }, async () => {
    fake.tokenDelayMs = 60;
    fake.on("fortæl").say("Det var engang en butik med briller i nordisk lys, som solgte og solgte og solgte og solgte og solgte og solgte og solgte og solgte hele vinteren lang.");
    const { page, problems } = await assistantTab(server);
    await page.getByRole("button", { name: "Ny samtale" }).click();
    await ask(page, "Fortæl en lang historie");
    await page.getByText("Det var engang").waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Stop" }).isHidden()).toBe(true);
    await expect.poll(() => fake.requests.at(-1)?.aborted).toBe(true);
    const kept = await page.locator(".chat-message-assistant .chat-text").innerText();
    expect(kept).toMatch(/^Det var engang/);
    expect(kept).not.toContain("vinteren lang.");
    expect(await page.getByRole("button", { name: "Send" }).isEnabled()).toBe(true);
    expect(problems).toEqual([]);
  });

  it("says so when the shop has no language model, or the assistant is switched off, and offers no way to send", { timeout: 60_000 }, async () => {
    const { page, problems, screenshot } = await assistantTab(unconfigured);
    const note = page.locator(".assistant-note");
    await expect.poll(() => note.innerText()).toContain("Assistenten er ikke sat op");
    expect(await page.getByLabel("Besked til assistenten").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    await screenshot("admin-assistant-not-configured");
    expect(problems).toEqual([]);

    const key = await server.key("features:write");
    const switchOff = (enabled: boolean) => server.call("settings.set_feature", { key: "admin_assistant", enabled }, { key });
    expect((await switchOff(false)).status).toBe(200);
    try {
      const off = await assistantTab(server);
      const offNote = off.page.locator(".assistant-note");
      await expect.poll(() => offNote.innerText()).toContain("Assistenten er slået fra");
      expect(await offNote.getByRole("link", { name: "Gå til indstillinger" }).getAttribute("href")).toBe("/admin/settings");
      expect(await off.page.getByLabel("Besked til assistenten").isDisabled()).toBe(true);
      expect(off.problems).toEqual([]);
    } finally {
      await switchOff(true);
    }
  });
});

/** The position of a column by its header text. */
async function columnIndex(table: ReturnType<Page["locator"]>, header: string): Promise<number> {
  const headers = await table.locator("thead th").allTextContents();
  const index = headers.indexOf(header);
  if (index < 0) throw new Error(`no column ${header} in ${headers.join(", ")}`);
  return index;
}
