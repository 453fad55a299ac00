// A form-posting web client for page tests without a browser: a cookie jar, the CSRF token of the last page, and
// redirects returned (not followed) so tests see each 303.
import { expect } from "vitest";
import type { TestServer } from "./server.ts";

export interface WebResponse {
  status: number;
  headers: Headers;
  html: string;
  /** The Location header of a redirect, else null. */
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** The CSRF token of the last page fetched that had a form. */
  token = "";

  private readonly server: TestServer;

  constructor(server: TestServer) {
    this.server = server;
  }

  get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<WebResponse> {
    const response = await fetch(`${this.server.url}${path}`, { headers: { cookie: this.cookie, ...headers }, redirect: "manual" });
    this.remember(response);
    const html = await response.text();
    this.takeToken(html);
    return { status: response.status, headers: response.headers, html, location: response.headers.get("location") };
  }

  /** Posts a urlencoded form (with the last page's CSRF token unless `_csrf` is given) and returns the raw answer. */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<WebResponse> {
    const body = new URLSearchParams({ _csrf: this.token, ...fields });
    const response = await fetch(`${this.server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: this.cookie, ...headers },
      body,
      redirect: "manual",
    });
    this.remember(response);
    const html = await response.text();
    this.takeToken(html);
    return { status: response.status, headers: response.headers, html, location: response.headers.get("location") };
  }

  /** Keeps the CSRF token of a page that has a form (as a browser keeps the page it shows). */
  private takeToken(html: string): void {
    const token = /name="_csrf" value="([^"]+)"/.exec(html);
    if (token) this.token = token[1]!;
  }
}

/** A 303 See Other to this path (or matching this pattern). */
export function expectRedirect(response: WebResponse, to: string | RegExp): string {
  expect(response.status, response.html.slice(0, 300)).toBe(303);
  const location = response.location ?? "";
  if (typeof to === "string") expect(location).toBe(to);
  else expect(location).toMatch(to);
  return location;
}

/** Every HTML page: the strict CSP, nosniff, a referrer policy, no caching, no inline script. */
export function expectHtmlPage(response: WebResponse, status = 200): void {
  expect(response.status, response.html.slice(0, 500)).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8/);
  const csp = response.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain("unsafe-inline");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBeTruthy();
  expect(response.headers.get("cache-control")).toContain("no-store");
  for (const tag of response.html.match(/<script[^>]*>/gi) ?? []) {
    expect(tag).toMatch(/ src="\/assets\/[\w.-]+\.js"| type="application\/ld\+json"/);
  }
  expect(response.html).not.toMatch(/ style=|<style/i);
  // Markup passed as a plain string to the html tag comes out escaped, e.g. aria-current=&quot;step&quot;.
  expect(response.html).not.toMatch(/[a-z-]=&quot;/);
}
