// An app's OAuth authorization in headless Chromium, on a desktop and a 390×844 phone: the admin's sign-in, then the
// Danish consent page naming the app, a scope unticked, and the browser sent back to the app with a code. Screenshots
// in test-artifacts/ (oauth-sign-in*, oauth-consent*); no console errors or CSP violations (form-action included).
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { staffUser } from "../../support/admin.ts";
import { describeBrowser, launchBrowser, openPage, type PageOptions } from "../../support/browser.ts";
import { freePort, useServer, type StartOptions } from "../../support/server.ts";

const EMAIL = "ejer@nordlys.dk";
const PASSWORD = "briller i nordisk lys";
const REDIRECT = "http://127.0.0.1:9/callback";

describeBrowser("an app's OAuth sign-in and consent in a browser", () => {
  const start: StartOptions = {};
  let base = "";
  beforeAll(async () => {
    start.port = await freePort();
    base = `http://127.0.0.1:${start.port}`;
  });
  const { server } = useServer({ config: () => ({ publicBaseUrl: base, oauthLoopbackClientIds: true }), start });
  let browser: Browser;
  let documents: http.Server;
  let clientId = "";

  beforeAll(async () => {
    documents = http.createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ client_id: clientId, client_name: "Claude", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }));
    });
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
    clientId = `http://127.0.0.1:${(documents.address() as AddressInfo).port}/client.json`;
    browser = await launchBrowser();
    await staffUser(server, EMAIL, ["orders:read", "orders:write", "catalog:read", "support:read"], PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => documents?.close(() => resolve()));
  });

  const authorizationUrl = () => {
    const challenge = crypto.createHash("sha256").update(crypto.randomBytes(32).toString("base64url")).digest("base64url");
    const params = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, scope: "orders:read orders:write catalog:read keys:write", code_challenge: challenge, code_challenge_method: "S256", resource: `${base}/api/mcp`, state: "s1" };
    return `/oauth/authorize?${new URLSearchParams(params)}`;
  };

  const screens: Array<[string, PageOptions]> = [
    ["", {}],
    ["-phone", { width: 390, height: 844, phone: true }],
  ];
  for (const [suffix, options] of screens) {
    it(`signs in and consents${suffix ? " on a phone" : ""}`, { timeout: 90_000 }, async () => {
      const tab = await openPage(browser, server.url, options);
      try {
        const { page, problems, screenshot } = tab;
        await page.goto(authorizationUrl());
        await page.waitForURL("**/admin/login?next=*");
        await screenshot(`oauth-sign-in${suffix}`);
        await page.getByLabel("E-mail").fill(EMAIL);
        await page.getByLabel("Adgangskode").fill(PASSWORD);
        await page.getByRole("button", { name: "Log ind" }).click();
        await page.waitForURL("**/admin/oauth/*");
        await page.getByRole("heading", { level: 1, name: "Claude vil have adgang til butikken" }).waitFor();
        expect(await page.getByLabel("Læse ordrer og deres historik").isChecked()).toBe(true);
        // keys:write is not the user's: it is named, not offered.
        expect(await page.getByLabel("Oprette, tilbagekalde og ændre API-nøgler, med adgange man selv har").count()).toBe(0);
        await page.getByLabel("Oprette og behandle ordrer: status, forsendelse, refusion").uncheck();
        await screenshot(`oauth-consent${suffix}`);
        const back = page.waitForRequest((request) => request.url().startsWith(REDIRECT));
        await page.getByRole("button", { name: "Giv adgang" }).click();
        const callback = new URL((await back).url());
        expect(callback.searchParams.get("code")).toBeTruthy();
        expect(callback.searchParams.get("state")).toBe("s1");
        expect(problems).toEqual([]);
      } finally {
        await tab.close();
      }
    });
  }
});
