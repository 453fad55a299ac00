// The shared web infrastructure over real HTTP: security headers, the html tag, CSRF tokens, hashed assets and error pages.
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { Csrf, crossSite } from "../../src/web/csrf.ts";
import { html, jsonScript, raw } from "../../src/web/html.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();

function expectSecurityHeaders(headers: Headers): void {
  const csp = headers.get("content-security-policy") ?? "";
  for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"]) {
    expect(csp).toContain(directive);
  }
  expect(csp).not.toContain("unsafe-inline");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
}

describe("html tag", () => {
  it("escapes interpolated text and keeps nested markup", () => {
    const name = `<b>"Tom" & 'Jerry'</b>`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe("<p title=\"&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;\">&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;</p>");
    expect(html`<ul>${["a<", "b"].map((item) => html`<li>${item}</li>`)}</ul>`.value).toBe("<ul><li>a&lt;</li><li>b</li></ul>");
    expect(html`${null}${undefined}${false}${0}${raw("<br>")}`.value).toBe("0<br>");
  });

  it("makes JSON safe inside a script element", () => {
    expect(jsonScript({ name: "</script><script>alert(1)</script>" }).value).not.toContain("<");
  });
});

describe("CSRF tokens", () => {
  const csrf = new Csrf("a-test-secret-of-enough-length");
  const now = Date.UTC(2026, 0, 1);

  it("verifies a token for its session and purpose only", () => {
    const token = csrf.token("session-a", "storefront", now);
    expect(csrf.verify("session-a", "storefront", token, now + 60_000)).toBe(true);
    expect(csrf.verify("session-b", "storefront", token, now)).toBe(false);
    expect(csrf.verify("session-a", "admin", token, now)).toBe(false);
    expect(new Csrf("another-secret-of-enough-length").verify("session-a", "storefront", token, now)).toBe(false);
  });

  it("refuses expired, tampered and malformed tokens", () => {
    const token = csrf.token("s", "p", now);
    expect(csrf.verify("s", "p", token, now + 25 * 3600_000)).toBe(false);
    const [issued, mac] = token.split(".");
    expect(csrf.verify("s", "p", `${issued}.${mac!.slice(0, -2)}AA`, now)).toBe(false);
    expect(csrf.verify("s", "p", `${(parseInt(issued!, 36) + 10).toString(36)}.${mac}`, now)).toBe(false);
    for (const bad of [undefined, "", ".", "x", "zz.zz", 42, "a".repeat(300)]) expect(csrf.verify("s", "p", bad, now)).toBe(false);
  });

  it("tells cross-site requests by Fetch Metadata, else by Origin", () => {
    const request = (headers: Record<string, string>) => ({ headers: { host: "shop.test", ...headers }, protocol: "https" }) as unknown as Request;
    expect(crossSite(request({ "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(crossSite(request({ "sec-fetch-site": "none" }))).toBe(false);
    expect(crossSite(request({ "sec-fetch-site": "cross-site", origin: "https://shop.test" }))).toBe(true);
    expect(crossSite(request({ "sec-fetch-site": "same-site" }))).toBe(true);
    expect(crossSite(request({ origin: "https://shop.test" }))).toBe(false);
    expect(crossSite(request({ origin: "https://evil.test" }))).toBe(true);
    expect(crossSite(request({ origin: "null" }))).toBe(true);
    expect(crossSite(request({ origin: "https://www.shop.dk" }), "https://www.shop.dk")).toBe(false);
    expect(crossSite(request({}))).toBe(false);
  });
});

describe("assets", () => {
  it("serves the stylesheet and scripts under hashed names with immutable caching, gzipped on request", async () => {
    const page = await (await fetch(`${server.url}/services`)).text();
    const links = [...page.matchAll(/(?:href|src)="(\/assets\/[\w.-]+)"/g)].map((match) => match[1]!);
    expect(links.some((link) => /^\/assets\/site\.[0-9a-f]{12}\.css$/.test(link))).toBe(true);
    expect(links.some((link) => /^\/assets\/site\.[0-9a-f]{12}\.js$/.test(link))).toBe(true);
    expect(links.some((link) => /^\/assets\/storefront\.[0-9a-f]{12}\.js$/.test(link))).toBe(true);
    for (const link of links) {
      const response = await fetch(`${server.url}${link}`);
      expect(response.status, link).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-encoding")).toBe("gzip");
      expect((await response.text()).length).toBeGreaterThan(50);
    }
    const css = links.find((link) => link.endsWith(".css"))!;
    const plain = await fetch(`${server.url}${css}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await plain.text()).toContain(".product-card");
  });

  it("answers 404 for unknown or outdated asset names", async () => {
    for (const path of ["/assets/site.000000000000.css", "/assets/site.css", "/assets/..%2Fpackage.json"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("cache-control")).toBeNull();
    }
  });
});

describe("HTML responses", () => {
  it("answers HEAD with the page's headers and no body", async () => {
    const get = await fetch(`${server.url}/services`);
    const head = await fetch(`${server.url}/services`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expectSecurityHeaders(head.headers);
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(await get.text())));
    expect(await head.text()).toBe("");
  });
});

describe("error pages", () => {
  it("answers unknown paths with the 404 page in the layout, with the security headers", async () => {
    const response = await fetch(`${server.url}/findes/ikke?x=<script>`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expectSecurityHeaders(response.headers);
    const body = await response.text();
    expect(body).toContain("Siden findes ikke");
    expect(body).toContain('class="site-header"');
    expect(body).not.toContain("<script>");
  });

  it("never shows a stack trace: a failing page answers 500 with a request id", async () => {
    const prisma = server.prisma;
    const original = prisma.serviceOffering.findMany.bind(prisma.serviceOffering);
    prisma.serviceOffering.findMany = (() => Promise.reject(new Error("boom at /secret/file.ts:12"))) as unknown as typeof prisma.serviceOffering.findMany;
    try {
      const response = await fetch(`${server.url}/services`, { headers: { "x-request-id": "req-500-test" } });
      expect(response.status).toBe(500);
      expectSecurityHeaders(response.headers);
      const body = await response.text();
      expect(body).toContain("req-500-test");
      expect(body).not.toMatch(/boom|secret|\.ts:/);
    } finally {
      prisma.serviceOffering.findMany = original;
    }
  });

  it("answers an undecodable address with the 400 page, not a JSON problem", async () => {
    for (const path of ["/info/%E0%A4%A", "/products/%E0%A4%A"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expectSecurityHeaders(response.headers);
      expect(await response.text()).toContain("Ugyldig forespørgsel");
    }
  });

  it("sends the security headers on the payment page, and 404 for a forged link", async () => {
    const response = await fetch(`${server.url}/orders/nope/pay?token=forged`);
    expect(response.status).toBe(404);
    expectSecurityHeaders(response.headers);
  });
});
