// The admin web in HTTP tests: staff users, and a small browser-like client with a cookie jar that reads the CSRF
// token out of each form it is shown and follows no redirect by itself.
import { expect } from "vitest";
import type { Grant } from "../../src/tools/scopes.ts";
import { createStaff } from "../../src/tools/staff/staff-users.ts";
import type { TestServer } from "./server.ts";

export const PASSWORD = "kaffe og wienerbrød";

/** Creates a staff user with these scopes ("*" when none are given). */
export async function staffUser(server: TestServer, email: string, scopes: string[] = ["*"], password = PASSWORD) {
  return createStaff(server.prisma, { email, password, scopes: scopes as Grant[] });
}

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** The Location header of a redirect. */
  location: string | null;
}

export class AdminClient {
  readonly cookies = new Map<string, string>();

  readonly server: TestServer;
  /** Sent as X-Forwarded-For (the server trusts loopback proxies), so tests can play several client addresses. */
  readonly address?: string;

  constructor(server: TestServer, address?: string) {
    this.server = server;
    this.address = address;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** One request; `form` is sent urlencoded (URLSearchParams for repeated fields such as checkboxes). */
  async request(method: string, path: string, init: { form?: Record<string, string> | URLSearchParams; headers?: Record<string, string> } = {}): Promise<Page> {
    const headers: Record<string, string> = { accept: "text/html,application/xhtml+xml", ...init.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (this.address) headers["x-forwarded-for"] = this.address;
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = (init.form instanceof URLSearchParams ? init.form : new URLSearchParams(init.form)).toString();
    }
    const response = await fetch(`${this.server.url}${path}`, { method, headers, body, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = pair!.split("=");
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join("="));
    }
    return { status: response.status, headers: response.headers, html: await response.text(), location: response.headers.get("location") };
  }

  get(path: string, headers?: Record<string, string>): Promise<Page> {
    return this.request("GET", path, headers ? { headers } : {});
  }

  /** GETs `formPage`, then POSTs `form` to `action` with the CSRF token that page carried. */
  async submit(formPage: string, action: string, form: Record<string, string>): Promise<Page> {
    const page = await this.get(formPage);
    return this.request("POST", action, { form: { _csrf: csrfOf(page.html), ...form } });
  }

  async signIn(email: string, password = PASSWORD): Promise<Page> {
    return this.submit("/admin/login", "/admin/login", { email, password });
  }
}

/** The value of the first hidden `_csrf` field of a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF field in the page:\n${html.slice(0, 500)}`);
  return match[1]!;
}

/** A client signed in as a (new) staff user with these scopes. */
export async function signedInClient(server: TestServer, email: string, scopes: string[] = ["*"]): Promise<AdminClient> {
  await staffUser(server, email, scopes);
  const client = new AdminClient(server);
  const page = await client.signIn(email);
  expect(page.status, page.html.slice(0, 300)).toBe(303);
  return client;
}
