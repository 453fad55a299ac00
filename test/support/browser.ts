// Headless Chromium for browser tests (playwright-core, the system Chromium): one browser per test file, pages that
// record console errors and CSP violations, no network beyond the test server, screenshots under test-artifacts/.
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { describe, it } from "vitest";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];
/** Screenshots of the main pages, kept as test artefacts (gitignored), to look at. */
export const ARTIFACTS_DIR = path.resolve("test-artifacts");

export function chromiumAvailable(): boolean {
  try {
    fs.accessSync(CHROMIUM_PATH, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `describe` for browser tests. Without Chromium they are skipped on a developer machine, but under CI=true they
 * fail loudly: a missing browser must never pass as green.
 */
export function describeBrowser(title: string, body: () => void): void {
  if (chromiumAvailable()) {
    describe(title, body);
  } else if (process.env.CI) {
    describe(title, () => {
      it("has Chromium to run in", () => {
        throw new Error(`Chromium is missing at ${CHROMIUM_PATH}; .ci/run installs it (apt-get install -y chromium).`);
      });
    });
  } else {
    describe.skip(`${title} (Chromium not installed at ${CHROMIUM_PATH})`, body);
  }
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, headless: true });
}

export interface BrowserPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, uncaught exceptions and CSP violations seen so far (failed image loads are not problems). */
  problems: string[];
  /** Saves a full-page screenshot as test-artifacts/<name>.png. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface PageOptions {
  /** Viewport width in CSS pixels (default 1280; 390 for a phone). */
  width?: number;
  height?: number;
  javaScript?: boolean;
  /** A phone: touch, a mobile viewport and a dense screen, as Chromium's device emulation has them. */
  phone?: boolean;
}

/**
 * A fresh context (own cookies) on the test server: requests to any other origin are aborted, so product photos on
 * outside hosts fail at once and deterministically, as they do offline.
 */
export async function openPage(browser: Browser, baseUrl: string, options: PageOptions = {}): Promise<BrowserPage> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    javaScriptEnabled: options.javaScript ?? true,
    ...(options.phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 3 } : {}),
    locale: "da-DK",
  });
  const origin = new URL(baseUrl).origin;
  await context.route((url) => url.origin !== origin, (route) => route.abort());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (/^Failed to load resource/.test(text)) return;
    problems.push(text);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return {
    page,
    context,
    problems,
    async screenshot(name) {
      fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const file = path.join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    close: () => context.close(),
  };
}

/** Signs a staff user in through the admin's login form, as a person would, and waits for the dashboard. */
export async function signInToAdmin(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/admin/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Adgangskode").fill(password);
  await page.getByRole("button", { name: "Log ind" }).click();
  await page.waitForURL("**/admin");
}
