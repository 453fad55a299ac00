// A shopper's OAuth authorization in headless Chromium, on a desktop and a 390×844 phone: the storefront's e-mail code
// sign-in (the page says an app is asking), then the Danish consent page naming the app, a scope unticked, and the
// browser sent back to the app with a code; "Forbundne apps" on /account then lists it. Screenshots in test-artifacts/
// (shopper-oauth-*); no console errors or CSP violations (form-action to the app's redirect included).
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ARTIFACTS_DIR, describeBrowser, launchBrowser, openPage, type PageOptions } from "../support/browser.ts";
import { freePort, useServer, type StartOptions } from "../support/server.ts";
import { startSmtp, type SmtpCapture } from "../support/smtp-capture.ts";

const REDIRECT = "http://127.0.0.1:9/callback";

describeBrowser("a shopper's OAuth sign-in and consent in a browser", () => {
  const start: StartOptions = {};
  let base = "";
  let smtp: SmtpCapture;
  beforeAll(async () => {
    smtp = await startSmtp();
    start.port = await freePort();
    base = `http://127.0.0.1:${start.port}`;
  });
  const { server } = useServer({ config: () => ({ publicBaseUrl: base, oauthLoopbackClientIds: true, smtpUrl: smtp.url }), start });
  let browser: Browser;
  let documents: http.Server;
  let clientId = "";
  let email = "";

  beforeAll(async () => {
    documents = http.createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ client_id: clientId, client_name: "Indkøbsassistent", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }));
    });
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
    clientId = `http://127.0.0.1:${(documents.address() as AddressInfo).port}/client.json`;
    browser = await launchBrowser();
    const order = await server.prisma.order.findFirstOrThrow({ where: { userId: { not: null } }, select: { email: true } });
    email = order.email;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await smtp?.close();
    await new Promise<void>((resolve) => documents?.close(() => resolve()));
  });

  const authorizationUrl = () => {
    const challenge = crypto.createHash("sha256").update(crypto.randomBytes(32).toString("base64url")).digest("base64url");
    const params = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, scope: "shopper:cart shopper:orders shopper:returns shopper:addresses", code_challenge: challenge, code_challenge_method: "S256", state: "s1" };
    return `/oauth/authorize?${new URLSearchParams(params)}`;
  };

  const screens: Array<[string, PageOptions]> = [
    ["", {}],
    ["-phone", { width: 390, height: 844, phone: true }],
  ];
  for (const [suffix, options] of screens) {
    it(`signs in by e-mail code and consents${suffix ? " on a phone" : ""}`, { timeout: 90_000 }, async () => {
      const tab = await openPage(browser, server.url, options);
      try {
        const { page, problems, screenshot } = tab;
        await page.goto(authorizationUrl());
        await page.waitForURL("**/account/oauth/*");
        await page.getByText("Indkøbsassistent beder om adgang til din konto").waitFor();
        await screenshot(`shopper-oauth-sign-in${suffix}`);
        const seen = new Set(smtp.messages);
        await page.locator("#f-email").fill(email);
        await page.getByRole("button", { name: "Send mig en kode" }).click();
        const mail = await smtp.waitFor((message) => message.to.includes(email) && !seen.has(message));
        await page.getByLabel("Kode").fill(/Din login-kode: (\d{6})/.exec(mail.raw)![1]!);
        await page.getByRole("button", { name: "Log ind" }).click();
        await page.getByRole("heading", { level: 1, name: "Indkøbsassistent vil have adgang til din konto" }).waitFor();
        expect(await page.getByLabel("Se dine ordrer, og ændre eller annullere dem, mens det kan lade sig gøre").isChecked()).toBe(true);
        await page.getByLabel("Se og ændre din adressebog").uncheck();
        await screenshot(`shopper-oauth-consent${suffix}`);
        const back = page.waitForRequest((request) => request.url().startsWith(REDIRECT));
        await page.getByRole("button", { name: "Giv adgang" }).click();
        const callback = new URL((await back).url());
        expect(callback.searchParams.get("code")).toBeTruthy();
        expect(callback.searchParams.get("state")).toBe("s1");
        // The same browser's account page (a new tab: the first one is on its way to the app) lists the app.
        const account = await tab.context.newPage();
        await account.goto(`${server.url}/account`);
        await account.getByRole("heading", { level: 2, name: "Forbundne apps" }).waitFor();
        await account.locator("#apps").screenshot({ path: path.join(ARTIFACTS_DIR, `shopper-oauth-apps${suffix}.png`) });
        expect(await account.locator("#apps").textContent()).not.toContain("adressebog");
        expect(problems).toEqual([]);
      } finally {
        await tab.close();
      }
    });
  }
});
